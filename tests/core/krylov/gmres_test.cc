// GMRES(m) with right preconditioning: a nonsymmetric known solution,
// restarts (m = 1, 5), the lucky breakdown of an exactly solvable system, a
// singular operator (breakdown, finite x), cancellation and bad options.
#include "core/krylov/gmres.h"

#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"

namespace factord {
namespace {

using namespace ::factord::testing;

TEST(Gmres, SolvesNonsymmetricSystemWithRestarts) {
  const CsrMatrix a = Tridiagonal(60, -1.3, 3, -0.4);
  const auto x_true = KnownSolution(60);
  const auto b = Multiply(a, x_true);
  for (int restart : {1, 5, 50}) {
    KrylovOptions options;
    options.restart = restart;
    std::vector<double> x(60, 0.0);
    auto result = SolveGmres(CsrOperator(a), IdentityPreconditioner(60), b, x,
                             options, ExecContext{});
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->status, SolveStatus::kConverged) << restart;
    EXPECT_LE(result->relative_residual, 1e-8);
    EXPECT_LT(MaxError(x, x_true), 1e-6);
  }
}

TEST(Gmres, RightPreconditioningWithExactInverseTakesOneIteration) {
  CsrMatrix a = Tridiagonal(10, 0, 1, 0);
  for (int i = 0; i < 10; ++i) a.values[i] = -(i + 1.0);
  std::vector<double> d(a.values.begin(), a.values.end());
  const auto b = Multiply(a, KnownSolution(10));
  std::vector<double> x(10, 0.0);
  auto result = SolveGmres(CsrOperator(a), DiagonalPreconditioner(d), b, x, {},
                           ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged);
  EXPECT_EQ(result->iterations, 1);
}

TEST(Gmres, ZeroOperatorIsABreakdownWithFiniteX) {
  CsrMatrix a = Tridiagonal(3, 0, 1, 0);
  for (double& v : a.values) v = 0;  // explicit zeros
  const std::vector<double> b = {1, 2, 3};
  std::vector<double> x(3, 0.0);
  auto result = SolveGmres(CsrOperator(a), IdentityPreconditioner(3), b, x, {},
                           ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kBreakdown);
  EXPECT_TRUE(AllFinite(x));
}

TEST(Gmres, CancelledTokenIsReturnedAsCancelled) {
  const CsrMatrix a = Tridiagonal(10, -1, 2, -1);
  const std::vector<double> b(10, 1.0);
  std::vector<double> x(10, 0.0);
  Cancellation cancellation;
  cancellation.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancellation;
  EXPECT_EQ(
      SolveGmres(CsrOperator(a), IdentityPreconditioner(10), b, x, {}, ctx)
          .status()
          .code(),
      absl::StatusCode::kCancelled);
}

TEST(Gmres, RestartBelowOneIsInvalidArgument) {
  const CsrMatrix a = Tridiagonal(3, -1, 2, -1);
  const std::vector<double> b(3, 1.0);
  std::vector<double> x(3, 0.0);
  KrylovOptions options;
  options.restart = 0;
  EXPECT_EQ(SolveGmres(CsrOperator(a), IdentityPreconditioner(3), b, x, options,
                       ExecContext{})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace factord
