// Dense LDL^T of one small symmetric block with full (Bunch-Parlett)
// pivoting: the symmetric counterpart of S2 Alg. 1's full pivoting for the
// LDL^T kernels of S2 §IV ("the LDL^T case with its 2x2 pivots ... follows
// the same ideas"). At each step the largest |diagonal| gamma_d and the
// largest |off-diagonal| gamma_o of the remaining Schur complement are found;
// a 1x1 pivot is taken on the diagonal when gamma_d >= alpha * gamma_o
// (alpha = (1 + sqrt(17)) / 8), otherwise the 2x2 pivot on the rows of the
// largest off-diagonal entry. Pivots are recorded in an order array (the
// symmetric permutation is implicit, as in S2 §IV); the elimination itself
// is the one of core/dense/kernels/dense_ldlt.h (Eliminate1x1/Eliminate2x2),
// reused, with the same output convention as DensePartialLdlt (order, size,
// d_diag, d_off). When the whole remaining Schur complement is <= tiny, the
// remaining columns are perturbed to +-perturbation and counted (as the
// force mode of DensePartialLdlt does), so the block always completes.
// Limits: 1 <= m <= 32, O(m^3) with an O(m^2) search per step. Host/device.
#ifndef FACTORD_DENSE_KERNELS_DENSE_LDLT_FULL_H_
#define FACTORD_DENSE_KERNELS_DENSE_LDLT_FULL_H_

#include <cmath>

#include "core/dense/kernels/dense_ldlt.h"
#include "core/kernels/host_device.h"

namespace factord::kernels {

// Factorizes the m x m column-major symmetric front `f` (both triangles) with
// Bunch-Parlett pivoting; outputs as DensePartialLdlt with p == m and force
// (every column eliminated). `work` has m ints.
FACTORD_HOST_DEVICE inline DenseLdltCounts DenseLdltBunchParlett(
    double* f, int m, const DenseLdltParams& params, int* order, int* size,
    double* d_diag, double* d_off, int* work) {
  using dense_ldlt::At;
  DenseLdltCounts counts;
  int* alive = work;
  int num_alive = m;
  for (int t = 0; t < m; ++t) alive[t] = t;
  int q = 0;
  while (num_alive > 0) {
    int jd = alive[0];
    double gamma_d = -1;
    int ro = -1, co = -1;
    double gamma_o = 0;
    for (int a = 0; a < num_alive; ++a) {
      const int c = alive[a];
      const double d = fabs(At(f, m, c, c));
      if (d > gamma_d) {
        gamma_d = d;
        jd = c;
      }
      for (int b = a + 1; b < num_alive; ++b) {
        const int r = alive[b];
        const double v = fabs(At(f, m, r, c));
        if (v > gamma_o) {
          gamma_o = v;
          ro = r;
          co = c;
        }
      }
    }
    const int pivot_size =
        dense_ldlt::BunchParlettPivotSize(gamma_d, gamma_o, params.tiny);
    if (pivot_size == 0) {
      // The remaining Schur complement is numerically zero: perturb.
      const double d = dense_ldlt::PerturbedPivot(At(f, m, jd, jd),
                                                  params.perturbation, &counts);
      dense_ldlt::Eliminate1x1(f, m, m, alive, num_alive, jd, d);
      dense_ldlt::RemoveAlive(alive, &num_alive, jd);
      dense_ldlt::RecordPivot(order, size, d_diag, d_off, q, jd, -1, d, 0);
      ++q;
      continue;
    }
    if (pivot_size == 1) {
      const double d = At(f, m, jd, jd);
      dense_ldlt::Eliminate1x1(f, m, m, alive, num_alive, jd, d);
      dense_ldlt::RemoveAlive(alive, &num_alive, jd);
      dense_ldlt::RecordPivot(order, size, d_diag, d_off, q, jd, 1, d, 0);
      ++q;
      continue;
    }
    // 2x2 pivot on (co, ro): |b| = gamma_o dominates its diagonals, so
    // det = ac - b^2 <= -(1 - alpha^2) b^2 < 0 is safely nonzero.
    const double a = At(f, m, co, co), b = At(f, m, ro, co),
                 c = At(f, m, ro, ro);
    dense_ldlt::Eliminate2x2(f, m, m, alive, num_alive, co, ro, a, b, c);
    dense_ldlt::RemoveAlive(alive, &num_alive, co);
    dense_ldlt::RemoveAlive(alive, &num_alive, ro);
    dense_ldlt::Record2x2Pivot(order, size, d_diag, d_off, q, co, ro, a, b, c);
    q += 2;
    ++counts.two_by_two;
  }
  counts.eliminated = q;
  return counts;
}

}  // namespace factord::kernels

#endif  // FACTORD_DENSE_KERNELS_DENSE_LDLT_FULL_H_
