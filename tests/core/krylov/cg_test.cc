// Preconditioned CG: a known SPD solution with and without a
// preconditioner, an indefinite matrix (breakdown, finite x), cancellation,
// a deadline, mismatched sizes, a zero right-hand side and the iteration
// limit.
#include "core/krylov/cg.h"

#include <chrono>

#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"

namespace factord {
namespace {

using namespace ::factord::testing;

TEST(Cg, SolvesLaplacianToTolerance) {
  const CsrMatrix a = Tridiagonal(50, -1, 2, -1);
  const CsrOperator op(a);
  const auto x_true = KnownSolution(50);
  const auto b = Multiply(a, x_true);
  for (int threads : {1, 2}) {
    ExecContext ctx;
    ctx.threads = threads;
    std::vector<double> x(50, 0.0);
    auto result = SolveCg(op, IdentityPreconditioner(50), b, x, {}, ctx);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->status, SolveStatus::kConverged);
    EXPECT_LE(result->relative_residual, 1e-8);
    EXPECT_LE(result->iterations, 50 + 5);  // n steps in exact arithmetic
    EXPECT_LT(MaxError(x, x_true), 1e-5);
  }
}

TEST(Cg, BitwiseReproducibleAcrossThreadCountsAndCloseToReference) {
  const int n = 3 * 4096 + 5;  // several reduction chunks
  const CsrMatrix a = Tridiagonal(n, -1, 2.01, -1);
  const std::vector<double> b(n, 1.0);
  std::vector<std::vector<double>> solutions;
  for (int threads : {1, 2, 3}) {
    ExecContext ctx;
    ctx.threads = threads;
    std::vector<double> x(n, 0.0);
    auto result =
        SolveCg(CsrOperator(a), IdentityPreconditioner(n), b, x, {}, ctx);
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->status, SolveStatus::kConverged);
    solutions.push_back(x);
  }
  EXPECT_EQ(solutions[0], solutions[1]);
  EXPECT_EQ(solutions[0], solutions[2]);
  ExecContext ref;
  ref.backend = Backend::kReference;
  std::vector<double> x(n, 0.0);
  auto result =
      SolveCg(CsrOperator(a), IdentityPreconditioner(n), b, x, {}, ref);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged);
  EXPECT_LT(MaxError(x, solutions[0]), 1e-6 * 100);
}

TEST(Cg, DiagonalPreconditionerSolvesBadlyScaledDiagonalInOneStep) {
  CsrMatrix a = Tridiagonal(20, 0, 1, 0);
  for (int i = 0; i < 20; ++i) a.values[i] = std::pow(10.0, i % 7);
  const auto b = Multiply(a, KnownSolution(20));
  std::vector<double> d(a.values.begin(), a.values.end()), x(20, 0.0);
  auto result = SolveCg(CsrOperator(a), DiagonalPreconditioner(d), b, x, {},
                        ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged);
  EXPECT_EQ(result->iterations, 1);
}

TEST(Cg, IndefiniteMatrixIsABreakdownWithFiniteX) {
  const CsrMatrix a = DenseToCsr(2, {1, 0, 0, -1});
  const std::vector<double> b = {1, 1};
  std::vector<double> x(2, 0.0);
  auto result = SolveCg(CsrOperator(a), IdentityPreconditioner(2), b, x, {},
                        ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kBreakdown);
  EXPECT_NE(result->message.find("p'Ap"), std::string::npos);
  EXPECT_TRUE(AllFinite(x));
}

TEST(Cg, CancelledTokenIsReturnedAsCancelled) {
  const CsrMatrix a = Tridiagonal(10, -1, 2, -1);
  const std::vector<double> b(10, 1.0);
  std::vector<double> x(10, 0.0);
  Cancellation cancellation;
  cancellation.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancellation;
  auto result =
      SolveCg(CsrOperator(a), IdentityPreconditioner(10), b, x, {}, ctx);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kCancelled);
}

TEST(Cg, PastDeadlineIsDeadlineExceeded) {
  const CsrMatrix a = Tridiagonal(10, -1, 2, -1);
  const std::vector<double> b(10, 1.0);
  std::vector<double> x(10, 0.0);
  Cancellation cancellation(Cancellation::Clock::now() -
                            std::chrono::seconds(1));
  ExecContext ctx;
  ctx.cancellation = &cancellation;
  auto result =
      SolveCg(CsrOperator(a), IdentityPreconditioner(10), b, x, {}, ctx);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kDeadlineExceeded);
}

TEST(Cg, MismatchedSizesAreInvalidArgument) {
  const CsrMatrix a = Tridiagonal(4, -1, 2, -1);
  const std::vector<double> b(3, 1.0);
  std::vector<double> x(4, 0.0);
  auto result = SolveCg(CsrOperator(a), IdentityPreconditioner(4), b, x, {},
                        ExecContext{});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Cg, ZeroRightHandSideGivesZeroSolution) {
  const CsrMatrix a = Tridiagonal(4, -1, 2, -1);
  const std::vector<double> b(4, 0.0);
  std::vector<double> x = {1, 2, 3, 4};
  auto result = SolveCg(CsrOperator(a), IdentityPreconditioner(4), b, x, {},
                        ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged);
  EXPECT_EQ(x, std::vector<double>(4, 0.0));
}

TEST(Cg, IterationLimitIsNotConverged) {
  const CsrMatrix a = Tridiagonal(200, -1, 2, -1);
  const std::vector<double> b(200, 1.0);
  std::vector<double> x(200, 0.0);
  KrylovOptions options;
  options.max_iterations = 5;
  auto result = SolveCg(CsrOperator(a), IdentityPreconditioner(200), b, x,
                        options, ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kNotConverged);
  EXPECT_EQ(result->iterations, 5);
  EXPECT_GT(result->relative_residual, 1e-8);
}

}  // namespace
}  // namespace factord
