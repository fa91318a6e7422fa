// Method lu (UMFPACK): tiny systems with known solutions, singular matrices
// reported as such, analysis reuse, and the unsymmetric real matrices with
// b = ones (relative residual <= 1e-10).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "core/solver/residual.h"
#include "core/solver/solver.h"
#include "core/solver/validate_options.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

using ::testing::HasSubstr;

FactorOptions LuOptions() {
  FactorOptions options;
  options.method = Method::kLu;
  return options;
}

struct Solved {
  FactorReport factor;
  SolveReport solve;
  std::vector<double> x;
};

// Analyze + factorize + solve A x = b; fails the test on any error.
Solved SolveWithLu(std::shared_ptr<const CsrMatrix> a,
                   const std::vector<double>& b,
                   const FactorOptions& options = LuOptions()) {
  Solved out;
  const ExecContext ctx;
  absl::StatusOr<std::shared_ptr<const Analysis>> analysis =
      Analyze(*a, options, ctx);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return out;
  absl::StatusOr<std::shared_ptr<const Factorization>> factorization =
      Factorize(a, *analysis, options, ctx);
  EXPECT_TRUE(factorization.ok()) << factorization.status();
  if (!factorization.ok()) return out;
  out.factor = (*factorization)->report();
  out.x.assign(b.size(), 0.0);
  absl::Status status =
      (*factorization)->Solve(b, out.x, SolveOptions(), ctx, &out.solve);
  EXPECT_TRUE(status.ok()) << status;
  return out;
}

// [[2, 1, 0], [0, 3, 1], [1, 0, 4]]
std::shared_ptr<const CsrMatrix> Unsymmetric3() {
  auto a = std::make_shared<CsrMatrix>();
  a->rows = a->cols = 3;
  a->row_ptr = {0, 2, 4, 6};
  a->col_idx = {0, 1, 1, 2, 0, 2};
  a->values = {2, 1, 3, 1, 1, 4};
  return a;
}

TEST(LuMethod, SolvesTinyUnsymmetricSystem) {
  // x = (1, 2, 3): b = A x = (4, 9, 13).
  Solved s = SolveWithLu(Unsymmetric3(), {4, 9, 13});
  EXPECT_EQ(s.factor.status, FactorStatus::kOk);
  EXPECT_GT(s.factor.nnz_factor, 0);
  EXPECT_GT(s.factor.factor_bytes, 0);
  EXPECT_FALSE(s.factor.inertia_reliable);
  EXPECT_EQ(s.solve.status, SolveStatus::kConverged);
  ASSERT_EQ(s.x.size(), 3u);
  EXPECT_NEAR(s.x[0], 1, 1e-14);
  EXPECT_NEAR(s.x[1], 2, 1e-14);
  EXPECT_NEAR(s.x[2], 3, 1e-14);
  EXPECT_LE(s.solve.relative_residual, 1e-15);
}

TEST(LuMethod, TransposeIsNotSolvedByMistake) {
  // A^T x = b would give a different x for this b: check A x = b exactly.
  std::shared_ptr<const CsrMatrix> a = Unsymmetric3();
  const std::vector<double> b = {1, 0, 0};
  Solved s = SolveWithLu(a, b);
  std::vector<double> ax(3);
  MultiplyUploaded(*a, s.x, ax);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(ax[i], b[i], 1e-15);
}

TEST(LuMethod, ExpandsSymmetricLowerInput) {
  // [[4, 1, 0], [1, -3, 2], [0, 2, 5]] stored as its lower triangle.
  auto a = std::make_shared<CsrMatrix>();
  a->rows = a->cols = 3;
  a->structure = Structure::kSymmetricLower;
  a->row_ptr = {0, 1, 3, 5};
  a->col_idx = {0, 0, 1, 1, 2};
  a->values = {4, 1, -3, 2, 5};
  // x = (1, 1, 1): b = (5, 0, 7).
  Solved s = SolveWithLu(a, {5, 0, 7});
  EXPECT_EQ(s.solve.status, SolveStatus::kConverged);
  for (double xi : s.x) EXPECT_NEAR(xi, 1.0, 1e-14);
}

