// Batched dense LDL^T of small symmetric blocks with 1x1 and 2x2 pivots
// (S1 §IV-B1 static / Bunch-Kaufman / rook pivoting; S2 Alg. 1, LDL^T
// variant), one warp per block, lane i holding row i of the block in a
// register array (S3 §3.1 layout).
//
// The pivot search of DensePartialLdlt (kernels/common/dense_ldlt.h) is a
// sequence of data-dependent decisions; here every lane takes the same
// decisions on the same data: a column needed by the search is gathered
// into every lane by 32 shuffles, and the scans over it run in the host
// routine's order. The eliminations are SIMT: lane i updates its row with
// the multipliers of the other rows, each computed by its owner lane and
// broadcast by a shuffle, with the host routine's operations, so that the
// results are the reference's (bit for bit without FMA contraction).
// The 2x2 threshold test is the shared host/device dense_ldlt::Accept2x2.
// Limits: blocks of at most 32 rows, all fully summed (no update rows); the
// search costs O(m) shuffles per candidate, which is fine for the diagonal
// blocks of S1 but not a tuned kernel.
#include <cmath>
#include <cstdint>

#include "kernels/common/dense_ldlt.h"
#include "kernels/cuda/cuda_launch.cuh"
#include "kernels/cuda/factor/dense_ldlt_launch.h"
#include "kernels/cuda/register_array.cuh"

namespace factord::kernels::cuda {
namespace {

constexpr int kMaxRows = 32;
constexpr int kWarpsPerCudaBlock = 4;
constexpr int kThreadsPerCudaBlock = kWarpSize * kWarpsPerCudaBlock;

// The state of one warp factorizing one block; every member but `row` and
// `lane` is identical in all lanes.
struct WarpLdlt {
  double row[kMaxRows];  // lane i: F(i, 0..m-1), column-major source
  int lane;
  int m;
  unsigned alive;  // bit t: row/column t not yet eliminated
  int num_alive;
  int q;  // pivots taken
  DenseLdltParams params;
  double u;  // the threshold of the current pass
  DenseLdltCounts counts;
  int* order;
  int* size;
  double* d_diag;
  double* d_off;

  __device__ __forceinline__ bool IsAlive(int t) const {
    return (alive >> t) & 1u;
  }

  // The t-th alive index in increasing order (the host routine's list).
  __device__ __forceinline__ int NthAlive(int n) const {
    int found = -1, seen = 0;
#pragma unroll
    for (int t = 0; t < kMaxRows; ++t) {
      if (IsAlive(t)) {
        if (seen == n && found < 0) found = t;
        ++seen;
      }
    }
    return found;
  }

  // col[t] = F(t, j) in every lane.
  __device__ __forceinline__ void GatherColumn(int j, double (&col)[kMaxRows]) {
    const double mine = SelectEntry(row, j);
#pragma unroll
    for (int t = 0; t < kMaxRows; ++t) {
      col[t] = __shfl_sync(kFullWarpMask, mine, t);
    }
  }

  // max |F(t, j)| over alive t other than skip1, skip2 (dense_ldlt::
  // ColumnMax without update rows).
  __device__ __forceinline__ double ColumnMax(const double (&col)[kMaxRows],
                                              int skip1, int skip2) const {
    double best = 0;
#pragma unroll
    for (int t = 0; t < kMaxRows; ++t) {
      if (IsAlive(t) && t != skip1 && t != skip2) {
        const double v = fabs(col[t]);
        if (v > best) best = v;
      }
    }
    return best;
  }

  // The alive t != j with the largest nonzero |F(t, j)|, first on ties, or
  // -1 (the host routine's `partner`).
  __device__ __forceinline__ int Partner(const double (&col)[kMaxRows],
                                         int j) const {
    int best = -1;
    double best_v = 0;
#pragma unroll
    for (int t = 0; t < kMaxRows; ++t) {
      if (IsAlive(t)) {
        const double v = fabs(col[t]);
        if (t != j && v > best_v) {
          best_v = v;
          best = t;
        }
      }
    }
    return best;
  }

