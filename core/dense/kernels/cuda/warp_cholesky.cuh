// The per-warp Cholesky (LL^T) of one small symmetric block with static or
// full (largest diagonal) pivoting: S2 §IV, "the symmetric (LL^T) case
// mirrors Alg. 1; row and column permutation is then the same". One warp
// per block, lane i holding physical row i of the symmetric working copy;
// the symmetric permutation is implicit (each lane records the logical
// position of its row and column), the pivot is found by a warp reduction.
//
// The arithmetic and tie-breaking are those of the shared host routine
// DenseCholesky (core/dense/kernels/dense_cholesky.h), so the factor, the
// permutation and the status are DenseCholesky's bit for bit without FMA
// contraction. Limits: m <= 32.
#ifndef FACTORD_DENSE_KERNELS_CUDA_WARP_CHOLESKY_CUH_
#define FACTORD_DENSE_KERNELS_CUDA_WARP_CHOLESKY_CUH_

#include <cmath>

#include "core/dense/kernels/dense_cholesky.h"
#include "core/kernels/cuda/cuda_launch.cuh"
#include "core/kernels/cuda/register_array.cuh"
#include "core/kernels/cuda/warp_argmax.cuh"

namespace factord::kernels::cuda {

struct WarpCholesky {
  static constexpr int kMaxRows = 32;

  double row[kMaxRows];  // lane i: A(i, 0..m-1), both triangles
  int lane;
  int m;
  int my_pos;  // the logical position of this lane's row and column

  // `row` loaded by the caller (the symmetric copy; zeros beyond m).
  __device__ __forceinline__ void Init(int lane_index, int rows) {
    lane = lane_index;
    m = rows;
    my_pos = lane;
  }

  // DenseCholesky(m, a, pivoting, tiny, ...) on the registers.
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
    unsigned done = 0;  // bit p: physical row/column p already pivotal
    for (int s = 0; s < m; ++s) {
      if (pivoting != kBlockPivotStatic) {
        // DenseCholesky keeps position s unless a later diagonal is
        // strictly larger (signed, NaN never wins); a NaN at s stays.
        const double d = SelectEntry(row, lane);
        double value = -INFINITY;
        int key = kNoCandidate;
        if (lane < m && my_pos >= s) {
          if (d == d) {
            value = d;
            key = my_pos;
          } else if (my_pos == s) {
            value = INFINITY;
            key = s;
          }
        }
        WarpArgMax(value, key);
        const int best_t = key == kNoCandidate ? s : key;
        if (my_pos == s) {
          my_pos = best_t;
        } else if (my_pos == best_t) {
          my_pos = s;
        }
      }
      const int p = WarpFirstLane(lane < m && my_pos == s);
      // One lane holds position s; none only after a broken pivot search
      // (the fault-injection variants): stop rather than shift by -1.
      if (p < 0) {
        result.status = kDenseNotFinite;
        result.step = s;
        break;
      }
      const double d = __shfl_sync(kFullWarpMask, SelectEntry(row, p), p);
      if (!IsFiniteValue(d)) {
        result.status = kDenseNotFinite;
        result.step = s;
        break;
      }
      if (!(d > 0)) {
        result.status = kDenseNotSpd;
        result.step = s;
        break;
      }
      if (d <= tiny && result.status == kDenseOk) {
        result.status = kDenseTinyPivot;
        result.step = s;
      }
      const double l = sqrt(d);
      if (lane == p) SetEntry(row, p, l);
      const bool below = lane < m && my_pos > s;
      if (below) SetEntry(row, p, SelectEntry(row, p) / l);
      done |= 1u << p;
      // Symmetric rank-1 downdate: A(t, u) -= L(t, p) L(u, p) over the
      // rows t and columns u not yet pivotal, L(u, p) broadcast by lane u.
      const double l_mine = SelectEntry(row, p);
#pragma unroll
      for (int c = 0; c < kMaxRows; ++c) {
        const double l_c = __shfl_sync(kFullWarpMask, l_mine, c);
        if (below && c < m && !((done >> c) & 1u) && l_c != 0) {
          row[c] -= l_mine * l_c;
        }
      }
    }
    return result;
  }
};

}  // namespace factord::kernels::cuda

#endif  // FACTORD_DENSE_KERNELS_CUDA_WARP_CHOLESKY_CUH_
