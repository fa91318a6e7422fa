// A deliberately broken build of the trisolve sweep CUDA kernel source, for
// the fault-injection tests only (fault_variants.h says which fault). A
// wrong __shfl_sync lane feeds each block row's product with the residual
// of the next row (the block sweep); the scalar sweep has no shuffle, and
// neither kernel has __syncthreads or __shfl_xor_sync, so those faults
// leave both correct.
#include "emulation/cuda_emulation.h"
#include "tests/emulation/fault_variants.h"
// The kernel source, unchanged:
#include "kernels/cuda/trisolve/trisolve_launch.cu"
