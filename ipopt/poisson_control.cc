#include "ipopt/poisson_control.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "absl/strings/str_cat.h"

namespace factord::ipopt {

PoissonControl::PoissonControl(int grid)
    : grid_(std::max(grid, 1)), h_(1.0 / (grid_ + 1)) {
  const int n = grid_;
  target_.resize(cells());
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const double s = (i + 1) * h_;
      const double t = (j + 1) * h_;
      target_[i * n + j] =
          std::sin(2 * std::numbers::pi * s) * std::sin(std::numbers::pi * t);
    }
  }
  // Row k = i N + j: 4 y_k - y_{k-N} - y_{k+N} - y_{k-1} - y_{k+1} - h^2 u_k.
  const int offset_u = cells();
  auto add = [&](int row, int col, double value) {
    jacobian_.row.push_back(row);
    jacobian_.col.push_back(col);
    jacobian_values_.push_back(value);
  };
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const int k = i * n + j;
      if (i > 0) add(k, k - n, -1.0);
      if (j > 0) add(k, k - 1, -1.0);
      add(k, k, 4.0);
      if (j + 1 < n) add(k, k + 1, -1.0);
      if (i + 1 < n) add(k, k + n, -1.0);
      add(k, offset_u + k, -h_ * h_);
    }
  }
  for (int v = 0; v < num_variables(); ++v) {
    hessian_.row.push_back(v);
    hessian_.col.push_back(v);
  }
}

std::string PoissonControl::name() const {
  return absl::StrCat("poisson_control_", grid_);
}

void PoissonControl::Bounds(std::vector<double>* x_lower,
                            std::vector<double>* x_upper,
                            std::vector<double>* g_lower,
                            std::vector<double>* g_upper) const {
  const double inf = std::numeric_limits<double>::infinity();
  x_lower->assign(num_variables(), -inf);
  x_upper->assign(num_variables(), inf);
  std::fill(x_lower->begin() + cells(), x_lower->end(), -kControlBound);
  std::fill(x_upper->begin() + cells(), x_upper->end(), kControlBound);
  g_lower->assign(cells(), 0.0);
  g_upper->assign(cells(), 0.0);
}

std::vector<double> PoissonControl::StartingPoint() const {
  return std::vector<double>(num_variables(), 0.0);
}

double PoissonControl::Objective(const double* x) const {
  const double* y = x;
  const double* u = x + cells();
  double tracking = 0, control = 0;
  for (int k = 0; k < cells(); ++k) {
    tracking += (y[k] - target_[k]) * (y[k] - target_[k]);
    control += u[k] * u[k];
  }
  return 0.5 * h_ * h_ * (tracking + kAlpha * control);
}

void PoissonControl::Gradient(const double* x, double* gradient) const {
  const double* y = x;
  const double* u = x + cells();
  const double w = h_ * h_;
  for (int k = 0; k < cells(); ++k) {
    gradient[k] = w * (y[k] - target_[k]);
    gradient[cells() + k] = w * kAlpha * u[k];
  }
}

void PoissonControl::Constraints(const double* x, double* g) const {
  std::fill(g, g + cells(), 0.0);
  for (int e = 0; e < jacobian_.nnz(); ++e) {
    g[jacobian_.row[e]] += jacobian_values_[e] * x[jacobian_.col[e]];
  }
}

void PoissonControl::JacobianValues(const double* x, double* values) const {
  std::copy(jacobian_values_.begin(), jacobian_values_.end(), values);
}

void PoissonControl::HessianValues(const double* x, double sigma,
                                   const double* lambda, double* values) const {
  const double w = sigma * h_ * h_;
  for (int k = 0; k < cells(); ++k) {
    values[k] = w;
    values[cells() + k] = w * kAlpha;
  }
}

}  // namespace factord::ipopt
