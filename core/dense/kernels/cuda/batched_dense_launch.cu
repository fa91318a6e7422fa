// Batched dense block factorizations of S2 §IV (LU, LL^T, LDL^T; static,
// partial, full and rook pivoting), one warp per block, lane i holding row i
// of the block in registers (S2 Alg. 1, S3 §3.1). The per-warp work is
// WarpLu (dense/warp_lu.cuh), WarpCholesky (dense/warp_cholesky.cuh) and
// WarpLdlt (factor/warp_ldlt.cuh), each reproducing the shared host routine
// of kernels/common/ that the reference kernel calls; this file does what
// FactorDenseBlock (core/dense/kernels/dense_block_factor.h) does around them:
// the relative thresholds, the symmetric copy, the output layout and the
// per-block status. A block that fails (zero pivot, non-SPD, NaN/Inf) gets
// its status and step; nothing is divided by a zero pivot.
//
// The kernel is instantiated once per factorization kind, so that each
// keeps only its own register arrays.
#include <cmath>
#include <cstdint>

#include "core/dense/kernels/cuda/batched_dense_launch.h"
#include "core/dense/kernels/cuda/warp_cholesky.cuh"
#include "core/dense/kernels/cuda/warp_ldlt.cuh"
#include "core/dense/kernels/cuda/warp_lu.cuh"
#include "core/dense/kernels/dense_cholesky.h"
#include "core/dense/kernels/dense_ldlt.h"
#include "core/dense/kernels/dense_lu.h"
#include "core/kernels/cuda/cuda_launch.cuh"
#include "core/kernels/cuda/register_array.cuh"
#include "core/kernels/cuda/warp_argmax.cuh"

