// The per-warp LDL^T of one small symmetric block with 1x1 and 2x2 pivots
// (S1 §IV-B1 static / Bunch-Kaufman / rook pivoting; S2 Alg. 1, LDL^T
// variant; S2 §IV Bunch-Parlett as the symmetric full pivoting), one warp
// per block, lane i holding row i of the block in a register array (S3 §3.1
// layout). Shared by the batched dense LDL^T kernels of factor/ (fronts)
// and dense/ (S2 §IV blocks).
//
// The pivot search of DensePartialLdlt (core/dense/kernels/dense_ldlt.h) is a
// sequence of data-dependent decisions; here every lane takes the same
// decisions on the same data: a column needed by the search is gathered
// into every lane by 32 shuffles, and the scans over it run in the host
// routine's order. The Bunch-Parlett search of DenseLdltBunchParlett
// (core/dense/kernels/dense_ldlt_full.h) is a warp reduction instead, keyed so
// that ties go where the host routine's scan order sends them. The
// eliminations are SIMT: lane i updates its row with the multipliers of the
// other rows, each computed by its owner lane and broadcast by a shuffle,
// with the host routine's operations, so that the results are the
// reference's (bit for bit without FMA contraction).
// Shared with the host routines (core/dense/kernels/dense_ldlt.h): the
// per-pivot tests (dense_ldlt::Passes1x1, Accept2x2, Nonsingular2x2,
// BunchParlettPivotSize) and the bookkeeping (RecordPivot, PerturbedPivot).
// Not shared: the search (dense_ldlt::SearchPivot), Partner, ColumnMax and
// the eliminations, because here a column lives across the 32 lanes (one
// row per lane): the search reads gathered copies of a column, and an
// elimination updates every lane's row with multipliers broadcast by
// shuffles, so the host's column loops cannot run here as written. The
// search also applies the plain 1x1 and 2x2 tests only (no weak-pass
// update bound: DenseLdltParams::max_weak_update is not applied).
// Limits: blocks of at most 32 rows, all fully summed (no update rows); the
// search costs O(m) shuffles per candidate, which is fine for the diagonal
// blocks of S1 but not a tuned kernel.
#ifndef FACTORD_DENSE_KERNELS_CUDA_WARP_LDLT_CUH_
#define FACTORD_DENSE_KERNELS_CUDA_WARP_LDLT_CUH_

#include <cmath>
#include <cstdint>

#include "core/dense/kernels/dense_ldlt.h"
#include "core/kernels/cuda/cuda_launch.cuh"
#include "core/kernels/cuda/register_array.cuh"
#include "core/kernels/cuda/warp_argmax.cuh"

