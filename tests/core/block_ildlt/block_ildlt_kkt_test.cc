// block_ildlt with its defaults on every KKT system of ../shared/data/kkt
// (2x2 and 3x3 forms, every iteration, with rhs_k.rhs): the criterion is a
// relative residual <= 1e-8 on the measured number of them less a small
// margin. Prints one `[ measured ]` line per system and the failures with
// their reason.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/base/timer.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

namespace fs = std::filesystem;

using KktFile = testing::KktSystem;

// Every KKT system of the shared set (2x2 and 3x3 forms).
constexpr int kKktSystems = 88;
// Systems at relative residual <= 1e-8 with the defaults, measured with one
// thread (ExecContext's default): 84 of 88. The four misses (cvxqp2_m
// iter_10 and mosarqp1 iter_5, 2x2 and 3x3) stop at SQMR's 1000-iteration
// limit with residuals 1e-4 to 8; every system counted converges within
// 200 iterations, so the count does not hinge on rounding. kMargin absorbs
// a compiler or library change moving one system across the line; losing
// more fails the test.
constexpr int kConvergedMeasured = 84;
constexpr int kMargin = 1;

TEST(BlockIldltKkt, DefaultsSolveTheMeasuredCount) {
  // Skipped only without the shared set: with it, no file found is a
  // failure (total != kKktSystems below).
  const std::vector<KktFile> files = testing::KktSystems();
  if (!testing::HaveSharedData()) {
    GTEST_SKIP() << testing::SharedDataAbsent(
        "block_ildlt with its defaults on every KKT system of kkt/");
  }
  FactorOptions options;
  options.method = Method::kBlockIldlt;
  SolveOptions solve_options;  // tolerance 1e-8, 1000 iterations, SQMR
  ExecContext ctx;
  int converged = 0, total = 0;
  std::vector<std::string> failures;
  Timer all;
  for (const KktFile& file : files) {
    auto a = ReadMatrixMarket(file.matrix);
    ASSERT_TRUE(a.ok()) << file.name << ": " << a.status();
    auto b = ReadDenseVector(file.rhs);
    ASSERT_TRUE(b.ok()) << file.name << ": " << b.status();
    ASSERT_EQ(static_cast<int64_t>(b->size()), a->rows) << file.name;
    auto shared = std::make_shared<const CsrMatrix>(*std::move(a));
    Timer timer;
    auto analysis = Analyze(*shared, options, ctx);
    ASSERT_TRUE(analysis.ok()) << file.name << ": " << analysis.status();
    auto factorization = Factorize(shared, *analysis, options, ctx);
    ASSERT_TRUE(factorization.ok())
        << file.name << ": " << factorization.status();
    std::vector<double> x(shared->rows, 0.0);
    SolveReport solve;
    ASSERT_TRUE(
        (*factorization)->Solve(*b, x, solve_options, ctx, &solve).ok());
    const FactorReport& f = (*factorization)->report();
    const bool ok = solve.relative_residual <= 1e-8;
    ++total;
    converged += ok;
    std::printf(
        "[ measured ] %-26s n=%6lld nnzA=%7lld nnzL=%8lld blocks=%6lld "
        "pert=%4lld 2x2=%4lld its=%4d relres=%8.1e %s %.2fs\n",
        file.name.c_str(), static_cast<long long>(shared->rows),
        static_cast<long long>(shared->nnz()),
        static_cast<long long>(f.nnz_factor), static_cast<long long>(f.blocks),
        static_cast<long long>(f.perturbed_pivots),
        static_cast<long long>(f.two_by_two_pivots), solve.iterations,
        solve.relative_residual, ok ? "ok  " : "FAIL", timer.Seconds());
    if (!ok) {
      failures.push_back(file.name + ": " +
                         std::string(SolveStatusName(solve.status)) + " " +
                         solve.message);
    }
  }
  std::printf(
      "[ measured ] block_ildlt defaults: %d of %d KKT systems at "
      "relres <= 1e-8 (%.0f%%), %.1fs\n",
      converged, total, 100.0 * converged / total, all.Seconds());
  for (const std::string& f : failures) {
    std::printf("[ measured ] failure %s\n", f.c_str());
  }
  EXPECT_EQ(total, kKktSystems)
      << "the shared set changed: measure the count again";
  EXPECT_GE(converged, kConvergedMeasured - kMargin)
      << converged << " of " << total << " systems at relres <= 1e-8, measured "
      << kConvergedMeasured;
}

}  // namespace
}  // namespace factord