  __device__ __forceinline__ void Record(int j, int pivot_size, double d,
                                         double off) {
    if (lane == 0) {
      order[q] = j;
      size[q] = pivot_size;
      d_diag[q] = d;
      d_off[q] = off;
    }
    alive &= ~(1u << j);
    --num_alive;
    ++q;
  }

  // dense_ldlt::Eliminate1x1: F(i,k) -= F(i,j) (F(k,j) / d) for the alive
  // columns k != j and every row i (the host routine sweeps whole columns
  // so that its loops vectorize), then column j scaled by 1/d.
  __device__ void Take1(int j, double d, int pivot_size) {
    const double inv = 1.0 / d;
    const double f_ij = SelectEntry(row, j);
    const double my_multiplier = f_ij * inv;  // lane k: F(k, j) / d
    const bool update = lane < m;
#pragma unroll
    for (int k = 0; k < kMaxRows; ++k) {
      if (IsAlive(k) && k != j) {  // uniform across the warp
        const double w = __shfl_sync(kFullWarpMask, my_multiplier, k);
        if (w != 0 && update) row[k] -= f_ij * w;
      }
    }
    if (update) SetEntry(row, j, f_ij * inv);
    Record(j, pivot_size, d, 0.0);
  }

  // dense_ldlt::Eliminate2x2 with D = [a b; b c] on columns (j, r), every
  // row updated as in the host routine.
  __device__ void Take2(int j, int r, double a, double b, double c) {
    const double det = a * c - b * b;
    const double i11 = c / det, i12 = -b / det, i22 = a / det;
    const double fj = SelectEntry(row, j), fr = SelectEntry(row, r);
    const double my_lj = fj * i11 + fr * i12, my_lr = fj * i12 + fr * i22;
    const bool update = lane < m;
#pragma unroll
    for (int k = 0; k < kMaxRows; ++k) {
      if (IsAlive(k) && k != j && k != r) {  // uniform across the warp
        const double lj = __shfl_sync(kFullWarpMask, my_lj, k);
        const double lr = __shfl_sync(kFullWarpMask, my_lr, k);
        if (!(lj == 0 && lr == 0) && update) row[k] -= fj * lj + fr * lr;
      }
    }
    if (update) {
      SetEntry(row, j, my_lj);
      SetEntry(row, r, my_lr);
    }
    Record(j, 2, a, b);
    Record(r, 0, c, 0.0);
    ++counts.two_by_two;
  }

  // The zero pivot j (diagonal a) replaced by +-perturbation and counted.
  __device__ void Perturb(int j, double a) {
    if (a == 0) ++counts.zero;
    ++counts.perturbed;
    Take1(j, a < 0 ? -params.perturbation : params.perturbation, -1);
  }

  // The host routine's try_pivot: 1x1 at j, else 1x1 at its partner r,
  // else the 2x2 (j, r); rook repeats from r.
  __device__ bool TryPivot(int j) {
    const double tiny = params.tiny;
    if (params.pivoting == kDenseStatic) {
      const double a = __shfl_sync(kFullWarpMask, SelectEntry(row, j), j);
      if (fabs(a) > tiny) {
        Take1(j, a, 1);
        return true;
      }
      return false;
    }
    const int steps = params.pivoting == kDenseRook ? 4 : 1;
    for (int step = 0; step < steps; ++step) {
      double col_j[kMaxRows];
      GatherColumn(j, col_j);
      const double ajj = SelectEntry(col_j, j);
      const double g_j = ColumnMax(col_j, j, -1);
      if (fabs(ajj) > tiny && fabs(ajj) >= u * g_j) {
        Take1(j, ajj, 1);
        return true;
      }
      if (fabs(ajj) <= tiny && g_j <= tiny) {
        // A numerically zero column stays zero whatever is eliminated
        // later: a zero pivot, perturbed at once (as the host routine).
        Perturb(j, ajj);
        return true;
      }
      const int r = Partner(col_j, j);
      if (r < 0) return false;
      double col_r[kMaxRows];
      GatherColumn(r, col_r);
      const double arr = SelectEntry(col_r, r);
      const double g_r = ColumnMax(col_r, r, -1);
      if (fabs(arr) > tiny && fabs(arr) >= u * g_r) {
        Take1(r, arr, 1);
        return true;
      }
      const double arj = SelectEntry(col_j, r);
      const double g_j2 = ColumnMax(col_j, j, r);
      const double g_r2 = ColumnMax(col_r, r, j);
      if (dense_ldlt::Accept2x2(ajj, arj, arr, g_j2, g_r2, u, tiny)) {
        Take2(j, r, ajj, arj, arr);
        return true;
      }
      j = r;
    }
    return false;
  }

