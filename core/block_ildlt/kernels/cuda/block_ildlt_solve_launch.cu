// The level-scheduled block triangular solves of block_ildlt (S1 §IV-C) as
// CUDA kernels; see block_ildlt_solve_launch.h. Built with -fmad=false so
// that the per-block sums equal the reference's bit for bit.
//
// Limits: one thread per block row / column (no parallelism inside a
// block, up to 32 x 32 values per thread), and a launch per level, so deep,
// chain-like level sets are latency bound.
#include <cstdint>

#include "core/block_ildlt/kernels/block_ildlt_solve.h"
#include "core/block_ildlt/kernels/cuda/block_ildlt_solve_launch.h"
#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {
namespace {

constexpr int kSolveThreads = 128;

// S1 §IV-C forward: the block rows of one level (they read w of earlier
// levels only).
__global__ void __launch_bounds__(kSolveThreads)
    ForwardLevelKernel(BlockIldltSolveView f,
                       const int32_t* __restrict__ level_blocks, int64_t first,
                       int64_t count, double* y, double* w) {
  const int64_t b = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= count) return;
  BlockRowForward(f, level_blocks[first + b], y, w);
}

__global__ void __launch_bounds__(kSolveThreads)
    DiagonalKernel(BlockIldltSolveView f, int64_t num_blocks, double* w) {
  const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= num_blocks) return;
  BlockDiagonalSolve(f, j, w);
}

// S1 §IV-C backward: the block columns of one level (they read x of later
// levels only).
__global__ void __launch_bounds__(kSolveThreads)
    BackwardLevelKernel(BlockIldltSolveView f,
                        const int32_t* __restrict__ level_blocks, int64_t first,
                        int64_t count, double* y, double* w) {
  const int64_t b = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= count) return;
  BlockColumnBackward(f, level_blocks[first + b], y, w);
}

dim3 GridFor(int64_t count) {
  return dim3(
      static_cast<unsigned>((count + kSolveThreads - 1) / kSolveThreads));
}

}  // namespace

cudaError_t LaunchBlockIldltSolve(const BlockIldltSolveView& factor,
                                  int64_t num_blocks,
                                  const int32_t* level_blocks, int num_levels,
                                  const int64_t* level_ptr, double* y,
                                  double* w, cudaStream_t stream) {
  if (num_blocks == 0) return cudaSuccess;
  for (int level = 0; level < num_levels; ++level) {  // L w = P y
    const int64_t first = level_ptr[level];
    const int64_t count = level_ptr[level + 1] - first;
    if (count == 0) continue;
    FACTORD_LAUNCH(ForwardLevelKernel, GridFor(count), dim3(kSolveThreads), 0,
                   stream)
    (factor, level_blocks, first, count, y, w);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  }
  FACTORD_LAUNCH(DiagonalKernel, GridFor(num_blocks), dim3(kSolveThreads), 0,
                 stream)
  (factor, num_blocks, w);  // D^{-1}
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  for (int level = num_levels - 1; level >= 0; --level) {  // L^T x = w
    const int64_t first = level_ptr[level];
    const int64_t count = level_ptr[level + 1] - first;
    if (count == 0) continue;
    FACTORD_LAUNCH(BackwardLevelKernel, GridFor(count), dim3(kSolveThreads), 0,
                   stream)
    (factor, level_blocks, first, count, y, w);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace factord::kernels::cuda
