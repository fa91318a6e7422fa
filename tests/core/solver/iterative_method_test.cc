// The iterative method family through the solver facade: tiny systems with
// known answers, the method/Krylov choices, analysis reuse, singular blocks,
// cancellation, and acceptance figures on real
// matrices (block_jacobi + CG on the SPD ones, GMRES(50) on the ReSolve
// symmetric and unsymmetric ones; tolerance 1e-8, 1000 iterations).
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "core/solver/residual.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

using ::factord::testing::TestDataPath;

struct Outcome {
  FactorReport factor;
  SolveReport solve;
  std::vector<double> x;
};

Outcome FactorAndSolve(std::shared_ptr<const CsrMatrix> a,
                       const std::vector<double>& b, Method method,
                       Krylov krylov, const ExecContext& ctx = {}) {
  FactorOptions factor_options;
  factor_options.method = method;
  auto analysis = Analyze(*a, factor_options, ctx);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  auto factorization = Factorize(a, *analysis, factor_options, ctx);
  EXPECT_TRUE(factorization.ok()) << factorization.status();
  Outcome out;
  out.factor = (*factorization)->report();
  SolveOptions solve_options;
  solve_options.krylov = krylov;
  out.x.assign(a->rows, 0.0);
  absl::Status s =
      (*factorization)->Solve(b, out.x, solve_options, ctx, &out.solve);
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

// Reads tests/data/<name>; a symmetric file is spd_lower when `spd`.
std::shared_ptr<const CsrMatrix> Load(const std::string& path, bool spd) {
  absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(path);
  EXPECT_TRUE(a.ok()) << a.status();
  if (!a.ok()) return std::make_shared<CsrMatrix>();
  if (spd && IsSymmetric(a->structure)) a->structure = Structure::kSpdLower;
  return std::make_shared<const CsrMatrix>(*std::move(a));
}

// [4 1 0; 1 3 1; 0 1 2] stored lower.
std::shared_ptr<const CsrMatrix> SmallSpd(Structure structure) {
  auto a = std::make_shared<CsrMatrix>();
  a->rows = a->cols = 3;
  a->structure = structure;
  a->row_ptr = {0, 1, 3, 5};
  a->col_idx = {0, 0, 1, 1, 2};
  a->values = {4, 1, 3, 1, 2};
  return a;
}

TEST(IterativeMethod, EveryMethodAndKrylovSolvesASmallSystem) {
  auto a = SmallSpd(Structure::kSpdLower);
  const std::vector<double> x_true = {1, -1, 2};
  const std::vector<double> b = {3, 0, 3};  // A x_true
  for (Method method : {Method::kNone, Method::kJacobi, Method::kBlockJacobi}) {
    for (Krylov krylov : {Krylov::kAuto, Krylov::kCg, Krylov::kGmres,
                          Krylov::kSqmr, Krylov::kIdr, Krylov::kBicgstab}) {
      Outcome out = FactorAndSolve(a, b, method, krylov);
      EXPECT_EQ(out.solve.status, SolveStatus::kConverged)
          << MethodName(method) << " " << KrylovName(krylov);
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(out.x[i], x_true[i], 1e-7);
      EXPECT_LE(out.solve.relative_residual, 1e-8);
      EXPECT_GE(out.solve.solve_s, 0);
    }
  }
}

// IPM shifts change the system: [4 1 0; 1 3 1; 0 1 2] with 2 on the first
// diagonal entry and 1 on the others is [6 1 0; 1 4 1; 0 1 3], whose
// solution for b = (7, 6, 4) is (1, 1, 1); jacobi and block_jacobi solve
// that system and report its residual (none refuses shifts).
TEST(IterativeMethod, ShiftsAreSolvedOnTheShiftedSystem) {
  auto a = SmallSpd(Structure::kSpdLower);
  const std::vector<double> b = {7, 6, 4};
  for (Method method : {Method::kJacobi, Method::kBlockJacobi}) {
    FactorOptions options;
    options.method = method;
    options.shift_first = 2;
    options.shift_count = 1;
    options.shift_rest = 1;
    auto analysis = Analyze(*a, options, ExecContext{});
    ASSERT_TRUE(analysis.ok()) << analysis.status();
    auto f = Factorize(a, *analysis, options, ExecContext{});
    ASSERT_TRUE(f.ok()) << f.status();
    std::vector<double> x(3, 0.0);
    SolveReport report;
    SolveOptions solve;
    solve.tolerance = 1e-12;
    ASSERT_TRUE((*f)->Solve(b, x, solve, ExecContext{}, &report).ok());
    EXPECT_EQ(report.status, SolveStatus::kConverged) << MethodName(method);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(x[i], 1.0, 1e-11) << MethodName(method);
    }
    const ResidualNorms shifted =
        ComputeResidualNorms(*a, options.ShiftVector(3), b, x);
    EXPECT_EQ(report.relative_residual, shifted.relative_residual);
    EXPECT_EQ(report.backward_error, shifted.backward_error);
  }
}

