// Launches of the level-scheduled block triangular solves of the block
// incomplete LDL^T (S1 §IV-C: "we reuse the level sets from the
// factorization - in the same order for L and inverted for L^T") on device
// arrays: per level a forward launch (one thread per block row of the
// level), one D^{-1} launch (one thread per block), per level in reverse a
// backward launch (one thread per block column). Each thread runs the
// host/device per-block code of core/block_ildlt/kernels/block_ildlt_solve.h,
// so z equals the reference's Apply bit for bit. The kernels are in
// block_ildlt_solve_launch.cu; the same source runs under the test-only
// emulation (core/emulation, in the emulated tests).
//
// No allocation, no synchronisation; the caller owns every array.
#ifndef FACTORD_BLOCK_ILDLT_KERNELS_CUDA_BLOCK_ILDLT_SOLVE_LAUNCH_H_
#define FACTORD_BLOCK_ILDLT_KERNELS_CUDA_BLOCK_ILDLT_SOLVE_LAUNCH_H_

#include <cstdint>

#include "core/block_ildlt/kernels/block_ildlt_solve.h"
#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {

// factor: device pointers; level_blocks: device, num_blocks entries;
// level_ptr: host, num_levels + 1 entries. y (n, device): the ordered,
// scaled right-hand side on entry, x on return; w (n, device): workspace.
cudaError_t LaunchBlockIldltSolve(const BlockIldltSolveView& factor,
                                  int64_t num_blocks,
                                  const int32_t* level_blocks, int num_levels,
                                  const int64_t* level_ptr, double* y,
                                  double* w, cudaStream_t stream);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_BLOCK_ILDLT_KERNELS_CUDA_BLOCK_ILDLT_SOLVE_LAUNCH_H_
