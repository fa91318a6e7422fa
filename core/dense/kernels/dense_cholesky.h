// Dense Cholesky (LL^T) of one small symmetric block with static or full
// (diagonal) pivoting (S2 §IV: "the symmetric (LL^T) case mirrors Alg. 1; row
// and column permutation is then the same"). Written once for the reference,
// cpu and (future) CUDA batched kernels.
//
// Method: right-looking outer-product Cholesky on a private symmetric copy.
// The symmetric permutation is implicit (S2 §IV): pos[s] records which
// physical row/column sits at logical position s; nothing is moved until the
// factor is written out. Full pivoting takes the largest remaining diagonal
// of the Schur complement (for an SPD matrix the largest entry of the Schur
// complement is on its diagonal, so this is the symmetric full pivoting);
// partial and rook requests are treated as full (a one-sided row pivot would
// break symmetry). Result: P A P^T = L L^T, L lower with positive diagonal.
//
// Failure is data (S2 §IV): a pivot <= 0 stops the block with kDenseNotSpd
// (step = elimination step); a pivot in (0, tiny] is used and flagged
// kDenseTinyPivot; a NaN/Inf gives kDenseNotFinite. Limits: 1 <= m <= 32;
// only the lower triangle of the input is read. No allocation. Host/device.
#ifndef FACTORD_DENSE_KERNELS_DENSE_CHOLESKY_H_
#define FACTORD_DENSE_KERNELS_DENSE_CHOLESKY_H_

#include <cmath>

#include "core/dense/kernels/dense_lu.h"
#include "core/kernels/host_device.h"

namespace factord::kernels {

// Factorizes the m x m column-major symmetric block `a` (lower triangle read)
// in place: on return a holds L in logical order (upper triangle zeroed) and
//   (P A P^T)(i, j) = A(perm[i], perm[j]) = (L L^T)(i, j).
// perm has m entries. `tiny` is absolute. When the block stops early `a`
// holds partial work.
FACTORD_HOST_DEVICE inline DenseBlockResult DenseCholesky(int m, double* a,
                                                          int pivoting,
                                                          double tiny,
                                                          int* perm) {
  DenseBlockResult result;
  double work[kMaxDenseBlockSize * kMaxDenseBlockSize];
  int pos[kMaxDenseBlockSize];  // logical -> physical row/column
  for (int j = 0; j < m; ++j) {
    pos[j] = j;
    for (int i = 0; i < m; ++i) {
      // Symmetric copy of the lower triangle.
      const double v = i >= j ? a[j * m + i] : a[i * m + j];
      work[j * m + i] = v;
      if (!IsFiniteValue(v) && result.status == kDenseOk) {
        result.status = kDenseNotFinite;
        result.step = 0;
      }
    }
  }
  auto at = [&](int r, int c) -> double& { return work[c * m + r]; };
  for (int s = 0; s < m && result.status != kDenseNotFinite; ++s) {
    if (pivoting != kBlockPivotStatic) {
      int best_t = s;
      for (int t = s + 1; t < m; ++t) {
        if (at(pos[t], pos[t]) > at(pos[best_t], pos[best_t])) best_t = t;
      }
      const int p = pos[s];
      pos[s] = pos[best_t];
      pos[best_t] = p;
    }
    const int p = pos[s];
    const double d = at(p, p);
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
    at(p, p) = l;
    for (int t = s + 1; t < m; ++t) at(pos[t], p) /= l;
    // Symmetric rank-1 downdate of the Schur complement (both triangles,
    // so that the implicit permutation can read either).
    for (int u = s + 1; u < m; ++u) {
      const double lu = at(pos[u], p);
      if (lu == 0) continue;
      for (int t = s + 1; t < m; ++t) at(pos[t], pos[u]) -= at(pos[t], p) * lu;
    }
  }
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < m; ++i) {
      a[j * m + i] = i >= j ? at(pos[i], pos[j]) : 0.0;
    }
  }
  for (int i = 0; i < m; ++i) perm[i] = pos[i];
  return result;
}

}  // namespace factord::kernels

#endif  // FACTORD_DENSE_KERNELS_DENSE_CHOLESKY_H_
