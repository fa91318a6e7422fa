// A deliberately broken build of the block_ildlt numeric CUDA kernel
// source, for the fault-injection tests only (fault_variants.h says which
// fault). Without __syncthreads the diagonal block is factorized before it
// is in shared memory, the pull updates read W = L(J,K) D_K before the
// other threads of the block have written it, and the Finish kernel reads
// its radix histogram and tie offsets unfinished; the shuffle faults leave
// it right (it has no shuffle).
#include "core/emulation/cuda_emulation.h"
#include "tests/core/emulation/fault_variants.h"
// The kernel source, unchanged:
#include "core/block_ildlt/kernels/cuda/block_ildlt_launch.cu"
