// The true-residual loop: a cycle whose estimate lies is restarted and then
// stopped as stagnated; a cycle that writes NaN leaves the previous x; the
// status comes from the true residual; cancellation between cycles.
#include "core/krylov/true_residual_driver.h"

#include <cmath>

#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"

namespace factord::internal {
namespace {

using ::factord::testing::Tridiagonal;

TEST(TrueResidualDriver, LyingEstimateRestartsThenStagnates) {
  const CsrMatrix a = Tridiagonal(4, 0, 1, 0);  // identity
  const std::vector<double> b(4, 1.0);
  std::vector<double> x(4, 0.0);
  int cycles = 0;
  auto cycle = [&](std::span<double> x, std::span<const double>, double, int,
                   double) -> absl::StatusOr<CycleOutcome> {
    ++cycles;
    for (double& v : x) v = 0.5;  // true residual stays at 0.5
    CycleOutcome out;
    out.iterations = 1;
    out.estimate_converged = true;  // but claims convergence
    return out;
  };
  auto result =
      RunWithTrueResidual("test", CsrOperator(a), IdentityPreconditioner(4), b,
                          x, {}, ExecContext{}, cycle);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kNotConverged);
  EXPECT_NE(result->message.find("stagnated"), std::string::npos);
  EXPECT_EQ(cycles, 4);
  EXPECT_DOUBLE_EQ(result->relative_residual, 0.5);
}

TEST(TrueResidualDriver, NonFiniteCycleRestoresThePreviousIterate) {
  const CsrMatrix a = Tridiagonal(3, 0, 1, 0);
  const std::vector<double> b(3, 1.0);
  std::vector<double> x = {0.25, 0.25, 0.25};
  auto cycle = [&](std::span<double> x, std::span<const double>, double, int,
                   double) -> absl::StatusOr<CycleOutcome> {
    x[1] = NAN;
    CycleOutcome out;
    out.iterations = 2;
    return out;
  };
  auto result =
      RunWithTrueResidual("test", CsrOperator(a), IdentityPreconditioner(3), b,
                          x, {}, ExecContext{}, cycle);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kBreakdown);
  EXPECT_EQ(x, (std::vector<double>{0.25, 0.25, 0.25}));
  EXPECT_DOUBLE_EQ(result->relative_residual, 0.75);
}

TEST(TrueResidualDriver, BreakdownAtTheSolutionIsConverged) {
  const CsrMatrix a = Tridiagonal(3, 0, 2, 0);
  const std::vector<double> b(3, 1.0);
  std::vector<double> x(3, 0.0);
  auto cycle = [&](std::span<double> x, std::span<const double>, double, int,
                   double) -> absl::StatusOr<CycleOutcome> {
    for (double& v : x) v = 0.5;
    CycleOutcome out;
    out.iterations = 1;
    out.breakdown = true;
    out.message = "rho = 0";
    return out;
  };
  auto result =
      RunWithTrueResidual("test", CsrOperator(a), IdentityPreconditioner(3), b,
                          x, {}, ExecContext{}, cycle);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged);
}

TEST(TrueResidualDriver, CycleWithoutProgressIsABreakdownNotAHang) {
  const CsrMatrix a = Tridiagonal(2, 0, 1, 0);
  const std::vector<double> b = {1, 1};
  std::vector<double> x(2, 0.0);
  auto idle = [](std::span<double>, std::span<const double>, double, int,
                 double) -> absl::StatusOr<CycleOutcome> {
    return CycleOutcome{};  // zero iterations, no flags
  };
  auto result =
      RunWithTrueResidual("test", CsrOperator(a), IdentityPreconditioner(2), b,
                          x, {}, ExecContext{}, idle);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kBreakdown);
}

TEST(TrueResidualDriver, NonFiniteInputsAreInvalidArgument) {
  const CsrMatrix a = Tridiagonal(2, 0, 1, 0);
  std::vector<double> x(2, 0.0);
  auto never = [](std::span<double>, std::span<const double>, double, int,
                  double) -> absl::StatusOr<CycleOutcome> {
    return CycleOutcome{};
  };
  const std::vector<double> bad_b = {1, NAN};
  EXPECT_EQ(
      RunWithTrueResidual("test", CsrOperator(a), IdentityPreconditioner(2),
                          bad_b, x, {}, ExecContext{}, never)
          .status()
          .code(),
      absl::StatusCode::kInvalidArgument);
  const std::vector<double> b = {1, 1};
  std::vector<double> bad_x = {INFINITY, 0};
  EXPECT_EQ(
      RunWithTrueResidual("test", CsrOperator(a), IdentityPreconditioner(2), b,
                          bad_x, {}, ExecContext{}, never)
          .status()
          .code(),
      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace factord::internal