TEST(LuMethod, SingularMatrixIsReportedSingular) {
  // Row 3 = row 1 + row 2.
  auto a = std::make_shared<CsrMatrix>();
  a->rows = a->cols = 3;
  a->row_ptr = {0, 2, 4, 7};
  a->col_idx = {0, 1, 1, 2, 0, 1, 2};
  a->values = {1, 2, 3, 4, 1, 5, 4};
  Solved s = SolveWithLu(a, {1, 1, 5});  // inconsistent: b3 != b1 + b2
  EXPECT_EQ(s.factor.status, FactorStatus::kSingular);
  EXPECT_THAT(s.factor.message, HasSubstr("singular"));
  EXPECT_EQ(s.solve.status, SolveStatus::kSingular);
  EXPECT_NE(s.solve.status, SolveStatus::kConverged);
}

TEST(LuMethod, StructurallySingularMatrixIsReportedSingular) {
  auto a = std::make_shared<CsrMatrix>();
  a->rows = a->cols = 3;
  a->row_ptr = {0, 1, 1, 2};  // row 1 is empty
  a->col_idx = {0, 2};
  a->values = {1, 1};
  Solved s = SolveWithLu(a, {1, 1, 1});
  EXPECT_EQ(s.factor.status, FactorStatus::kSingular);
  EXPECT_EQ(s.solve.status, SolveStatus::kSingular);
}

TEST(LuMethod, ZeniosIsReportedSingular) {
  absl::StatusOr<CsrMatrix> read =
      ReadMatrixMarket(testing::TestDataPath("zenios.mtx"));
  ASSERT_TRUE(read.ok()) << read.status();
  auto a = std::make_shared<const CsrMatrix>(std::move(*read));
  Solved s = SolveWithLu(a, std::vector<double>(a->rows, 1.0));
  std::printf("lu zenios: factor %s (%s), solve %s, relative residual %.3g\n",
              std::string(FactorStatusName(s.factor.status)).c_str(),
              s.factor.message.c_str(),
              std::string(SolveStatusName(s.solve.status)).c_str(),
              s.solve.relative_residual);
  EXPECT_EQ(s.factor.status, FactorStatus::kSingular);
  EXPECT_NE(s.solve.status, SolveStatus::kConverged);
}

TEST(LuMethod, ReusesAnalysisWhenValuesChange) {
  const ExecContext ctx;
  const FactorOptions options = LuOptions();
  std::shared_ptr<const CsrMatrix> a = Unsymmetric3();
  absl::StatusOr<std::shared_ptr<const Analysis>> analysis =
      Analyze(*a, options, ctx);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  EXPECT_GT((*analysis)->bytes(), 0);
  EXPECT_GT((*analysis)->factor_bytes_estimate(), 0);
  auto first = Factorize(a, *analysis, options, ctx);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_FALSE((*first)->report().analysis_reused);

  auto b = std::make_shared<CsrMatrix>(*a);
  for (double& v : b->values) v *= -2.0;
  auto second = Factorize(b, *analysis, options, ctx);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_TRUE((*second)->report().analysis_reused);
  std::vector<double> x(3, 0.0);
  SolveReport report;
  ASSERT_TRUE((*second)
                  ->Solve(std::vector<double>{-8, -18, -26}, x, SolveOptions(),
                          ctx, &report)
                  .ok());
  EXPECT_NEAR(x[0], 1, 1e-14);
  EXPECT_NEAR(x[1], 2, 1e-14);
  EXPECT_NEAR(x[2], 3, 1e-14);
  // The first factorization is untouched by the second.
  ASSERT_TRUE((*first)
                  ->Solve(std::vector<double>{4, 9, 13}, x, SolveOptions(), ctx,
                          &report)
                  .ok());
  EXPECT_NEAR(x[2], 3, 1e-14);
}