namespace factord::kernels::cuda {

// The state of one warp factorizing one block; every member but `row` and
// `lane` is identical in all lanes.
struct WarpLdlt {
  static constexpr int kMaxRows = 32;

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
      dense_ldlt::RecordPivot(order, size, d_diag, d_off, q, j, pivot_size, d,
                              off);
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
    Take1(j, dense_ldlt::PerturbedPivot(a, params.perturbation, &counts), -1);
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
      if (dense_ldlt::Passes1x1(ajj, g_j, u, tiny)) {
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
      if (dense_ldlt::Passes1x1(arr, g_r, u, tiny)) {
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
        if (dense_ldlt::Nonsingular2x2(a, b, c, params.tiny)) {
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

  // Prepares a block of m rows; row[] must be loaded by the caller (lane i:
  // F(i, 0..m-1), zeros beyond m). order, size, d_diag and d_off receive m
  // entries each and are written by lane 0 only.
  __device__ __forceinline__ void Init(int lane_index, int rows,
                                       const DenseLdltParams& ldlt_params,
                                       int* order_out, int* size_out,
                                       double* d_diag_out, double* d_off_out) {
    lane = lane_index;
    m = rows;
    alive = m == kMaxRows ? ~0u : (1u << m) - 1u;
    num_alive = m;
    q = 0;
    params = ldlt_params;
    u = params.threshold;
    counts = DenseLdltCounts{};
    order = order_out;
    size = size_out;
    d_diag = d_diag_out;
    d_off = d_off_out;
  }

  // DensePartialLdlt(f, m, m, params, ...): the threshold passes (the host
  // routine's loops: sweeps over the alive columns while a sweep takes a
  // pivot; then, with more than delay_budget columns left, the same with
  // the weak threshold), then the delayed columns or, with force, the rest.
  __device__ void RunPartial() {
    u = params.threshold;
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) {
        if (num_alive <= params.delay_budget || params.force) break;
        u = params.weak_threshold;
      }
      bool progress = true;
      while (progress && num_alive > 0 &&
             (pass == 0 || num_alive > params.delay_budget)) {
        progress = false;
        int cursor = 0;
        while (cursor < num_alive &&
               (pass == 0 || num_alive > params.delay_budget)) {
          if (TryPivot(NthAlive(cursor))) {
            progress = true;  // the list shifted: test the same position
          } else {
            ++cursor;
          }
        }
      }
    }
    counts.eliminated = q;
    if (!params.force) {
      if (lane == 0) {  // the delayed columns, in their local order
        int t = q;
        for (int c = 0; c < m; ++c) {
          if (IsAlive(c)) order[t++] = c;
        }
      }
    } else {
      ForceRemaining();
      counts.eliminated = q;
    }
  }

  // DenseLdltBunchParlett (core/dense/kernels/dense_ldlt_full.h): at each step
  // the largest |diagonal| gamma_d (first alive index on ties) and the
  // largest |F(r, c)|, r > c, gamma_o (first in the host's (c, r) scan
  // order) by warp reductions; 1x1 when gamma_d >= alpha gamma_o, else the
  // 2x2 on (c, r); a numerically zero remainder is perturbed.
  __device__ void RunBunchParlett() {
    const bool mine = lane < m;
    while (num_alive > 0) {
      const double my_diag = SelectEntry(row, lane);
      double gamma_d = -INFINITY;
      int jd = kNoCandidate;
      if (mine && IsAlive(lane) && my_diag == my_diag) {
        gamma_d = fabs(my_diag);
        jd = lane;
      }
      WarpArgMax(gamma_d, jd);
      if (jd == kNoCandidate) {  // every alive diagonal is NaN
        gamma_d = -1;
        jd = NthAlive(0);
      }
      // This row's largest |F(lane, c)| over alive c < lane, first c.
      double gamma_o = -INFINITY;
      int key = kNoCandidate;
      if (mine && IsAlive(lane)) {
        double best = 0;
        int best_c = -1;
#pragma unroll
        for (int c = 0; c < kMaxRows; ++c) {
          if (c < lane && IsAlive(c)) {
            const double v = fabs(row[c]);
            if (v > best) {
              best = v;
              best_c = c;
            }
          }
        }
        if (best_c >= 0) {
          gamma_o = best;
          key = best_c * kMaxRows + lane;
        }
      }
      WarpArgMax(gamma_o, key);
      int ro = -1, co = -1;
      if (key == kNoCandidate) {
        gamma_o = 0;
      } else {
        co = key / kMaxRows;
        ro = key % kMaxRows;
      }
      const double a_jd = __shfl_sync(kFullWarpMask, SelectEntry(row, jd), jd);
      const int pivot_size =
          dense_ldlt::BunchParlettPivotSize(gamma_d, gamma_o, params.tiny);
      if (pivot_size == 0) {
        Perturb(jd, a_jd);
        continue;
      }
      if (pivot_size == 1) {
        Take1(jd, a_jd, 1);
        continue;
      }
      // 2x2 on (co, ro): |b| = gamma_o dominates its diagonals.
      const double a = __shfl_sync(kFullWarpMask, SelectEntry(row, co), co);
      const double b = __shfl_sync(kFullWarpMask, SelectEntry(row, co), ro);
      const double c = __shfl_sync(kFullWarpMask, SelectEntry(row, ro), ro);
      Take2(co, ro, a, b, c);
    }
    counts.eliminated = q;
  }
};

}  // namespace factord::kernels::cuda

#endif  // FACTORD_DENSE_KERNELS_CUDA_WARP_LDLT_CUH_
