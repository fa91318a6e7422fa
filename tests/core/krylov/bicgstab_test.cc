// BiCGStab with right preconditioning: a nonsymmetric known solution, a
// preconditioned one, the rhat'Ap = 0 breakdown of a skew-symmetric
// matrix, cancellation.
#include "core/krylov/bicgstab.h"

#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"

namespace factord {
namespace {

using namespace ::factord::testing;

TEST(Bicgstab, SolvesNonsymmetricSystem) {
  const CsrMatrix a = Tridiagonal(70, -1.4, 3, -0.3);
  const auto x_true = KnownSolution(70);
  const auto b = Multiply(a, x_true);
  std::vector<double> x(70, 0.0);
  auto result = SolveBicgstab(CsrOperator(a), IdentityPreconditioner(70), b, x,
                              {}, ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged);
  EXPECT_LE(result->relative_residual, 1e-8);
  EXPECT_LT(MaxError(x, x_true), 1e-6);
}

TEST(Bicgstab, ExactDiagonalPreconditionerConvergesAtOnce) {
  CsrMatrix a = Tridiagonal(12, 0, 1, 0);
  for (int i = 0; i < 12; ++i) a.values[i] = 1.0 + i * i;
  std::vector<double> d(a.values.begin(), a.values.end());
  const auto b = Multiply(a, KnownSolution(12));
  std::vector<double> x(12, 0.0);
  auto result = SolveBicgstab(CsrOperator(a), DiagonalPreconditioner(d), b, x,
                              {}, ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged);
  EXPECT_EQ(result->iterations, 1);
}

TEST(Bicgstab, SkewSymmetricMatrixIsABreakdownWithFiniteX) {
  const CsrMatrix a = DenseToCsr(2, {0, 1, -1, 0});
  const std::vector<double> b = {1, 0};  // rhat'A r = r'A r = 0
  std::vector<double> x(2, 0.0);
  auto result = SolveBicgstab(CsrOperator(a), IdentityPreconditioner(2), b, x,
                              {}, ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kBreakdown);
  EXPECT_TRUE(AllFinite(x));
}

TEST(Bicgstab, CancelledTokenIsReturnedAsCancelled) {
  const CsrMatrix a = Tridiagonal(10, -1, 2, -1);
  const std::vector<double> b(10, 1.0);
  std::vector<double> x(10, 0.0);
  Cancellation cancellation;
  cancellation.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancellation;
  EXPECT_EQ(
      SolveBicgstab(CsrOperator(a), IdentityPreconditioner(10), b, x, {}, ctx)
          .status()
          .code(),
      absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace factord