TEST(IterativeMethod, KrylovNoneIsInvalidArgument) {
  auto a = SmallSpd(Structure::kSpdLower);
  FactorOptions options;
  options.method = Method::kJacobi;
  auto analysis = Analyze(*a, options, ExecContext{});
  ASSERT_TRUE(analysis.ok());
  auto f = Factorize(a, *analysis, options, ExecContext{});
  ASSERT_TRUE(f.ok());
  SolveOptions solve;
  solve.krylov = Krylov::kNone;
  std::vector<double> b(3, 1.0), x(3, 0.0);
  SolveReport report;
  EXPECT_EQ((*f)->Solve(b, x, solve, ExecContext{}, &report).code(),
            absl::StatusCode::kInvalidArgument);
  std::vector<double> short_b(2, 1.0);
  EXPECT_EQ((*f)->Solve(short_b, x, {}, ExecContext{}, &report).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(IterativeMethod, AnalysisIsReusedWhenValuesChange) {
  auto a = Load(TestDataPath("494_bus.mtx"), true);
  FactorOptions options;
  options.method = Method::kBlockJacobi;
  auto analysis = Analyze(*a, options, ExecContext{});
  ASSERT_TRUE(analysis.ok());
  EXPECT_GT((*analysis)->bytes(), 0);
  EXPECT_GT((*analysis)->factor_bytes_estimate(), 0);
  auto scaled = std::make_shared<CsrMatrix>(*a);
  for (double& v : scaled->values) v *= 3.0;
  const std::vector<double> b(a->rows, 1.0);
  for (auto m : {a, std::shared_ptr<const CsrMatrix>(scaled)}) {
    auto f = Factorize(m, *analysis, options, ExecContext{});
    ASSERT_TRUE(f.ok());
    EXPECT_GT((*f)->report().blocks, 0);
    EXPECT_GT((*f)->report().factor_bytes, 0);
    EXPECT_GT((*f)->bytes(), 0);
    std::vector<double> x(a->rows, 0.0);
    SolveReport report;
    ASSERT_TRUE((*f)->Solve(b, x, {}, ExecContext{}, &report).ok());
    EXPECT_EQ(report.status, SolveStatus::kConverged);
  }
}

TEST(IterativeMethod, SingularBlocksAndZeroDiagonalsAreReported) {
  // [[1 1 0]; [1 1 0]; [0 0 0]] plus a shifted copy below it keeps the
  // system solvable while every block containing rows 0-2 is singular.
  auto a = std::make_shared<CsrMatrix>();
  a->rows = a->cols = 3;
  a->structure = Structure::kSymmetricLower;
  a->row_ptr = {0, 1, 3, 4};
  a->col_idx = {0, 0, 1, 2};
  a->values = {1, 1, 1, 0};
  for (Method method : {Method::kJacobi, Method::kBlockJacobi}) {
    FactorOptions options;
    options.method = method;
    auto analysis = Analyze(*a, options, ExecContext{});
    ASSERT_TRUE(analysis.ok());
    auto f = Factorize(a, *analysis, options, ExecContext{});
    ASSERT_TRUE(f.ok());
    const FactorReport& report = (*f)->report();
    EXPECT_EQ(report.status, FactorStatus::kSingular) << MethodName(method);
    EXPECT_GE(report.singular_blocks, 1);
    EXPECT_FALSE(report.message.empty());
    // The solve goes on and never returns NaNs.
    std::vector<double> b = {1, 1, 0}, x(3, 0.0);
    SolveReport solve;
    ASSERT_TRUE((*f)->Solve(b, x, {}, ExecContext{}, &solve).ok());
    for (double v : x) EXPECT_TRUE(std::isfinite(v));
  }
}

TEST(IterativeMethod, ConcurrentSolvesShareOneFactorization) {
  auto a = Load(TestDataPath("1138_bus.mtx"), true);
  FactorOptions options;
  options.method = Method::kBlockJacobi;
  ExecContext ctx;
  ctx.threads = 2;
  auto analysis = Analyze(*a, options, ctx);
  ASSERT_TRUE(analysis.ok());
  auto f = Factorize(a, *analysis, options, ctx);
  ASSERT_TRUE(f.ok());
  const std::vector<double> b(a->rows, 1.0);
  std::vector<std::vector<double>> x(3, std::vector<double>(a->rows, 0.0));
  std::vector<SolveReport> reports(3);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      EXPECT_TRUE((*f)->Solve(b, x[t], {}, ctx, &reports[t]).ok());
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < 3; ++t) {
    EXPECT_EQ(reports[t].status, SolveStatus::kConverged);
    EXPECT_EQ(x[t], x[0]);  // deterministic for a fixed thread count
  }
}

TEST(IterativeMethod, CancelledSolveIsCancelled) {
  auto a = Load(TestDataPath("494_bus.mtx"), true);
  FactorOptions options;
  options.method = Method::kBlockJacobi;
  auto analysis = Analyze(*a, options, ExecContext{});
  ASSERT_TRUE(analysis.ok());
  auto f = Factorize(a, *analysis, options, ExecContext{});
  ASSERT_TRUE(f.ok());
  Cancellation cancellation;
  cancellation.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancellation;
  std::vector<double> b(a->rows, 1.0), x(a->rows, 0.0);
  SolveReport report;
  EXPECT_EQ((*f)->Solve(b, x, {}, ctx, &report).code(),
            absl::StatusCode::kCancelled);
  EXPECT_EQ(Analyze(*a, options, ctx).status().code(),
            absl::StatusCode::kCancelled);
}

TEST(IterativeMethod, BadOptionsAreInvalidArgument) {
  auto a = SmallSpd(Structure::kSpdLower);
  FactorOptions options;
  options.method = Method::kBlockJacobi;
  options.max_block_size = 64;
  EXPECT_EQ(Analyze(*a, options, ExecContext{}).status().code(),
            absl::StatusCode::kInvalidArgument);
  options.max_block_size = 32;
  options.ordering = Ordering::kAmd;
  EXPECT_EQ(Analyze(*a, options, ExecContext{}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// The other matrices with values in ../shared/data/matrices: a converged
// result or a clear not_converged / breakdown status, never an error.
TEST(IterativeMethod, OtherSharedMatricesGetAStatusNotAnError) {
  if (!testing::HaveSharedData()) {
    GTEST_SKIP() << testing::SharedDataAbsent(
        "block_jacobi on the 13 other matrices with values of matrices/");
  }
  const char* kMatrices[] = {
      "hangGlider_2.mtx",    "tumorAntiAngiogenesis_2.mtx",
      "reorientation_1.mtx", "zenios.mtx",
      "west0479.mtx",        "west0497.mtx",
      "olm1000.mtx",         "nnc1374.mtx",
      "watt_2.mtx",          "rajat19.mtx",
      "bp_1200.mtx",         "ani4.mtx",
      "cryg2500.mtx"};
  ExecContext ctx;
  ctx.threads = 2;
  for (const char* name : kMatrices) {
    auto a =
        Load(testing::SharedDataPath(std::string("matrices/") + name), false);
    if (a->rows == 0) continue;  // reported by Load
    const std::vector<double> b(a->rows, 1.0);
    Outcome out =
        FactorAndSolve(a, b, Method::kBlockJacobi, Krylov::kAuto, ctx);
    std::printf(
        "[ measured ] %s (%s): factor %s, %s, %d iterations, relres "
        "%.3e %s\n",
        name, std::string(StructureName(a->structure)).c_str(),
        std::string(FactorStatusName(out.factor.status)).c_str(),
        std::string(SolveStatusName(out.solve.status)).c_str(),
        out.solve.iterations, out.solve.relative_residual,
        out.solve.message.c_str());
    for (double v : out.x) ASSERT_TRUE(std::isfinite(v)) << name;
    if (out.solve.status == SolveStatus::kConverged) {
      EXPECT_LE(out.solve.relative_residual, 1e-8) << name;
    }
  }
}

struct Acceptance {
  const char* matrix;
  const char* rhs;  // "" for all ones
  bool spd;
  Krylov krylov;
};

class AcceptanceTest : public ::testing::TestWithParam<Acceptance> {};

TEST_P(AcceptanceTest, BlockJacobiReachesTolerance) {
  const Acceptance& c = GetParam();
  auto a = Load(TestDataPath(c.matrix), c.spd);
  ASSERT_GT(a->rows, 0);
  std::vector<double> b(a->rows, 1.0);
  if (*c.rhs) {
    absl::StatusOr<std::vector<double>> read =
        ReadDenseVector(TestDataPath(c.rhs));
    ASSERT_TRUE(read.ok()) << read.status();
    b = *std::move(read);
    ASSERT_EQ(static_cast<int64_t>(b.size()), a->rows);
  }
  ExecContext ctx;
  ctx.threads = 2;
  Outcome out = FactorAndSolve(a, b, Method::kBlockJacobi, c.krylov, ctx);
  std::printf(
      "[ measured ] %s %s: %s, %d iterations, relres %.3e, "
      "blocks %lld, %s\n",
      c.matrix, std::string(KrylovName(c.krylov)).c_str(),
      std::string(SolveStatusName(out.solve.status)).c_str(),
      out.solve.iterations, out.solve.relative_residual,
      static_cast<long long>(out.factor.blocks), out.solve.message.c_str());
  EXPECT_EQ(out.solve.status, SolveStatus::kConverged) << out.solve.message;
  EXPECT_LE(out.solve.relative_residual, 1e-8);
  EXPECT_LE(out.solve.iterations, 1000);
  // The reported residual is the true one on the matrix as uploaded.
  EXPECT_DOUBLE_EQ(out.solve.relative_residual,
                   ComputeResidualNorms(*a, b, out.x).relative_residual);
}

INSTANTIATE_TEST_SUITE_P(
    Foundation, AcceptanceTest,
    ::testing::Values(Acceptance{"494_bus.mtx", "", true, Krylov::kCg},
                      Acceptance{"1138_bus.mtx", "", true, Krylov::kCg},
                      Acceptance{"bcsstk13.mtx", "", true, Krylov::kCg},
                      Acceptance{"resolve/A_spd01.mtx", "resolve/b_spd01.mtx",
                                 true, Krylov::kCg},
                      Acceptance{"resolve/A_symmetric01.mtx",
                                 "resolve/b_symmetric01.mtx", false,
                                 Krylov::kGmres},
                      Acceptance{"resolve/A_asymmetric01.mtx",
                                 "resolve/b_asymmetric01.mtx", false,
                                 Krylov::kGmres}),
    [](const auto& info) {
      std::string name = info.param.matrix;
      for (char& ch : name) {
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      }
      return name;
    });

}  // namespace
}  // namespace factord
