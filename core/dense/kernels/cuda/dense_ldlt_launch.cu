// Batched dense LDL^T of small symmetric blocks with 1x1 and 2x2 pivots
// (S1 §IV-B1 static / Bunch-Kaufman / rook pivoting; S2 Alg. 1, LDL^T
// variant) for the fronts of ldlt: one warp per block, the per-warp work in
// warp_ldlt.cuh (WarpLdlt::RunPartial reproduces DensePartialLdlt).
#include <cmath>
#include <cstdint>

#include "core/dense/kernels/cuda/dense_ldlt_launch.h"
#include "core/dense/kernels/cuda/warp_ldlt.cuh"
#include "core/dense/kernels/dense_ldlt.h"
#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {
namespace {

constexpr int kMaxRows = WarpLdlt::kMaxRows;
constexpr int kWarpsPerCudaBlock = 4;
constexpr int kThreadsPerCudaBlock = kWarpSize * kWarpsPerCudaBlock;

__global__ void __launch_bounds__(kThreadsPerCudaBlock)
    DenseLdltBatchKernel(DeviceDenseLdltBatch batch, DenseLdltParams params,
                         double* __restrict__ values, int* __restrict__ order,
                         int* __restrict__ size, double* __restrict__ d_diag,
                         double* __restrict__ d_off,
                         DenseLdltCounts* __restrict__ counts) {
  const int64_t b =
      static_cast<int64_t>(blockIdx.x) * kWarpsPerCudaBlock + threadIdx.y;
  if (b >= batch.num_blocks) return;  // uniform across the warp
  const int64_t first_pivot = batch.pivot_ptr[b];
  const int m = static_cast<int>(batch.pivot_ptr[b + 1] - first_pivot);
  const int lane = threadIdx.x;
  WarpLdlt w;
  w.Init(lane, m, params, order + first_pivot, size + first_pivot,
         d_diag + first_pivot, d_off + first_pivot);
  double* f = values + batch.value_ptr[b];
#pragma unroll
  for (int j = 0; j < kMaxRows; ++j) {
    w.row[j] = (lane < m && j < m) ? f[j * m + lane] : 0.0;
  }
  w.RunPartial();
  if (w.lane < m) {
#pragma unroll
    for (int j = 0; j < kMaxRows; ++j) {
      if (j < m) f[j * m + w.lane] = w.row[j];
    }
  }
  if (w.lane == 0) counts[b] = w.counts;
}

}  // namespace

cudaError_t LaunchDenseLdltBatch(const DeviceDenseLdltBatch& batch,
                                 const DenseLdltParams& params, double* values,
                                 int* order, int* size, double* d_diag,
                                 double* d_off, DenseLdltCounts* counts,
                                 cudaStream_t stream) {
  if (batch.num_blocks == 0) return cudaSuccess;
  const dim3 grid(static_cast<unsigned>(
      (batch.num_blocks + kWarpsPerCudaBlock - 1) / kWarpsPerCudaBlock));
  FACTORD_LAUNCH(DenseLdltBatchKernel, grid,
                 dim3(kWarpSize, kWarpsPerCudaBlock), 0, stream)
  (batch, params, values, order, size, d_diag, d_off, counts);
  return cudaGetLastError();
}

}  // namespace factord::kernels::cuda
