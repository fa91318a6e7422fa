// The block_ildlt numeric CUDA kernel source, compiled by the host compiler
// under the CPU emulation (cuda_emulation.h) for the emulated-kernel tests.
#include "core/emulation/cuda_emulation.h"
// The include order matters: the emulation header comes first.
#include "core/block_ildlt/kernels/cuda/block_ildlt_launch.cu"
