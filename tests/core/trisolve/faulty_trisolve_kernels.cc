// A deliberately broken build of the trisolve sweep CUDA kernel source, for
// the fault-injection tests only (fault_variants.h says which fault). A
// wrong __shfl_sync lane feeds each block row's product with the residual
// of the next row (the block sweep); the scalar sweep has no shuffle, and
// neither kernel has __syncthreads or __shfl_xor_sync, so those faults
// leave both correct.
#include "core/emulation/cuda_emulation.h"
#include "tests/core/emulation/fault_variants.h"
// The kernel source, unchanged:
#include "core/trisolve/kernels/cuda/trisolve_launch.cu"
