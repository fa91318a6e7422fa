// The batched dense LDL^T CUDA kernel source, compiled by the host compiler
// under the CPU emulation (cuda_emulation.h) for the emulated-kernel tests.
#include "emulation/cuda_emulation.h"
// The include order matters: the emulation header comes first.
#include "kernels/cuda/factor/dense_ldlt_launch.cu"