namespace factord::kernels::cuda {
namespace {

constexpr int kMaxRows = 32;
constexpr int kWarpsPerCudaBlock = 4;
constexpr int kThreadsPerCudaBlock = kWarpSize * kWarpsPerCudaBlock;
static_assert(kMaxRows == kMaxDenseBlockSize, "one lane per row of a block");

// Row `lane` of the block (column-major, leading dimension m): as stored,
// or, for the symmetric kinds, the symmetric copy of the lower triangle.
__device__ __forceinline__ void LoadRow(const double* a, int m, int lane,
                                        bool symmetric,
                                        double (&row)[kMaxRows]) {
#pragma unroll
  for (int j = 0; j < kMaxRows; ++j) {
    double v = 0;
    if (lane < m && j < m) {
      v = (!symmetric || lane >= j) ? a[j * m + lane] : a[lane * m + j];
    }
    row[j] = v;
  }
}

__device__ __forceinline__ bool AnyNotFinite(const double (&row)[kMaxRows],
                                             int m, int lane) {
  bool bad = false;
#pragma unroll
  for (int j = 0; j < kMaxRows; ++j) {
    if (lane < m && j < m && !IsFiniteValue(row[j])) bad = true;
  }
  return __any_sync(kFullWarpMask, bad);
}

// LDL^T of one block with FactorDenseBlock's parameters and output layout.
__device__ DenseBlockResult LdltBlock(const DeviceDenseBatchParams& params,
                                      double tiny, double scale, double* a,
                                      int m, int lane, int64_t x,
                                      const DeviceDenseBatch& batch) {
  // Pivot records of this warp, written by lane 0, read by every lane
  // after __syncwarp.
  __shared__ int order[kWarpsPerCudaBlock][kMaxRows];
  __shared__ int size[kWarpsPerCudaBlock][kMaxRows];
  __shared__ double d_diag[kWarpsPerCudaBlock][kMaxRows];
  __shared__ double d_off[kWarpsPerCudaBlock][kMaxRows];
  const int warp = threadIdx.y;
  DenseBlockResult result;
  WarpLdlt w;
  LoadRow(a, m, lane, /*symmetric=*/true, w.row);
  if (AnyNotFinite(w.row, m, lane)) {
    result.status = kDenseNotFinite;
    result.step = 0;
    if (lane < m) batch.row_perm[x + lane] = batch.col_perm[x + lane] = lane;
    return result;
  }
  DenseLdltParams ldlt;
  ldlt.tiny = tiny;
  ldlt.perturbation = params.perturbation * scale;
  ldlt.threshold = params.threshold;
  ldlt.force = true;
  ldlt.pivoting = params.pivoting == kBlockPivotStatic ? kDenseStatic
                  : params.pivoting == kBlockPivotRook ? kDenseRook
                                                       : kDenseBunchKaufman;
  w.Init(lane, m, ldlt, order[warp], size[warp], d_diag[warp], d_off[warp]);
  if (params.pivoting == kBlockPivotFull) {
    w.RunBunchParlett();
  } else {
    w.RunPartial();
  }
  __syncwarp();
  // This lane's row sits at logical position r; L(r, c) is its entry in
  // column order[c] (unit diagonal, zero inside a 2x2 pair).
  int r = 0;
  while (r < m && order[warp][r] != lane) ++r;
  __syncwarp();  // every lane has read `a` (LoadRow) before it is written
  if (lane < m) {
    for (int c = 0; c < m; ++c) {
      double v = 0;
      if (r == c) {
        v = 1;
      } else if (r > c && !(size[warp][c] == 2 && r == c + 1)) {
        v = SelectEntry(w.row, order[warp][c]);
      }
      a[c * m + r] = v;
    }
    const int t = lane;
    batch.row_perm[x + t] = batch.col_perm[x + t] = order[warp][t];
    batch.pivot_size[x + t] =
        static_cast<int8_t>(size[warp][t] < 0 ? 1 : size[warp][t]);
    batch.d_diag[x + t] = d_diag[warp][t];
    batch.d_off[x + t] = d_off[warp][t];
  }
  for (int c = 0; c < m && result.step < 0; ++c) {
    if (size[warp][c] < 0) result.step = c;
  }
  if (w.counts.zero > 0) {
    result.status = kDenseZeroPivot;
  } else if (w.counts.perturbed > 0) {
    result.status = kDenseTinyPivot;
  }
  return result;
}

template <int kKind>
__global__ void __launch_bounds__(kThreadsPerCudaBlock)
    FactorDenseBatchKernel(DeviceDenseBatchParams params,
                           DeviceDenseBatch batch) {
  const int64_t b =
      static_cast<int64_t>(blockIdx.x) * kWarpsPerCudaBlock + threadIdx.y;
  if (b >= batch.num_blocks) return;  // uniform across the warp
  const int lane = threadIdx.x;
  const int m = batch.size[b];
  double* a = batch.values + batch.value_offset[b];
  const int64_t x = batch.index_offset[b];
  // The thresholds relative to the block's largest |entry| (NaNs ignored,
  // as fmax does in FactorDenseBlock).
  double scale = 1.0;
  if (params.relative) {
    double mine = 0;
    if (lane < m) {
      for (int j = 0; j < m; ++j) mine = fmax(mine, fabs(a[j * m + lane]));
    }
    scale = WarpMax(mine);
    if (!(scale > 0) || !IsFiniteValue(scale)) scale = 1.0;
  }
  const double tiny = params.tiny * scale;
  if (lane < m) {
    batch.pivot_size[x + lane] = 1;
    batch.d_diag[x + lane] = 0;
    batch.d_off[x + lane] = 0;
  }
  DenseBlockResult result;
  if constexpr (kKind == kDeviceDenseLu) {
    WarpLu w;
    LoadRow(a, m, lane, /*symmetric=*/false, w.row);
    w.Init(lane, m);
    result = w.Factor(params.pivoting, tiny);
    __syncwarp();    // every lane has read `a` before it is written
    if (lane < m) {  // the postponed row permutation (S2 §IV)
#pragma unroll
      for (int j = 0; j < kMaxRows; ++j) {
        if (j < m) a[j * m + w.my_pos] = w.row[j];
      }
      batch.row_perm[x + w.my_pos] = lane;
      batch.col_perm[x + lane] = w.my_col;
    }
  } else if constexpr (kKind == kDeviceDenseLlt) {
    WarpCholesky w;
    LoadRow(a, m, lane, /*symmetric=*/true, w.row);
    w.Init(lane, m);
    result = w.Factor(params.pivoting, tiny);
    __syncwarp();  // every lane has read `a` before it is written
    // Lane at logical i writes L(i, j) = A(pos[i], pos[j]) for i >= j.
    for (int j = 0; j < m; ++j) {
      const int physical_j = WarpFirstLane(lane < m && w.my_pos == j);
      const double v = SelectEntry(w.row, physical_j);
      if (lane < m) a[j * m + w.my_pos] = w.my_pos >= j ? v : 0.0;
    }
    if (lane < m) {
      batch.row_perm[x + w.my_pos] = batch.col_perm[x + w.my_pos] = lane;
    }
  } else {
    result = LdltBlock(params, tiny, scale, a, m, lane, x, batch);
  }
  if (lane == 0) {
    batch.status[b] = static_cast<int8_t>(result.status);
    batch.step[b] = result.step;
  }
}

}  // namespace

cudaError_t LaunchFactorDenseBatch(const DeviceDenseBatchParams& params,
                                   const DeviceDenseBatch& batch,
                                   cudaStream_t stream) {
  if (batch.num_blocks == 0) return cudaSuccess;
  const dim3 grid(static_cast<unsigned>(
      (batch.num_blocks + kWarpsPerCudaBlock - 1) / kWarpsPerCudaBlock));
  const dim3 block(kWarpSize, kWarpsPerCudaBlock);
  switch (params.kind) {
    case kDeviceDenseLu:
      FACTORD_LAUNCH(FactorDenseBatchKernel<kDeviceDenseLu>, grid, block, 0,
                     stream)
      (params, batch);
      break;
    case kDeviceDenseLlt:
      FACTORD_LAUNCH(FactorDenseBatchKernel<kDeviceDenseLlt>, grid, block, 0,
                     stream)
      (params, batch);
      break;
    case kDeviceDenseLdlt:
      FACTORD_LAUNCH(FactorDenseBatchKernel<kDeviceDenseLdlt>, grid, block, 0,
                     stream)
      (params, batch);
      break;
    default:
      return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

}  // namespace factord::kernels::cuda
