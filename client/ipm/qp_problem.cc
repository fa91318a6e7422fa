#include "client/ipm/qp_problem.h"

namespace factord::ipm {

double QpProblem::Objective(const std::vector<double>& x) const {
  double value = objective_constant;
  for (int j = 0; j < num_cols(); ++j) value += c[j] * x[j];
  // 1/2 x^T Q x from the lower triangle: diagonal once, off-diagonal twice.
  double quadratic = 0;
  for (int j = 0; j < q.num_cols; ++j) {
    for (int64_t k = q.col_start[j]; k < q.col_start[j + 1]; ++k) {
      const int i = q.row_index[k];
      const double term = q.value[k] * x[i] * x[j];
      quadratic += (i == j) ? 0.5 * term : term;
    }
  }
  return value + quadratic;
}

}  // namespace factord::ipm
