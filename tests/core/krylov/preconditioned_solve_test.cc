#include "core/krylov/preconditioned_solve.h"

#include <vector>

#include "gtest/gtest.h"

namespace factord {
namespace {

// The 1D Laplacian tridiag(-1, 2, -1) of order n, lower triangle stored.
CsrMatrix LaplacianLower(int64_t n) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSpdLower;
  a.row_ptr.push_back(0);
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) {
      a.col_idx.push_back(static_cast<int32_t>(i - 1));
      a.values.push_back(-1.0);
    }
    a.col_idx.push_back(static_cast<int32_t>(i));
    a.values.push_back(2.0);
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

TEST(SolvePreconditioned, EveryKrylovMethodConvergesOnTheUploadedMatrix) {
  const CsrMatrix lower = LaplacianLower(40);
  const CsrMatrix full = ExpandSymmetric(lower);
  const IdentityPreconditioner m(40);
  const std::vector<double> b(40, 1.0);
  for (Krylov k : {Krylov::kCg, Krylov::kGmres, Krylov::kSqmr, Krylov::kIdr,
                   Krylov::kBicgstab}) {
    std::vector<double> x(40, 0.0);
    SolveOptions options;
    options.tolerance = 1e-10;
    SolveReport report;
    ASSERT_TRUE(SolvePreconditioned(full, lower, {}, m, k, b, x, options,
                                    ExecContext{}, &report)
                    .ok())
        << KrylovName(k);
    EXPECT_EQ(report.status, SolveStatus::kConverged) << KrylovName(k);
    EXPECT_LE(report.relative_residual, 1e-10) << KrylovName(k);
    EXPECT_GT(report.iterations, 0) << KrylovName(k);
    // x = A^{-1} 1 for the Laplacian is x_i = (i+1)(n-i)/2.
    EXPECT_NEAR(x[0], 20.0, 1e-6) << KrylovName(k);
  }
}

TEST(SolvePreconditioned, IterationLimitIsNotConverged) {
  const CsrMatrix lower = LaplacianLower(200);
  const CsrMatrix full = ExpandSymmetric(lower);
  const IdentityPreconditioner m(200);
  const std::vector<double> b(200, 1.0);
  std::vector<double> x(200, 0.0);
  SolveOptions options;
  options.max_iterations = 3;
  SolveReport report;
  ASSERT_TRUE(SolvePreconditioned(full, lower, {}, m, Krylov::kCg, b, x,
                                  options, ExecContext{}, &report)
                  .ok());
  EXPECT_EQ(report.status, SolveStatus::kNotConverged);
  EXPECT_LE(report.iterations, 3);
  EXPECT_GT(report.relative_residual, 1e-8);
}

TEST(SolvePreconditioned, NoneIsNotAKrylovMethod) {
  const CsrMatrix lower = LaplacianLower(4);
  const CsrMatrix full = ExpandSymmetric(lower);
  const IdentityPreconditioner m(4);
  const std::vector<double> b(4, 1.0);
  std::vector<double> x(4, 0.0);
  SolveReport report;
  const absl::Status s =
      SolvePreconditioned(full, lower, {}, m, Krylov::kNone, b, x,
                          SolveOptions{}, ExecContext{}, &report);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
}

TEST(SolvePreconditioned, CancelledRequestStops) {
  const CsrMatrix lower = LaplacianLower(50);
  const CsrMatrix full = ExpandSymmetric(lower);
  const IdentityPreconditioner m(50);
  const std::vector<double> b(50, 1.0);
  std::vector<double> x(50, 0.0);
  Cancellation cancellation;
  cancellation.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancellation;
  SolveReport report;
  const absl::Status s = SolvePreconditioned(
      full, lower, {}, m, Krylov::kGmres, b, x, SolveOptions{}, ctx, &report);
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace factord
