// The per-warp LU of one small block with static, partial or full pivoting
// (S2 §IV, Alg. 1): one warp per block, lane i holding physical row i in a
// register array (S3 §3.1 layout). Rows are never moved (S2 §IV, after
// Anzt et al.): each lane records the logical position of its row
// (t_pivot_r of Alg. 1) and the permutation is applied when the factor is
// written back; the pivot is found by a warp reduction (reduce_with_ix,
// Alg. 1 line 7); the pivot column is swapped into position s explicitly
// (Alg. 1 line 21) and the column permutation is recorded one entry per
// lane (t_pivot_c).
//
// The arithmetic is that of the shared host routine DenseLu
// (core/dense/kernels/dense_lu.h): the same multipliers l = a(r, s) / pivot and
// updates a(r, c) -= l a(pr, c), in the same order per entry, and the same
// tie-breaking (the first candidate in DenseLu's scan order), so that the
// factors, permutations and statuses are DenseLu's bit for bit without FMA
// contraction. S2 Alg. 1's fused downdate (scale, swap and the next search
// in one loop) would round differently and is not used.
// Limits: m <= 32; O(m) shuffles per step for the pivot row broadcast.
#ifndef FACTORD_DENSE_KERNELS_CUDA_WARP_LU_CUH_
#define FACTORD_DENSE_KERNELS_CUDA_WARP_LU_CUH_

#include <cmath>

#include "core/dense/kernels/dense_lu.h"
#include "core/kernels/cuda/cuda_launch.cuh"
#include "core/kernels/cuda/register_array.cuh"
#include "core/kernels/cuda/warp_argmax.cuh"

namespace factord::kernels::cuda {

struct WarpLu {
  static constexpr int kMaxRows = 32;

  double row[kMaxRows];  // lane i: A(i, 0..m-1) of the working copy
  int lane;
  int m;
  int my_pos;  // the logical position of this lane's row (row_of^{-1})
  int my_col;  // col_perm[lane]

  // `row` loaded by the caller (zeros beyond m).
  __device__ __forceinline__ void Init(int lane_index, int rows) {
    lane = lane_index;
    m = rows;
    my_pos = lane;
    my_col = lane;
  }

  // DenseLu(m, a, pivoting, tiny, ...) on the registers; returns the
  // status and step (identical in all lanes).
  __device__ DenseBlockResult Factor(int pivoting, double tiny) {
    DenseBlockResult result;
    bool bad = false;
#pragma unroll
    for (int j = 0; j < kMaxRows; ++j) {
      if (lane < m && j < m && !IsFiniteValue(row[j])) bad = true;
    }
    if (__any_sync(kFullWarpMask, bad)) {
      result.status = kDenseNotFinite;
      result.step = 0;
      return result;
    }
    for (int s = 0; s < m; ++s) {
      int best_t = s, best_c = s;
      if (pivoting != kBlockPivotStatic) {
        // This lane's candidate: the largest |A(row, c)| over the searched
        // columns (first c), keyed (c, logical row) as DenseLu scans.
        double value = -INFINITY;
        int key = kNoCandidate;
        if (lane < m && my_pos >= s) {
          const int last_col = pivoting == kBlockPivotPartial ? s : m - 1;
          double best = -1;
          int best_col = -1;
#pragma unroll
          for (int c = 0; c < kMaxRows; ++c) {
            if (c >= s && c <= last_col) {
              const double v = fabs(row[c]);
              if (v > best) {
                best = v;
                best_col = c;
              }
            }
          }
          if (best_col >= 0) {
            value = best;
            key = best_col * kMaxRows + my_pos;
          }
        }
        WarpArgMax(value, key);  // S2 Alg. 1 line 7
        if (key != kNoCandidate) {
          best_c = key / kMaxRows;
          best_t = key % kMaxRows;
        }
      }
      // Record the row permutation only (S2 Alg. 1 line 10).
      if (my_pos == s) {
        my_pos = best_t;
      } else if (my_pos == best_t) {
        my_pos = s;
      }
      if (best_c != s) {  // explicit column swap (S2 Alg. 1 line 21)
        const double at_s = SelectEntry(row, s);
        const double at_c = SelectEntry(row, best_c);
        SetEntry(row, s, at_c);
        SetEntry(row, best_c, at_s);
        const int source = lane == s ? best_c : lane == best_c ? s : lane;
        my_col = __shfl_sync(kFullWarpMask, my_col, source);  // line 11
      }
      const int pr = WarpFirstLane(lane < m && my_pos == s);
      const double pivot = __shfl_sync(kFullWarpMask, SelectEntry(row, s), pr);
      if (!IsFiniteValue(pivot)) {
        result.status = kDenseNotFinite;
        result.step = s;
        break;
      }
      if (pivot == 0) {
        result.status = kDenseZeroPivot;
        result.step = s;
        break;
      }
      if (fabs(pivot) <= tiny && result.status == kDenseOk) {
        result.status = kDenseTinyPivot;
        result.step = s;
      }
      // Rank-1 update of the rows not yet pivotal, the pivot row's entries
      // broadcast one column at a time.
      const bool update = lane < m && my_pos > s;
      double l = 0;
      if (update) {
        l = SelectEntry(row, s) / pivot;
        SetEntry(row, s, l);
      }
#pragma unroll
      for (int c = 0; c < kMaxRows; ++c) {
        const double pivot_row_c = __shfl_sync(kFullWarpMask, row[c], pr);
        if (update && l != 0 && c > s && c < m) row[c] -= l * pivot_row_c;
      }
    }
    return result;
  }
};

}  // namespace factord::kernels::cuda

#endif  // FACTORD_DENSE_KERNELS_CUDA_WARP_LU_CUH_
