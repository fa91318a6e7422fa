// Serial vector kernels: the source of truth for the cpu backend's tests.
#include "core/linalg/kernels/blas_kernels.h"

#include <cmath>
#include <limits>

namespace factord::kernels::reference {

double Dot(const ExecContext&, std::span<const double> x,
           std::span<const double> y) {
  double sum = 0;
  for (size_t i = 0; i < x.size(); ++i) sum += x[i] * y[i];
  return sum;
}

double Norm2(const ExecContext& ctx, std::span<const double> x) {
  return std::sqrt(Dot(ctx, x, x));
}

double NormInf(const ExecContext&, std::span<const double> x) {
  double norm = 0;
  for (double v : x) {
    if (std::isnan(v)) return std::numeric_limits<double>::quiet_NaN();
    norm = std::max(norm, std::abs(v));
  }
  return norm;
}

void Axpy(const ExecContext&, double alpha, std::span<const double> x,
          std::span<double> y) {
  for (size_t i = 0; i < x.size(); ++i) y[i] += alpha * x[i];
}

void Axpby(const ExecContext&, double alpha, std::span<const double> x,
           double beta, std::span<double> y) {
  if (beta == 0) {
    for (size_t i = 0; i < x.size(); ++i) y[i] = alpha * x[i];
    return;
  }
  for (size_t i = 0; i < x.size(); ++i) y[i] = alpha * x[i] + beta * y[i];
}

void Scale(const ExecContext&, double alpha, std::span<double> x) {
  for (double& v : x) v *= alpha;
}

void Copy(const ExecContext&, std::span<const double> x, std::span<double> y) {
  for (size_t i = 0; i < x.size(); ++i) y[i] = x[i];
}

void PointwiseProduct(const ExecContext&, std::span<const double> d,
                      std::span<const double> x, std::span<double> y) {
  for (size_t i = 0; i < x.size(); ++i) y[i] = d[i] * x[i];
}

}  // namespace factord::kernels::reference
