#include "ipopt/qp_nlp.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace factord::ipopt {
namespace {

SparsePattern PatternByColumns(const ipm::SparseColumns& matrix) {
  SparsePattern pattern;
  pattern.row.reserve(matrix.nnz());
  pattern.col.reserve(matrix.nnz());
  for (int j = 0; j < matrix.num_cols; ++j) {
    for (int64_t k = matrix.col_start[j]; k < matrix.col_start[j + 1]; ++k) {
      pattern.row.push_back(matrix.row_index[k]);
      pattern.col.push_back(j);
    }
  }
  return pattern;
}

}  // namespace

QpNlp::QpNlp(ipm::QpProblem qp, std::string name)
    : qp_(std::move(qp)), name_(std::move(name)) {
  jacobian_ = PatternByColumns(qp_.a);
  hessian_ = PatternByColumns(qp_.q);
}

void QpNlp::Bounds(std::vector<double>* x_lower, std::vector<double>* x_upper,
                   std::vector<double>* g_lower,
                   std::vector<double>* g_upper) const {
  *x_lower = qp_.col_lower;
  *x_upper = qp_.col_upper;
  *g_lower = qp_.row_lower;
  *g_upper = qp_.row_upper;
}

std::vector<double> QpNlp::StartingPoint() const {
  // Zero projected onto the bounds; Ipopt moves it into the interior.
  std::vector<double> x(num_variables(), 0.0);
  for (int j = 0; j < num_variables(); ++j) {
    x[j] = std::clamp(0.0, qp_.col_lower[j], qp_.col_upper[j]);
  }
  return x;
}

double QpNlp::Objective(const double* x) const {
  return sign() * qp_.Objective(std::vector<double>(x, x + num_variables()));
}

void QpNlp::Gradient(const double* x, double* gradient) const {
  // Q x + c, Q stored as its lower triangle: each off-diagonal entry (i, j)
  // contributes to rows i and j.
  const int n = num_variables();
  for (int j = 0; j < n; ++j) gradient[j] = qp_.c[j];
  const ipm::SparseColumns& q = qp_.q;
  for (int j = 0; j < n; ++j) {
    for (int64_t k = q.col_start[j]; k < q.col_start[j + 1]; ++k) {
      const int i = q.row_index[k];
      gradient[i] += q.value[k] * x[j];
      if (i != j) gradient[j] += q.value[k] * x[i];
    }
  }
  for (int j = 0; j < n; ++j) gradient[j] *= sign();
}

void QpNlp::Constraints(const double* x, double* g) const {
  const ipm::SparseColumns& a = qp_.a;
  std::fill(g, g + num_constraints(), 0.0);
  for (int j = 0; j < a.num_cols; ++j) {
    for (int64_t k = a.col_start[j]; k < a.col_start[j + 1]; ++k) {
      g[a.row_index[k]] += a.value[k] * x[j];
    }
  }
}

void QpNlp::JacobianValues(const double* x, double* values) const {
  std::copy(qp_.a.value.begin(), qp_.a.value.end(), values);
}

void QpNlp::HessianValues(const double* x, double sigma, const double* lambda,
                          double* values) const {
  const double scale = sigma * sign();
  for (size_t k = 0; k < qp_.q.value.size(); ++k) {
    values[k] = scale * qp_.q.value[k];
  }
}

}  // namespace factord::ipopt
