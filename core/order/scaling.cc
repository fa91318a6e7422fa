// Ruiz equilibration for symmetric matrices: repeatedly divide row and
// column i by sqrt(max_j |(S A S)_ij|). Converges to row maxima of 1 for any
// matrix without empty rows; symmetric, so one vector scales both sides.
#include "core/order/scaling.h"

#include <algorithm>
#include <cmath>

namespace factord {

std::vector<double> RuizScaling(const CsrMatrix& a,
                                std::span<const double> values, int max_sweeps,
                                double tolerance) {
  const int64_t n = a.rows;
  std::vector<double> s(n, 1.0);
  std::vector<double> row_max(n);
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    std::fill(row_max.begin(), row_max.end(), 0.0);
    // Row i's own maximum is kept in a register; the stored entries also
    // count for their column j (the other triangle). max is exact, so the
    // order does not change the result.
    for (int64_t i = 0; i < n; ++i) {
      const double si = s[i];
      double own = 0.0;
      for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        const int64_t j = a.col_idx[k];
        const double v = std::abs(values[k]) * si * s[j];
        own = std::max(own, v);
        row_max[j] = std::max(row_max[j], v);
      }
      row_max[i] = std::max(row_max[i], own);
    }
    double worst = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (row_max[i] > 0 && std::isfinite(row_max[i])) {
        worst = std::max(worst, std::abs(1.0 - row_max[i]));
        s[i] /= std::sqrt(row_max[i]);
      }
    }
    if (worst <= tolerance) break;
  }
  return s;
}

}  // namespace factord
