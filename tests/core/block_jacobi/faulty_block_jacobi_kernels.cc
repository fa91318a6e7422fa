// A deliberately broken build of the block-Jacobi CUDA kernel source, for
// the fault-injection tests only (fault_variants.h says which fault). The
// wrong shuffle lane makes the Gauss-Jordan kernel broadcast the wrong pivot
// row (its butterfly argmax uses __shfl_xor_sync and stays right); the
// missing __syncthreads makes the apply kernel read its shared copy of r
// before the other warps have gathered it.
#include "core/emulation/cuda_emulation.h"
#include "tests/core/emulation/fault_variants.h"
// The kernel source, unchanged:
#include "core/block_jacobi/kernels/cuda/block_jacobi_launch.cu"