TEST(LuMethod, RejectsBadUse) {
  const ExecContext ctx;
  const FactorOptions options = LuOptions();
  std::shared_ptr<const CsrMatrix> a = Unsymmetric3();
  auto analysis = Analyze(*a, options, ctx);
  ASSERT_TRUE(analysis.ok());
  // Another pattern.
  auto other = std::make_shared<CsrMatrix>(*a);
  other->col_idx[1] = 2;
  EXPECT_EQ(Factorize(other, *analysis, options, ctx).status().code(),
            absl::StatusCode::kInvalidArgument);
  // lu factorizes the matrix as uploaded: shifts are refused, naming them.
  FactorOptions shifted = options;
  shifted.shift_rest = 1e-8;
  const absl::Status refused = Factorize(a, *analysis, shifted, ctx).status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(InvalidOptionField(refused), "shift_rest") << refused;
  // Wrong sizes of b and x.
  auto factorization = Factorize(a, *analysis, options, ctx);
  ASSERT_TRUE(factorization.ok());
  std::vector<double> x(2);
  SolveReport report;
  EXPECT_EQ(
      (*factorization)
          ->Solve(std::vector<double>{1, 2}, x, SolveOptions(), ctx, &report)
          .code(),
      absl::StatusCode::kInvalidArgument);
  // Non-square, invalid, unsupported ordering.
  CsrMatrix rect = *a;
  rect.cols = 4;
  EXPECT_EQ(Analyze(rect, options, ctx).status().code(),
            absl::StatusCode::kInvalidArgument);
  CsrMatrix bad = *a;
  bad.values[0] = std::nan("");
  EXPECT_EQ(Analyze(bad, options, ctx).status().code(),
            absl::StatusCode::kInvalidArgument);
  FactorOptions rcm = options;
  rcm.ordering = Ordering::kRcm;
  EXPECT_EQ(Analyze(*a, rcm, ctx).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(LuMethod, HonoursCancellation) {
  Cancellation cancelled;
  cancelled.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancelled;
  EXPECT_EQ(Analyze(*Unsymmetric3(), LuOptions(), ctx).status().code(),
            absl::StatusCode::kCancelled);
}

TEST(LuMethod, OrderingsAgree) {
  absl::StatusOr<CsrMatrix> read =
      ReadMatrixMarket(testing::TestDataPath("west0479.mtx"));
  ASSERT_TRUE(read.ok()) << read.status();
  auto a = std::make_shared<const CsrMatrix>(std::move(*read));
  const std::vector<double> b(a->rows, 1.0);
  for (Ordering ordering : {Ordering::kAuto, Ordering::kNatural, Ordering::kAmd,
                            Ordering::kMetis}) {
    FactorOptions options = LuOptions();
    options.ordering = ordering;
    Solved s = SolveWithLu(a, b, options);
    EXPECT_LE(s.solve.relative_residual, 1e-10)
        << OrderingName(ordering) << ": " << s.solve.message;
    std::printf("lu west0479 ordering %s: nnz(L+U) %lld, relres %.3g\n",
                std::string(OrderingName(ordering)).c_str(),
                static_cast<long long>(s.factor.nnz_factor),
                s.solve.relative_residual);
  }
}

TEST(LuMethod, ConcurrentSolvesShareOneFactorization) {
  absl::StatusOr<CsrMatrix> read =
      ReadMatrixMarket(testing::TestDataPath("west0479.mtx"));
  ASSERT_TRUE(read.ok());
  auto a = std::make_shared<const CsrMatrix>(std::move(*read));
  const ExecContext ctx;
  auto analysis = Analyze(*a, LuOptions(), ctx);
  ASSERT_TRUE(analysis.ok());
  auto factorization = Factorize(a, *analysis, LuOptions(), ctx);
  ASSERT_TRUE(factorization.ok());
  std::vector<std::vector<double>> xs(4, std::vector<double>(a->rows));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<double> b(a->rows, 1.0 + t);
      SolveReport report;
      EXPECT_TRUE(
          (*factorization)->Solve(b, xs[t], SolveOptions(), ctx, &report).ok());
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 1; t < 4; ++t) {
    for (int64_t i = 0; i < a->rows; i += 37) {
      EXPECT_NEAR(xs[t][i], (1.0 + t) * xs[0][i],
                  1e-9 * std::abs(xs[t][i]) + 1e-12);
    }
  }
}

// eps * || |A| |x| ||_2 / ||b||_2: the relative residual that rounding x to
// double alone can cause. Ill-conditioned matrices with b = ones have huge
// solutions, and then no double-precision x reaches 1e-10.
double RoundingFloor(const CsrMatrix& a, const std::vector<double>& x,
                     const std::vector<double>& b) {
  CsrMatrix abs_a = a;
  for (double& v : abs_a.values) v = std::abs(v);
  std::vector<double> abs_x(x.size()), y(x.size());
  for (size_t i = 0; i < x.size(); ++i) abs_x[i] = std::abs(x[i]);
  MultiplyUploaded(abs_a, abs_x, y);
  double y2 = 0, b2 = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    y2 += y[i] * y[i];
    b2 += b[i] * b[i];
  }
  return std::numeric_limits<double>::epsilon() * std::sqrt(y2 / b2);
}

