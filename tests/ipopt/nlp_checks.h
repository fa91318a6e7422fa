// Checks shared by the NLP tests: the derivatives an NlpProblem returns
// against central differences of what it evaluates, and the shape of its
// patterns (in range; the Hessian's in the lower triangle, no position
// twice).
#ifndef FACTORD_TESTS_IPOPT_NLP_CHECKS_H_
#define FACTORD_TESTS_IPOPT_NLP_CHECKS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "ipopt/nlp_problem.h"

namespace factord::ipopt::testing {

inline void ExpectPatternsWellFormed(const NlpProblem& p) {
  const int n = p.num_variables(), m = p.num_constraints();
  const SparsePattern& jac = p.JacobianPattern();
  for (int e = 0; e < jac.nnz(); ++e) {
    ASSERT_GE(jac.row[e], 0);
    ASSERT_LT(jac.row[e], m);
    ASSERT_GE(jac.col[e], 0);
    ASSERT_LT(jac.col[e], n);
  }
  const SparsePattern& hess = p.HessianPattern();
  std::set<std::pair<int, int>> seen;
  for (int e = 0; e < hess.nnz(); ++e) {
    ASSERT_GE(hess.col[e], 0);
    ASSERT_LT(hess.row[e], n);
    ASSERT_GE(hess.row[e], hess.col[e])
        << "entry " << e << " above the diagonal";
    ASSERT_TRUE(seen.insert({hess.row[e], hess.col[e]}).second)
        << "position (" << hess.row[e] << ", " << hess.col[e] << ") twice";
  }
}

// Gradient, Jacobian and Hessian of sigma f + lambda^T g at x against
// central differences with step h; tolerance relative to max(1, |value|).
inline void ExpectDerivativesMatch(const NlpProblem& p,
                                   const std::vector<double>& x, double sigma,
                                   const std::vector<double>& lambda,
                                   double h = 1e-6, double tolerance = 1e-5) {
  const int n = p.num_variables(), m = p.num_constraints();
  auto close = [&](double got, double want) {
    return std::abs(got - want) <= tolerance * std::max(1.0, std::abs(want));
  };
  std::vector<double> grad(n);
  p.Gradient(x.data(), grad.data());
  const SparsePattern& jac = p.JacobianPattern();
  std::vector<double> jac_values(jac.nnz());
  p.JacobianValues(x.data(), jac_values.data());
  std::vector<std::vector<double>> dense_jac(m, std::vector<double>(n, 0.0));
  for (int e = 0; e < jac.nnz(); ++e)
    dense_jac[jac.row[e]][jac.col[e]] += jac_values[e];

  // The gradient of the Lagrangian, for the Hessian's differences.
  auto lagrangian_gradient = [&](const std::vector<double>& at) {
    std::vector<double> g(n), values(jac.nnz());
    p.Gradient(at.data(), g.data());
    p.JacobianValues(at.data(), values.data());
    for (int i = 0; i < n; ++i) g[i] *= sigma;
    for (int e = 0; e < jac.nnz(); ++e)
      g[jac.col[e]] += lambda[jac.row[e]] * values[e];
    return g;
  };
  const SparsePattern& hess = p.HessianPattern();
  std::vector<double> hess_values(hess.nnz());
  p.HessianValues(x.data(), sigma, lambda.data(), hess_values.data());
  std::vector<std::vector<double>> dense_hess(n, std::vector<double>(n, 0.0));
  for (int e = 0; e < hess.nnz(); ++e) {
    dense_hess[hess.row[e]][hess.col[e]] = hess_values[e];
    dense_hess[hess.col[e]][hess.row[e]] = hess_values[e];
  }

  std::vector<double> g_plus(m), g_minus(m);
  for (int j = 0; j < n; ++j) {
    std::vector<double> xp = x, xm = x;
    xp[j] += h;
    xm[j] -= h;
    const double df =
        (p.Objective(xp.data()) - p.Objective(xm.data())) / (2 * h);
    EXPECT_TRUE(close(grad[j], df))
        << "gradient " << j << ": " << grad[j] << " vs " << df;
    p.Constraints(xp.data(), g_plus.data());
    p.Constraints(xm.data(), g_minus.data());
    for (int i = 0; i < m; ++i) {
      const double dg = (g_plus[i] - g_minus[i]) / (2 * h);
      EXPECT_TRUE(close(dense_jac[i][j], dg))
          << "Jacobian (" << i << ", " << j << "): " << dense_jac[i][j]
          << " vs " << dg;
    }
    const std::vector<double> lp = lagrangian_gradient(xp),
                              lm = lagrangian_gradient(xm);
    for (int i = 0; i < n; ++i) {
      const double dh = (lp[i] - lm[i]) / (2 * h);
      EXPECT_TRUE(close(dense_hess[i][j], dh))
          << "Hessian (" << i << ", " << j << "): " << dense_hess[i][j]
          << " vs " << dh;
    }
  }
}

}  // namespace factord::ipopt::testing

#endif  // FACTORD_TESTS_IPOPT_NLP_CHECKS_H_
