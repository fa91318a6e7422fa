// Dense LU of one small block with static, partial or full pivoting (S2 §IV,
// the batched LDU kernels; Alg. 1 is the full-pivoting one). Written once
// for the reference, cpu and (future) CUDA batched kernels.
//
// Method: right-looking elimination on a private copy of the block. Row
// pivoting is implicit as in S2 §IV (after Anzt et al.): rows are never moved;
// row_of[s] records which physical row sits at logical position s, and the
// permutation is applied once, when the factors are written out. Column
// pivoting (full pivoting only) is explicit, as S2 Alg. 1 does it: the pivot
// column is swapped into position s. Pivot choice:
//   static:  the diagonal entry of the current order;
//   partial: the largest |entry| of column s among rows not yet pivotal;
//   full:    the largest |entry| of the whole Schur complement.
// Result: P A Q = L U with L unit lower and U upper triangular.
//
// Failure is data, not an error (S2 §IV: per-block status): a pivot that is
// exactly zero or not finite stops the block (kDenseZeroPivot /
// kDenseNotFinite, step = the elimination step); a pivot with |p| <= tiny is
// kept and flagged kDenseTinyPivot (the first such step), the factors then
// being valid but unstable. Limits: 1 <= m <= 32, O(m^3), no blocking.
// No allocation. Host and device.
#ifndef FACTORD_DENSE_KERNELS_DENSE_LU_H_
#define FACTORD_DENSE_KERNELS_DENSE_LU_H_

#include <cmath>
#include <cstdint>

#include "core/dense/kernels/gauss_jordan.h"
#include "core/kernels/host_device.h"

namespace factord::kernels {

inline constexpr int kMaxDenseBlockSize = 32;

// Per-block outcome of the batched dense factorizations (S2 §IV).
enum DenseBlockStatus : int8_t {
  kDenseOk = 0,
  kDenseTinyPivot = 1,  // a pivot |p| <= tiny was used (factor is complete)
  kDenseZeroPivot = 2,  // exact zero pivot: factorization stopped (LU/LLT),
                        // or pivots perturbed (LDLT, which always completes)
  kDenseNotSpd = 3,     // LLT: a pivot <= 0, factorization stopped
  kDenseNotFinite = 4,  // a NaN or Inf in the input or a pivot
};

// Which pivots a batched dense factorization may choose.
enum DenseBlockPivoting : int8_t {
  kBlockPivotStatic = 0,   // in the given order
  kBlockPivotPartial = 1,  // LU: rows; LLT: as full; LDLT: Bunch-Kaufman
  kBlockPivotFull = 2,     // LU: rows and columns; LLT: largest diagonal;
                           // LDLT: Bunch-Parlett (largest entry anywhere)
  kBlockPivotRook = 3,     // LDLT only (LU/LLT: as full)
};

struct DenseBlockResult {
  DenseBlockStatus status = kDenseOk;
  int step = -1;  // first elimination step with trouble, -1 if none
};

// Factorizes the m x m column-major block `a` (leading dimension m) in place:
// on return a(i, j) holds L (strictly lower, unit diagonal implied) and U
// (upper with the diagonal) in logical order, and
//   (P A Q)(i, j) = A(row_perm[i], col_perm[j]) = (L U)(i, j).
// row_perm and col_perm have m entries (col_perm is the identity unless
// pivoting is full). `tiny` is absolute. When the block stops early the
// content of `a` is partial work; the permutations are still permutations.
FACTORD_HOST_DEVICE inline DenseBlockResult DenseLu(int m, double* a,
                                                    int pivoting, double tiny,
                                                    int* row_perm,
                                                    int* col_perm) {
  DenseBlockResult result;
  double work[kMaxDenseBlockSize * kMaxDenseBlockSize];
  int row_of[kMaxDenseBlockSize];  // implicit rows: logical -> physical
  for (int j = 0; j < m * m; ++j) {
    work[j] = a[j];
    if (!IsFiniteValue(work[j])) {
      result.status = kDenseNotFinite;
      result.step = 0;
    }
  }
  for (int i = 0; i < m; ++i) {
    row_of[i] = i;
    col_perm[i] = i;
  }
  auto at = [&](int physical_row, int col) -> double& {
    return work[col * m + physical_row];
  };
  for (int s = 0; s < m && result.status != kDenseNotFinite; ++s) {
    int best_t = s, best_c = s;
    if (pivoting != kBlockPivotStatic) {
      double best = -1;
      const int last_col = pivoting == kBlockPivotPartial ? s : m - 1;
      for (int c = s; c <= last_col; ++c) {
        for (int t = s; t < m; ++t) {
          const double v = fabs(at(row_of[t], c));
          if (v > best) {
            best = v;
            best_t = t;
            best_c = c;
          }
        }
      }
    }
    // Record the row permutation (indices only, S2 §IV implicit rows).
    const int swap_row = row_of[s];
    row_of[s] = row_of[best_t];
    row_of[best_t] = swap_row;
    if (best_c != s) {  // explicit column swap (S2 Alg. 1 line 21)
      for (int i = 0; i < m; ++i) {
        const double v = at(i, s);
        at(i, s) = at(i, best_c);
        at(i, best_c) = v;
      }
      const int c = col_perm[s];
      col_perm[s] = col_perm[best_c];
      col_perm[best_c] = c;
    }
    const int pr = row_of[s];
    const double pivot = at(pr, s);
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
    // Rank-1 update of the rows not yet pivotal.
    for (int t = s + 1; t < m; ++t) {
      const int r = row_of[t];
      const double l = at(r, s) / pivot;
      at(r, s) = l;
      if (l == 0) continue;
      for (int c = s + 1; c < m; ++c) at(r, c) -= l * at(pr, c);
    }
  }
  // Write back in logical order: the postponed row permutation (S2 §IV).
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < m; ++i) a[j * m + i] = work[j * m + row_of[i]];
  }
  for (int i = 0; i < m; ++i) row_perm[i] = row_of[i];
  return result;
}

}  // namespace factord::kernels

#endif  // FACTORD_DENSE_KERNELS_DENSE_LU_H_
