#include "ipopt/nonconvex_chain.h"

#include <gtest/gtest.h>

#include <vector>

#include "ipopt/nlp_problem.h"
#include "nlp_checks.h"

namespace factord::ipopt {
namespace {

TEST(NonconvexChain, PatternsAreWellFormed) {
  testing::ExpectPatternsWellFormed(NonconvexChain(8));
}

TEST(NonconvexChain, DerivativesMatchDifferences) {
  NonconvexChain chain(6);
  const std::vector<double> x = {0.3, -1.2, 0.7, 1.1, -0.4, 0.05};
  testing::ExpectDerivativesMatch(chain, x, 0.7, {-0.3, 1.9});
  testing::ExpectDerivativesMatch(chain, chain.StartingPoint(), 1.0,
                                  {0.0, 0.0});
}

TEST(NonconvexChain, HessianIsIndefiniteAtTheStart) {
  // The reason Ipopt must correct the inertia: at the start the objective's
  // Hessian diag(12 x^2 - 4) is negative on every variable.
  NonconvexChain chain(8);
  const std::vector<double> x = chain.StartingPoint();
  std::vector<double> values(chain.HessianPattern().nnz());
  const std::vector<double> no_multipliers = {0.0, 0.0};
  chain.HessianValues(x.data(), 1.0, no_multipliers.data(), values.data());
  for (int i = 0; i < chain.num_variables(); ++i)
    EXPECT_LT(values[i], -3.0) << i;
}

TEST(NonconvexChain, StartIsFeasibleForTheBoundsOnly) {
  NonconvexChain chain(8);
  std::vector<double> xl, xu, gl, gu;
  chain.Bounds(&xl, &xu, &gl, &gu);
  const std::vector<double> x = chain.StartingPoint();
  std::vector<double> g(2);
  chain.Constraints(x.data(), g.data());
  for (int i = 0; i < 8; ++i) {
    EXPECT_GT(x[i], xl[i]);
    EXPECT_LT(x[i], xu[i]);
  }
  EXPECT_NE(g[0], gl[0]);  // sum x = 1 is not met: Ipopt must move
  EXPECT_LT(g[1], gu[1]);
}

}  // namespace
}  // namespace factord::ipopt
