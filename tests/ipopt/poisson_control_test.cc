#include "ipopt/poisson_control.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "nlp_checks.h"

namespace factord::ipopt {
namespace {

TEST(PoissonControl, SizesAndPatterns) {
  PoissonControl problem(5);
  EXPECT_EQ(problem.num_variables(), 50);
  EXPECT_EQ(problem.num_constraints(), 25);
  // Five-point stencil: 5 N^2 - 4 N entries, plus one u_k per row.
  EXPECT_EQ(problem.JacobianPattern().nnz(), 5 * 25 - 4 * 5 + 25);
  EXPECT_EQ(problem.HessianPattern().nnz(), 50);
  EXPECT_EQ(problem.name(), "poisson_control_5");
  testing::ExpectPatternsWellFormed(problem);
}

TEST(PoissonControl, DerivativesMatchDifferences) {
  PoissonControl problem(4);
  std::vector<double> x(problem.num_variables());
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.7 * i);
  testing::ExpectDerivativesMatch(
      problem, x, 1.3, std::vector<double>(problem.num_constraints(), 0.4));
}

TEST(PoissonControl, ConstraintIsTheScaledDiscreteLaplacian) {
  // y = 1 at the one interior point of a 1 x 1 grid (h = 1/2): its four
  // neighbours are boundary zeros, so the row is 4 y - h^2 u.
  PoissonControl problem(1);
  const std::vector<double> x = {1.0, 8.0};
  double g = 0;
  problem.Constraints(x.data(), &g);
  EXPECT_DOUBLE_EQ(g, 4.0 - 0.25 * 8.0);
}

TEST(PoissonControl, ControlBoundsOnly) {
  PoissonControl problem(3);
  std::vector<double> xl, xu, gl, gu;
  problem.Bounds(&xl, &xu, &gl, &gu);
  for (int k = 0; k < 9; ++k) {
    EXPECT_TRUE(std::isinf(xl[k]) && std::isinf(xu[k]));
    EXPECT_EQ(xl[9 + k], -PoissonControl::kControlBound);
    EXPECT_EQ(xu[9 + k], PoissonControl::kControlBound);
    EXPECT_EQ(gl[k], 0.0);
    EXPECT_EQ(gu[k], 0.0);
  }
}

}  // namespace
}  // namespace factord::ipopt