  // The root's last resort: the largest remaining diagonal, a 2x2 with its
  // partner, or a perturbed 1x1.
  __device__ void ForceRemaining() {
    while (num_alive > 0) {
      double diag[kMaxRows];
      GatherColumnDiagonal(diag);
      int j = -1;
      double best = 0;
#pragma unroll
      for (int t = 0; t < kMaxRows; ++t) {
        if (IsAlive(t) && (j < 0 || fabs(diag[t]) > best)) {
          j = t;
          best = fabs(diag[t]);
        }
      }
      const double a = SelectEntry(diag, j);
      if (fabs(a) > params.tiny) {
        Take1(j, a, 1);
        continue;
      }
      double col_j[kMaxRows];
      GatherColumn(j, col_j);
      const int r = Partner(col_j, j);
      if (r >= 0) {
        const double b = SelectEntry(col_j, r), c = SelectEntry(diag, r);
        const double det = a * c - b * b;
        if (fabs(det) > params.tiny * fabs(b) &&
            fabs(det) > 1e-14 * (fabs(a * c) + b * b)) {
          Take2(j, r, a, b, c);
          continue;
        }
      }
      Perturb(j, a);
    }
  }

  // diag[t] = F(t, t) in every lane.
  __device__ __forceinline__ void GatherColumnDiagonal(
      double (&diag)[kMaxRows]) {
    const double mine = SelectEntry(row, lane);
#pragma unroll
    for (int t = 0; t < kMaxRows; ++t) {
      diag[t] = __shfl_sync(kFullWarpMask, mine, t);
    }
  }
};

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
  WarpLdlt w;
  w.lane = threadIdx.x;
  w.m = static_cast<int>(batch.pivot_ptr[b + 1] - first_pivot);
  w.alive = w.m == kMaxRows ? ~0u : (1u << w.m) - 1u;
  w.num_alive = w.m;
  w.q = 0;
  w.params = params;
  w.counts = DenseLdltCounts{};
  w.order = order + first_pivot;
  w.size = size + first_pivot;
  w.d_diag = d_diag + first_pivot;
  w.d_off = d_off + first_pivot;
  double* f = values + batch.value_ptr[b];
  const int m = w.m;
#pragma unroll
  for (int j = 0; j < kMaxRows; ++j) {
    w.row[j] = (w.lane < m && j < m) ? f[j * m + w.lane] : 0.0;
  }

  // Threshold passes (the host routine's loops): sweeps over the alive
  // columns while a sweep takes a pivot; then, with more than
  // delay_budget columns left, the same with the weak threshold.
  w.u = params.threshold;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      if (w.num_alive <= params.delay_budget || params.force) break;
      w.u = params.weak_threshold;
    }
    bool progress = true;
    while (progress && w.num_alive > 0 &&
           (pass == 0 || w.num_alive > params.delay_budget)) {
      progress = false;
      int cursor = 0;
      while (cursor < w.num_alive &&
             (pass == 0 || w.num_alive > params.delay_budget)) {
        if (w.TryPivot(w.NthAlive(cursor))) {
          progress = true;  // the list shifted: test the same position
        } else {
          ++cursor;
        }
      }
    }
  }
  w.counts.eliminated = w.q;
  if (!params.force) {
    if (w.lane == 0) {  // the delayed columns, in their local order
      int t = w.q;
      for (int c = 0; c < m; ++c) {
        if (w.IsAlive(c)) w.order[t++] = c;
      }
    }
  } else {
    w.ForceRemaining();
    w.counts.eliminated = w.q;
  }
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
