// A deliberately broken build of the batched dense factorization CUDA
// kernel source, for the fault-injection tests only (fault_variants.h says
// which fault). A wrong __shfl_sync lane corrupts the broadcast pivots and
// pivot rows; a wrong __shfl_xor_sync stride breaks the pivot-search
// reduction; the kernel has no __syncthreads, so that fault leaves it
// correct.
#include "core/emulation/cuda_emulation.h"
#include "tests/core/emulation/fault_variants.h"
// The kernel source, unchanged:
#include "core/dense/kernels/cuda/batched_dense_launch.cu"