// The unsymmetric real matrices with b = ones (resolve: with its b). The
// relative residual must reach 1e-10, or within 10x of the rounding floor
// for the ill-conditioned ones, with a backward error at machine precision.
void ExpectSolvesRealMatrix(const std::string& path, const std::string& rhs) {
  SCOPED_TRACE(path);
  absl::StatusOr<CsrMatrix> read = ReadMatrixMarket(path);
  ASSERT_TRUE(read.ok()) << read.status();
  auto a = std::make_shared<const CsrMatrix>(std::move(*read));
  std::vector<double> b(a->rows, 1.0);
  if (!rhs.empty()) {
    absl::StatusOr<std::vector<double>> read_b = ReadDenseVector(rhs);
    ASSERT_TRUE(read_b.ok()) << read_b.status();
    b = *read_b;
  }
  Solved s = SolveWithLu(a, b);
  ASSERT_EQ(s.x.size(), b.size());
  const double floor = RoundingFloor(*a, s.x, b);
  std::printf(
      "lu %s: n %lld nnz %lld nnz(L+U) %lld factor %s (%s), solve %s, relres "
      "%.3g (rounding floor %.3g), backward error %.3g, refinement steps %d, "
      "factorize %.4f s\n",
      std::filesystem::path(path).filename().c_str(),
      static_cast<long long>(a->rows), static_cast<long long>(a->nnz()),
      static_cast<long long>(s.factor.nnz_factor),
      std::string(FactorStatusName(s.factor.status)).c_str(),
      s.factor.message.c_str(),
      std::string(SolveStatusName(s.solve.status)).c_str(),
      s.solve.relative_residual, floor, s.solve.backward_error,
      s.solve.iterations, s.factor.factorize_s);
  EXPECT_EQ(s.factor.status, FactorStatus::kOk) << s.factor.message;
  EXPECT_LE(s.solve.relative_residual, std::max(1e-10, 10 * floor));
  EXPECT_LE(s.solve.backward_error, 1e-15);
  if (s.solve.relative_residual <= SolveOptions().tolerance) {
    EXPECT_EQ(s.solve.status, SolveStatus::kConverged);
  } else {
    EXPECT_EQ(s.solve.status, SolveStatus::kNotConverged);
  }
}

TEST(LuMethod, West0479FromTestData) {
  ExpectSolvesRealMatrix(testing::TestDataPath("west0479.mtx"), "");
  // Well conditioned enough for 1e-10 outright.
  Solved s = SolveWithLu(std::make_shared<const CsrMatrix>(*ReadMatrixMarket(
                             testing::TestDataPath("west0479.mtx"))),
                         std::vector<double>(479, 1.0));
  EXPECT_LE(s.solve.relative_residual, 1e-10);
  ExpectSolvesRealMatrix(testing::TestDataPath("resolve/A_asymmetric01.mtx"),
                         testing::TestDataPath("resolve/b_asymmetric01.mtx"));
}

TEST(LuMethod, UnsymmetricSharedMatrices) {
  if (!testing::HaveSharedData()) {
    GTEST_SKIP() << testing::SharedDataAbsent(
        "lu on the nine unsymmetric matrices of matrices/ (west0479 alone "
        "runs in LuMethod.West0479FromTestData)");
  }
  for (const char* name :
       {"west0479", "west0497", "olm1000", "nnc1374", "watt_2", "rajat19",
        "bp_1200", "ani4", "cryg2500"}) {
    ExpectSolvesRealMatrix(
        testing::SharedDataPath(std::string("matrices/") + name + ".mtx"), "");
  }
}

}  // namespace
}  // namespace factord
