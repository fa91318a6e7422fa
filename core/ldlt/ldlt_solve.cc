// Front-wise solves. Per front: gather the pivots' entries, apply the unit
// lower triangle of the pivot block, then the rectangular block to the
// contribution rows (forward); the transposes in reverse (backward).
#include "core/ldlt/ldlt_solve.h"

namespace factord::internal {

void SolveWithFronts(std::span<const FrontFactor> fronts, int64_t n, int nrhs,
                     double* y, int64_t ldy, std::vector<double>* work) {
  for (int k = 0; k < nrhs; ++k) {
    double* x = y + k * ldy;
    // Forward: L z = x.
    for (const FrontFactor& fr : fronts) {
      const int q = fr.q;
      const int ld = static_cast<int>(fr.rows.size());
      for (int t = 0; t < q; ++t) {
        const double xt = x[fr.rows[t]];
        if (xt == 0) continue;
        const double* col = &fr.l[static_cast<size_t>(t) * ld];
        for (int s = t + 1; s < ld; ++s) x[fr.rows[s]] -= col[s] * xt;
      }
    }
    // Diagonal: D w = z.
    for (const FrontFactor& fr : fronts) {
      for (int t = 0; t < fr.q; ++t) {
        if (fr.pivot_size[t] == 2) {
          const double a = fr.d_diag[t], b = fr.d_off[t], c = fr.d_diag[t + 1];
          const double det = a * c - b * b;
          const double x0 = x[fr.rows[t]], x1 = x[fr.rows[t + 1]];
          x[fr.rows[t]] = (c * x0 - b * x1) / det;
          x[fr.rows[t + 1]] = (a * x1 - b * x0) / det;
          ++t;
        } else {
          x[fr.rows[t]] /= fr.d_diag[t];
        }
      }
    }
    // Backward: L^T x = w.
    for (auto it = fronts.rbegin(); it != fronts.rend(); ++it) {
      const FrontFactor& fr = *it;
      const int ld = static_cast<int>(fr.rows.size());
      for (int t = fr.q - 1; t >= 0; --t) {
        const double* col = &fr.l[static_cast<size_t>(t) * ld];
        double sum = 0;
        for (int s = t + 1; s < ld; ++s) sum += col[s] * x[fr.rows[s]];
        x[fr.rows[t]] -= sum;
      }
    }
  }
  (void)n;
  (void)work;
}

}  // namespace factord::internal
