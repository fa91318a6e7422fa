// SQMR for symmetric indefinite systems: an indefinite matrix that CG
// cannot solve, an indefinite diagonal preconditioner, the q'Aq = 0
// breakdown, cancellation.
#include "core/krylov/sqmr.h"

#include "core/krylov/cg.h"
#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"

namespace factord {
namespace {

using namespace ::factord::testing;

// Symmetric tridiagonal with alternating diagonal signs: indefinite.
CsrMatrix Indefinite(int n) {
  CsrMatrix a = Tridiagonal(n, 1, 0, 1);
  std::vector<double> dense(n * n, 0.0);
  for (int i = 0; i < n; ++i) {
    dense[i * n + i] = (i % 2 ? -4.0 : 4.0) + 0.1 * i;
    if (i > 0) dense[i * n + i - 1] = dense[(i - 1) * n + i] = 1.0;
  }
  return DenseToCsr(n, dense);
}

TEST(Sqmr, SolvesSymmetricIndefiniteSystem) {
  const CsrMatrix a = Indefinite(40);
  const auto x_true = KnownSolution(40);
  const auto b = Multiply(a, x_true);
  std::vector<double> x(40, 0.0);
  auto result = SolveSqmr(CsrOperator(a), IdentityPreconditioner(40), b, x, {},
                          ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged) << result->message;
  EXPECT_LE(result->relative_residual, 1e-8);
  EXPECT_LT(MaxError(x, x_true), 1e-6);
}

TEST(Sqmr, AcceptsAnIndefinitePreconditioner) {
  const CsrMatrix a = Indefinite(40);
  std::vector<double> d(40);
  for (int i = 0; i < 40; ++i) d[i] = (i % 2 ? -4.0 : 4.0) + 0.1 * i;
  const auto b = Multiply(a, KnownSolution(40));
  std::vector<double> x(40, 0.0), x_none(40, 0.0);
  auto result = SolveSqmr(CsrOperator(a), DiagonalPreconditioner(d), b, x, {},
                          ExecContext{});
  auto plain = SolveSqmr(CsrOperator(a), IdentityPreconditioner(40), b, x_none,
                         {}, ExecContext{});
  ASSERT_TRUE(result.ok() && plain.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged) << result->message;
  EXPECT_LE(result->iterations, plain->iterations);
}

TEST(Sqmr, ZeroCurvatureIsABreakdownWithFiniteX) {
  const CsrMatrix a = DenseToCsr(2, {0, 1, 1, 0});
  const std::vector<double> b = {1, 0};  // q'Aq = 0 at the first step
  std::vector<double> x(2, 0.0);
  auto result = SolveSqmr(CsrOperator(a), IdentityPreconditioner(2), b, x, {},
                          ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kBreakdown);
  EXPECT_TRUE(AllFinite(x));
}

TEST(Sqmr, CancelledTokenIsReturnedAsCancelled) {
  const CsrMatrix a = Indefinite(10);
  const std::vector<double> b(10, 1.0);
  std::vector<double> x(10, 0.0);
  Cancellation cancellation;
  cancellation.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancellation;
  EXPECT_EQ(SolveSqmr(CsrOperator(a), IdentityPreconditioner(10), b, x, {}, ctx)
                .status()
                .code(),
            absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace factord
