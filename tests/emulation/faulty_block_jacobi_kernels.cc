// Deliberately broken builds of the block-Jacobi CUDA kernel source, for the
// fault-injection tests only (fault_injection_test.cc). The source file is
// unchanged; one intrinsic is redefined around it:
//   FACTORD_FAULT_WRONG_SHUFFLE_LANE: every __shfl_sync reads the lane after
//     the one asked for, so the Gauss-Jordan kernel broadcasts the wrong
//     pivot row (its butterfly argmax uses __shfl_xor_sync and stays right);
//   FACTORD_FAULT_MISSING_SYNCTHREADS: every __syncthreads() is dropped, so
//     the apply kernel reads its shared copy of r before the other warps
//     have gathered it.
// Each variant is linked into its own test executable, so its symbols never
// meet those of the correct build.
#include "tests/emulation/cuda_emulation.h"

#if defined(FACTORD_FAULT_WRONG_SHUFFLE_LANE)
#define __shfl_sync(mask, var, lane) \
  (::__shfl_sync)((mask), (var), ((lane) + 1) % warpSize)
#elif defined(FACTORD_FAULT_MISSING_SYNCTHREADS)
#define __syncthreads() ((void)0)
#else
#error \
    "define FACTORD_FAULT_WRONG_SHUFFLE_LANE or FACTORD_FAULT_MISSING_SYNCTHREADS"
#endif

#include "kernels/cuda/block_jacobi/block_jacobi_launch.cu"
