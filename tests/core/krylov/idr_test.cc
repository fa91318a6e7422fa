// IDR(s): nonsymmetric known solutions for s = 1, 2, 4 (and s > n), the
// reproducibility of the fixed shadow space, the zero-operator breakdown,
// cancellation and bad options.
#include "core/krylov/idr.h"

#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"

namespace factord {
namespace {

using namespace ::factord::testing;

TEST(Idr, SolvesNonsymmetricSystemForSeveralS) {
  const CsrMatrix a = Tridiagonal(80, -1.5, 3, -0.2);
  const auto x_true = KnownSolution(80);
  const auto b = Multiply(a, x_true);
  for (int s : {1, 2, 4, 8}) {
    KrylovOptions options;
    options.idr_s = s;
    std::vector<double> x(80, 0.0);
    auto result = SolveIdr(CsrOperator(a), IdentityPreconditioner(80), b, x,
                           options, ExecContext{});
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->status, SolveStatus::kConverged) << "s " << s;
    EXPECT_LE(result->relative_residual, 1e-8);
    EXPECT_LT(MaxError(x, x_true), 1e-6);
  }
}

TEST(Idr, ShadowSpaceLargerThanTheSystemIsClamped) {
  const CsrMatrix a = Tridiagonal(3, -1, 4, -2);
  const auto b = Multiply(a, KnownSolution(3));
  KrylovOptions options;
  options.idr_s = 8;
  std::vector<double> x(3, 0.0);
  auto result = SolveIdr(CsrOperator(a), IdentityPreconditioner(3), b, x,
                         options, ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kConverged);
}

TEST(Idr, RunsAreBitwiseReproducible) {
  const CsrMatrix a = Tridiagonal(300, -1.2, 3, -0.7);
  const std::vector<double> b(300, 1.0);
  std::vector<double> x1(300, 0.0), x2(300, 0.0);
  ExecContext ctx;
  ctx.threads = 2;
  ASSERT_TRUE(
      SolveIdr(CsrOperator(a), IdentityPreconditioner(300), b, x1, {}, ctx)
          .ok());
  ASSERT_TRUE(
      SolveIdr(CsrOperator(a), IdentityPreconditioner(300), b, x2, {}, ctx)
          .ok());
  EXPECT_EQ(x1, x2);
}

TEST(Idr, ZeroOperatorIsABreakdownWithFiniteX) {
  CsrMatrix a = Tridiagonal(5, 0, 1, 0);
  for (double& v : a.values) v = 0;
  const std::vector<double> b(5, 1.0);
  std::vector<double> x(5, 0.0);
  auto result = SolveIdr(CsrOperator(a), IdentityPreconditioner(5), b, x, {},
                         ExecContext{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->status, SolveStatus::kBreakdown);
  EXPECT_TRUE(AllFinite(x));
}

TEST(Idr, CancelledAndBadS) {
  const CsrMatrix a = Tridiagonal(10, -1, 2, -1);
  const std::vector<double> b(10, 1.0);
  std::vector<double> x(10, 0.0);
  Cancellation cancellation;
  cancellation.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancellation;
  EXPECT_EQ(SolveIdr(CsrOperator(a), IdentityPreconditioner(10), b, x, {}, ctx)
                .status()
                .code(),
            absl::StatusCode::kCancelled);
  KrylovOptions options;
  options.idr_s = 0;
  EXPECT_EQ(SolveIdr(CsrOperator(a), IdentityPreconditioner(10), b, x, options,
                     ExecContext{})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace factord
