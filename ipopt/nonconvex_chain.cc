#include "ipopt/nonconvex_chain.h"

#include <limits>

namespace factord::ipopt {

NonconvexChain::NonconvexChain(int n) : n_(n < 3 ? 3 : n) {
  for (int row = 0; row < 2; ++row) {
    for (int j = 0; j < n_; ++j) {
      jacobian_.row.push_back(row);
      jacobian_.col.push_back(j);
    }
  }
  for (int i = 0; i < n_; ++i) {
    hessian_.row.push_back(i);
    hessian_.col.push_back(i);
  }
  for (int i = 1; i < n_; ++i) {
    hessian_.row.push_back(i);
    hessian_.col.push_back(i - 1);
  }
}

void NonconvexChain::Bounds(std::vector<double>* x_lower,
                            std::vector<double>* x_upper,
                            std::vector<double>* g_lower,
                            std::vector<double>* g_upper) const {
  x_lower->assign(n_, -2.0);
  x_upper->assign(n_, 2.0);
  *g_lower = {1.0, -std::numeric_limits<double>::infinity()};
  *g_upper = {1.0, 6.0};
}

std::vector<double> NonconvexChain::StartingPoint() const {
  // Near the top of every well (x = 0), a little apart so that no symmetry
  // decides which well a variable falls into.
  std::vector<double> x(n_);
  for (int i = 0; i < n_; ++i) x[i] = 0.1 + 0.02 * i;
  return x;
}

double NonconvexChain::Objective(const double* x) const {
  double f = 0;
  for (int i = 0; i < n_; ++i) {
    const double well = x[i] * x[i] - 1.0;
    f += well * well + Tilt(i) * x[i];
  }
  return f;
}

void NonconvexChain::Gradient(const double* x, double* gradient) const {
  // d/dx (x^2 - 1)^2 = 4 x (x^2 - 1)
  for (int i = 0; i < n_; ++i) {
    gradient[i] = 4.0 * x[i] * (x[i] * x[i] - 1.0) + Tilt(i);
  }
}

void NonconvexChain::Constraints(const double* x, double* g) const {
  g[0] = 0;
  for (int i = 0; i < n_; ++i) g[0] += x[i];
  g[1] = 0;
  for (int i = 0; i + 1 < n_; ++i) {
    const double step = x[i] - x[i + 1];
    g[1] += step * step;
  }
}

void NonconvexChain::JacobianValues(const double* x, double* values) const {
  for (int j = 0; j < n_; ++j) values[j] = 1.0;
  // d g_1 / d x_j = 2 (x_j - x_{j+1}) - 2 (x_{j-1} - x_j)
  double* row1 = values + n_;
  for (int j = 0; j < n_; ++j) {
    double d = 0;
    if (j + 1 < n_) d += 2.0 * (x[j] - x[j + 1]);
    if (j > 0) d -= 2.0 * (x[j - 1] - x[j]);
    row1[j] = d;
  }
}

void NonconvexChain::HessianValues(const double* x, double sigma,
                                   const double* lambda, double* values) const {
  // sigma diag(12 x^2 - 4) + lambda_1 * (the chain's graph Laplacian times 2)
  for (int i = 0; i < n_; ++i) {
    const int neighbours = (i > 0) + (i + 1 < n_);
    values[i] =
        sigma * (12.0 * x[i] * x[i] - 4.0) + lambda[1] * 2.0 * neighbours;
  }
  for (int i = 1; i < n_; ++i) values[n_ + i - 1] = -2.0 * lambda[1];
}

}  // namespace factord::ipopt
