// A deliberately broken build of the dense LDL^T CUDA kernel source, for the
// fault-injection tests only (fault_variants.h says which fault). The wrong
// shuffle lane corrupts the gathered columns and the broadcast multipliers;
// the kernel has no __syncthreads, so the other fault leaves it correct.
#include "core/emulation/cuda_emulation.h"
#include "tests/core/emulation/fault_variants.h"
// The kernel source, unchanged:
#include "core/dense/kernels/cuda/dense_ldlt_launch.cu"
