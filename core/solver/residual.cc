// True residuals, recomputed from the matrix as uploaded (plus the IPM
// shifts when the factorization had them): convergence is never decided on
// a Krylov quasi-residual.
#include "core/solver/residual.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace factord {

void MultiplyUploaded(const CsrMatrix& a, std::span<const double> x,
                      std::span<double> y) {
  std::fill(y.begin(), y.end(), 0.0);
  const bool symmetric = IsSymmetric(a.structure);
  for (int64_t i = 0; i < a.rows; ++i) {
    double sum = 0;
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int64_t j = a.col_idx[k];
      sum += a.values[k] * x[j];
      // The stored lower entry (i, j), j < i, stands for (j, i) too.
      if (symmetric && j != i) y[j] += a.values[k] * x[i];
    }
    y[i] += sum;
  }
}

void MultiplyShifted(const CsrMatrix& a, std::span<const double> shift,
                     std::span<const double> x, std::span<double> y) {
  MultiplyUploaded(a, x, y);
  for (size_t i = 0; i < shift.size(); ++i) y[i] += shift[i] * x[i];
}

double InfinityNorm(const CsrMatrix& a) {
  std::vector<double> row_sums(a.rows, 0.0);
  const bool symmetric = IsSymmetric(a.structure);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int64_t j = a.col_idx[k];
      row_sums[i] += std::abs(a.values[k]);
      if (symmetric && j != i) row_sums[j] += std::abs(a.values[k]);
    }
  }
  double norm = 0;
  for (double s : row_sums) norm = std::max(norm, s);
  return norm;
}

double InfinityNorm(const CsrMatrix& a, std::span<const double> shift) {
  if (shift.empty()) return InfinityNorm(a);
  // Off-diagonal row sums, then |a_ii + shift_i| (a_ii = 0 when not stored).
  std::vector<double> row_sums(a.rows, 0.0);
  std::vector<double> diagonal(shift.begin(), shift.end());
  const bool symmetric = IsSymmetric(a.structure);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int64_t j = a.col_idx[k];
      if (j == i) {
        diagonal[i] += a.values[k];
        continue;
      }
      row_sums[i] += std::abs(a.values[k]);
      if (symmetric) row_sums[j] += std::abs(a.values[k]);
    }
  }
  double norm = 0;
  for (int64_t i = 0; i < a.rows; ++i) {
    norm = std::max(norm, row_sums[i] + std::abs(diagonal[i]));
  }
  return norm;
}

ResidualNorms ComputeResidualNorms(const CsrMatrix& a,
                                   std::span<const double> b,
                                   std::span<const double> x) {
  return ComputeResidualNorms(a, {}, b, x);
}

ResidualNorms ComputeResidualNorms(const CsrMatrix& a,
                                   std::span<const double> shift,
                                   std::span<const double> b,
                                   std::span<const double> x) {
  std::vector<double> r(a.rows);
  MultiplyShifted(a, shift, x, r);
  for (int64_t i = 0; i < a.rows; ++i) r[i] = b[i] - r[i];
  return ResidualNormsOf(b, x, r, InfinityNorm(a, shift));
}

ResidualNorms ResidualNormsOf(std::span<const double> b,
                              std::span<const double> x,
                              std::span<const double> r, double norm_a) {
  double r2 = 0, rinf = 0, b2 = 0, binf = 0, xinf = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    r2 += r[i] * r[i];
    rinf = std::max(rinf, std::abs(r[i]));
    b2 += b[i] * b[i];
    binf = std::max(binf, std::abs(b[i]));
    xinf = std::max(xinf, std::abs(x[i]));
  }
  ResidualNorms norms;
  r2 = std::sqrt(r2);
  b2 = std::sqrt(b2);
  norms.relative_residual = b2 > 0 ? r2 / b2 : r2;
  const double denominator = norm_a * xinf + binf;
  norms.backward_error = denominator > 0 ? rinf / denominator : rinf;
  // A NaN anywhere must not read as converged.
  if (!std::isfinite(norms.relative_residual)) {
    norms.relative_residual = std::numeric_limits<double>::infinity();
    norms.backward_error = std::numeric_limits<double>::infinity();
  }
  return norms;
}

}  // namespace factord
