// Dense inversion of one small diagonal block by Gauss-Jordan elimination
// with implicit partial pivoting (S3 §2.2-§2.3, Fig. 1), written once for the
// reference, CPU and (future) CUDA block-Jacobi kernels.
//
// Method: at step k the pivot is the largest |a(i,k)| among the rows not yet
// used as pivots; the rows are never swapped. The Jordan transformation
// (SCAL, GER, SCAL of S3 Fig. 1) only involves the row being updated and the
// pivot row, so the row order does not matter during the elimination (S3
// §2.3); the accumulated row permutation is applied once, when the logical
// inverse is written out: inverse(i, piv[j]) = work(piv[i], j).
//
// Limits: blocks of size m <= kMaxGaussJordanSize (32, a warp in S3 §3.1).
// A pivot that is zero, not finite, or tiny relative to the largest entry of
// its original row (|p| <= m * eps * rowmax) is a singular block: the
// routine stops and reports the step, and never writes NaNs or Infs.
#ifndef FACTORD_DENSE_KERNELS_GAUSS_JORDAN_H_
#define FACTORD_DENSE_KERNELS_GAUSS_JORDAN_H_

#include <cfloat>
#include <cmath>

#include "core/kernels/host_device.h"

namespace factord::kernels {

inline constexpr int kMaxGaussJordanSize = 32;

// True when x is neither NaN nor infinite (usable on host and device).
FACTORD_HOST_DEVICE inline bool IsFiniteValue(double x) {
  return x == x && fabs(x) <= DBL_MAX;
}

// Inverts the m x m row-major `block` into the m x m row-major `inverse`.
// 1 <= m <= kMaxGaussJordanSize; `block` is not modified; the two arrays
// must not overlap. Returns -1 on success, otherwise the elimination step k
// (0-based) at which no acceptable pivot was left; `inverse` then holds
// partial work and must be overwritten by the caller.
FACTORD_HOST_DEVICE inline int GaussJordanInvert(int m, const double* block,
                                                 double* inverse) {
  double work[kMaxGaussJordanSize * kMaxGaussJordanSize];
  double row_max[kMaxGaussJordanSize];
  int pivot_row[kMaxGaussJordanSize];  // pivot_row[k]: physical row of step k
  bool used[kMaxGaussJordanSize];
  for (int i = 0; i < m; ++i) {
    row_max[i] = 0;
    used[i] = false;
    for (int j = 0; j < m; ++j) {
      const double v = block[i * m + j];
      work[i * m + j] = v;
      if (!IsFiniteValue(v)) return 0;
      if (fabs(v) > row_max[i]) row_max[i] = fabs(v);
    }
  }
  for (int k = 0; k < m; ++k) {
    // Implicit pivoting: the largest candidate among unused rows (S3 §2.3).
    int p = -1;
    double best = -1;
    for (int i = 0; i < m; ++i) {
      if (!used[i] && fabs(work[i * m + k]) > best) {
        best = fabs(work[i * m + k]);
        p = i;
      }
    }
    const double d = work[p * m + k];
    if (!IsFiniteValue(d) || best == 0 ||
        best <= m * DBL_EPSILON * row_max[p]) {
      return k;
    }
    used[p] = true;
    pivot_row[k] = p;
    // Jordan transformation (S3 Fig. 1 lines 12-15) with pivot row p.
    for (int i = 0; i < m; ++i) {  // SCAL of the pivot column
      if (i != p) work[i * m + k] = -work[i * m + k] / d;
    }
    for (int i = 0; i < m; ++i) {  // GER: rank-1 update off the pivot row
      if (i == p) continue;
      const double f = work[i * m + k];
      if (f == 0) continue;
      for (int j = 0; j < m; ++j) {
        if (j != k) work[i * m + j] += f * work[p * m + j];
      }
    }
    for (int j = 0; j < m; ++j) {  // SCAL of the pivot row
      work[p * m + j] = (j == k) ? 1.0 / d : work[p * m + j] / d;
    }
  }
  // Undo the implicit permutation: logical row i is physical row
  // pivot_row[i], and logical column j lands in column pivot_row[j].
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      const double v = work[pivot_row[i] * m + j];
      if (!IsFiniteValue(v)) return m - 1;  // overflow: treat as singular
      inverse[i * m + pivot_row[j]] = v;
    }
  }
  return -1;
}

// The safe stand-in for a singular block: the inverse of its diagonal, with
// 1 where a diagonal entry is zero or not finite. It keeps the
// preconditioner finite (and symmetric) so that the Krylov method can go on;
// the block is still reported as singular.
FACTORD_HOST_DEVICE inline void DiagonalInverseFallback(int m,
                                                        const double* block,
                                                        double* inverse) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) inverse[i * m + j] = 0;
    const double d = block[i * m + i];
    inverse[i * m + i] =
        (IsFiniteValue(d) && d != 0 && IsFiniteValue(1.0 / d)) ? 1.0 / d : 1.0;
  }
}

}  // namespace factord::kernels

#endif  // FACTORD_DENSE_KERNELS_GAUSS_JORDAN_H_
