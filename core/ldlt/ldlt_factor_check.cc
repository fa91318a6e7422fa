// A posteriori check of the ldlt factor (see ldlt_factor_check.h).
#include "core/ldlt/ldlt_factor_check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace factord::internal {

double LdltFactorResidual(const LdltSymbolic& sym,
                          std::span<const double> values,
                          std::span<const FrontFactor> fronts) {
  const int64_t n = sym.n;
  if (n == 0) return 0;
  // x in [-1, 1) from a multiplicative hash: fixed, so the check (and the
  // flag it sets) is reproducible; no structure a wrong factor could share.
  std::vector<double> x(n), bx(n, 0.0), row_abs(n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t h = static_cast<uint32_t>(i + 1) * 2654435761u;
    x[i] = static_cast<double>(h >> 8) * 0x1p-23 - 1.0;
  }
  // B x and the row sums of |B| from the lower triangle by columns.
  for (int64_t c = 0; c < n; ++c) {
    for (int64_t e = sym.col_ptr[c]; e < sym.col_ptr[c + 1]; ++e) {
      const int64_t r = sym.col_rows[e];
      const double v = values[e];
      bx[r] += v * x[c];
      row_abs[r] += std::abs(v);
      if (r != c) {
        bx[c] += v * x[r];
        row_abs[c] += std::abs(v);
      }
    }
  }
  // y = L^T x over the pivots, y <- D y, then w = L y.
  std::vector<double> y(n, 0.0);
  for (const FrontFactor& fr : fronts) {
    const int ld = static_cast<int>(fr.rows.size());
    for (int t = 0; t < fr.q; ++t) {
      const double* col = &fr.l[static_cast<size_t>(t) * ld];
      double sum = 0;
      for (int s = t; s < ld; ++s) sum += col[s] * x[fr.rows[s]];
      y[fr.rows[t]] = sum;
    }
  }
  for (const FrontFactor& fr : fronts) {
    for (int t = 0; t < fr.q; ++t) {
      double& y0 = y[fr.rows[t]];
      if (fr.pivot_size[t] == 2) {
        double& y1 = y[fr.rows[t + 1]];
        const double a0 = y0, a1 = y1;
        y0 = fr.d_diag[t] * a0 + fr.d_off[t] * a1;
        y1 = fr.d_off[t] * a0 + fr.d_diag[t + 1] * a1;
        ++t;
      } else {
        y0 *= fr.d_diag[t];
      }
    }
  }
  std::vector<double>& w = x;  // x is no longer needed: reuse it for L y
  double x_norm = 0;
  for (int64_t i = 0; i < n; ++i) x_norm = std::max(x_norm, std::abs(w[i]));
  std::fill(w.begin(), w.end(), 0.0);
  for (const FrontFactor& fr : fronts) {
    const int ld = static_cast<int>(fr.rows.size());
    for (int t = 0; t < fr.q; ++t) {
      const double* col = &fr.l[static_cast<size_t>(t) * ld];
      const double yt = y[fr.rows[t]];
      for (int s = t; s < ld; ++s) w[fr.rows[s]] += col[s] * yt;
    }
  }
  double err = 0, b_norm = 0;
  for (int64_t i = 0; i < n; ++i) {
    err = std::max(err, std::abs(bx[i] - w[i]));
    b_norm = std::max(b_norm, row_abs[i]);
  }
  if (!std::isfinite(err)) return HUGE_VAL;
  const double scale = b_norm * x_norm;
  return scale > 0 ? err / scale : (err > 0 ? HUGE_VAL : 0.0);
}

}  // namespace factord::internal
