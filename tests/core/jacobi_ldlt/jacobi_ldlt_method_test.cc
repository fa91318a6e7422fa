// Method jacobi_ldlt through the facade: end-to-end SQMR solves to 1e-8 on
// 494_bus and on KKT systems, sweep errors in the report, option checks,
// cancellation.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "core/solver/residual.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

FactorOptions JacobiLdlt() {
  FactorOptions options;
  options.method = Method::kJacobiLdlt;
  return options;
}

struct MethodRun {
  FactorReport factor;
  SolveReport solve;
};

MethodRun FactorAndSolve(const std::string& matrix_path,
                         const FactorOptions& options,
                         const std::string& rhs_path = "") {
  MethodRun run;
  auto read = ReadMatrixMarket(matrix_path);
  EXPECT_TRUE(read.ok()) << read.status();
  if (!read.ok()) return run;
  auto a = std::make_shared<const CsrMatrix>(*std::move(read));
  std::vector<double> b(a->rows, 1.0);
  if (!rhs_path.empty()) {
    auto rhs = ReadDenseVector(rhs_path);
    EXPECT_TRUE(rhs.ok()) << rhs.status();
    if (rhs.ok()) b = *rhs;
  }
  ExecContext ctx;
  ctx.threads = 2;
  auto analysis = Analyze(*a, options, ctx);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return run;
  auto factorization = Factorize(a, *analysis, options, ctx);
  EXPECT_TRUE(factorization.ok()) << factorization.status();
  if (!factorization.ok()) return run;
  run.factor = (*factorization)->report();
  std::vector<double> x(a->rows, 0.0);
  SolveOptions solve_options;  // 1e-8, SQMR
  solve_options.max_iterations = 2000;
  EXPECT_TRUE(
      (*factorization)->Solve(b, x, solve_options, ctx, &run.solve).ok());
  std::printf(
      "[ measured ] %s: sweep errors %zu, last %.3e, its %d, relres "
      "%.2e, perturbed %lld\n",
      matrix_path.c_str(), run.factor.sweep_errors.size(),
      run.factor.sweep_errors.empty() ? 0.0 : run.factor.sweep_errors.back(),
      run.solve.iterations, run.solve.relative_residual,
      static_cast<long long>(run.factor.perturbed_pivots));
  return run;
}

TEST(JacobiLdltMethod, Solves494BusToTolerance) {
  const MethodRun run =
      FactorAndSolve(testing::TestDataPath("494_bus.mtx"), JacobiLdlt());
  EXPECT_EQ(run.factor.sweep_errors.size(), 8u);
  EXPECT_FALSE(run.factor.inertia_reliable);
  EXPECT_EQ(run.factor.inertia.positive + run.factor.inertia.negative +
                run.factor.inertia.zero,
            494);
  EXPECT_EQ(run.solve.status, SolveStatus::kConverged) << run.solve.message;
  EXPECT_LE(run.solve.relative_residual, 1e-8);
}

// With the default options (epsilon 0.1, delta 0.95, 8 sweeps), as the
// service runs jacobi_ldlt when a request sets none: measured 24 and 160
// SQMR iterations to 1e-8.
TEST(JacobiLdltMethod, SolvesKktSystemsToTolerance) {
  for (const char* name : {"kkt/cvxqp1_s/2x2/iter_0/K_0.mtx",
                           "kkt/qpcblend/2x2/iter_10/K_10.mtx"}) {
    const std::string path = testing::TestDataPath(name);
    std::string rhs = path;
    rhs.replace(rhs.rfind("K_"), 2, "rhs_");
    rhs.replace(rhs.rfind(".mtx"), 4, ".rhs");
    const MethodRun run = FactorAndSolve(path, JacobiLdlt(), rhs);
    EXPECT_EQ(run.solve.status, SolveStatus::kConverged)
        << name << ": " << run.solve.message;
    EXPECT_LE(run.solve.relative_residual, 1e-8) << name;
  }
}

// IPM shifts change the system: 494_bus plus its largest entry on the
// diagonal is solved (the residual reported is that system's), not 494_bus.
TEST(JacobiLdltMethod, ShiftsAreSolvedOnTheShiftedSystem) {
  auto read = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(read.ok()) << read.status();
  auto a = std::make_shared<const CsrMatrix>(*std::move(read));
  double largest = 0;
  for (double v : a->values) largest = std::max(largest, std::abs(v));
  FactorOptions options = JacobiLdlt();
  options.shift_first = options.shift_rest = largest;
  ExecContext ctx;
  auto analysis = Analyze(*a, options, ctx);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  auto factorization = Factorize(a, *analysis, options, ctx);
  ASSERT_TRUE(factorization.ok()) << factorization.status();
  const std::vector<double> b(a->rows, 1.0);
  std::vector<double> x(a->rows, 0.0);
  SolveReport report;
  ASSERT_TRUE((*factorization)->Solve(b, x, {}, ctx, &report).ok());
  EXPECT_EQ(report.status, SolveStatus::kConverged) << report.message;
  const std::vector<double> shift = options.ShiftVector(a->rows);
  const ResidualNorms shifted = ComputeResidualNorms(*a, shift, b, x);
  EXPECT_EQ(report.relative_residual, shifted.relative_residual);
  EXPECT_LE(shifted.relative_residual, SolveOptions{}.tolerance);
  EXPECT_GT(ComputeResidualNorms(*a, b, x).relative_residual, 1e-2);
}

TEST(JacobiLdltMethod, RejectsBadOptions) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok());
  for (int which = 0; which < 3; ++which) {
    FactorOptions options = JacobiLdlt();
    if (which == 0) options.sweeps = 0;
    if (which == 1) options.epsilon = -1;
    if (which == 2) options.delta = 1.5;
    EXPECT_EQ(Analyze(*a, options, ExecContext()).status().code(),
              absl::StatusCode::kInvalidArgument)
        << which;
  }
}

TEST(JacobiLdltMethod, FactorizeHonoursCancellation) {
  auto read = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(read.ok());
  auto a = std::make_shared<const CsrMatrix>(*std::move(read));
  auto analysis = Analyze(*a, JacobiLdlt(), ExecContext());
  ASSERT_TRUE(analysis.ok());
  Cancellation cancel;
  cancel.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancel;
  EXPECT_EQ(Factorize(a, *analysis, JacobiLdlt(), ctx).status().code(),
            absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace factord
