// Method ldlt on a KKT matrix whose fronts delay thousands of pivots
// (tests/data/kkt/cont050_ipopt/K_0011.mtx.gz: Ipopt's iteration 11 on the
// Maros-Meszaros QP CONT-050, n = 4998). With AMD and Ruiz scaling about
// 5000 pivots are delayed, many of them through several fronts up to the
// root. Inertia (+2597, -2401, 0) from dense eigenvalues (smallest
// |lambda| 1.4e-3, largest 8: not near singular). Weak pivots taken
// again and again on the columns they grew used to compound the growth up
// the chain of fronts (|S| ~ 1e15 max|S A S|): inertia (+2595, -2403)
// reported reliable and a residual of 27.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/dense/pivot_params.h"
#include "core/ldlt/kernels/ldlt_kernels.h"
#include "core/ldlt/ldlt_factor_check.h"
#include "core/ldlt/ldlt_symbolic.h"
#include "core/matrix/matrix_market.h"
#include "core/order/amd.h"
#include "gtest/gtest.h"
#include "test_data.h"
#include "tests/core/block_ildlt/block_ildlt_planted.h"
#include "tests/core/ldlt/ldlt_test_util.h"

namespace factord {
namespace {

using testing::RunLdlt;

std::shared_ptr<const CsrMatrix> Cont050() {
  auto a = ReadMatrixMarket(
      testing::TestDataPath("kkt/cont050_ipopt/K_0011.mtx.gz"));
  EXPECT_TRUE(a.ok()) << a.status();
  if (!a.ok()) return nullptr;
  return std::make_shared<const CsrMatrix>(*std::move(a));
}

void ExpectExact(const testing::LdltRun& run, const char* what) {
  const FactorReport& f = run.factor;
  EXPECT_EQ(f.status, FactorStatus::kOk) << what;
  EXPECT_TRUE(f.inertia_reliable) << what;
  EXPECT_EQ(f.inertia.positive, 2597) << what;
  EXPECT_EQ(f.inertia.negative, 2401) << what;
  EXPECT_EQ(f.inertia.zero, 0) << what;
  EXPECT_GT(f.delayed_pivots, 1000) << what << ": the data no longer delays";
  EXPECT_LE(run.solve.relative_residual, 1e-10) << what;
  EXPECT_EQ(run.solve.status, SolveStatus::kConverged) << what;
}

// Both backends, each exact. Their pivot sequences are not bit for bit
// the same here: with thousands of delays the dgemm and the plain-loop
// Schur updates round differently and tip a few threshold tests
// (core/ldlt/kernels/ldlt_kernels.h), 5241 against 5243 delays.
TEST(LdltDelayedPivots, Cont050DefaultOptionsOnBothBackends) {
  auto a = Cont050();
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->rows, 4998);
  auto ref = RunLdlt(a, {}, {}, Backend::kReference, 1);
  auto cpu = RunLdlt(a, {}, {}, Backend::kCpu, 2);
  ASSERT_TRUE(ref.ok()) << ref.status();
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  ExpectExact(*ref, "reference");
  ExpectExact(*cpu, "cpu");
  // A second factorization on the same backend gives the same bits.
  auto again = RunLdlt(a, {}, {}, Backend::kCpu, 2);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->x, cpu->x);
  EXPECT_EQ(again->factor.delayed_pivots, cpu->factor.delayed_pivots);
}

// The factor check (ldlt_factor_check.h) on the front tree itself: without
// the bound on weak pivots' updates the factor has lost every digit and
// the check says so; with the bound ldlt uses it is far below the
// tolerance.
TEST(LdltDelayedPivots, FactorCheckSeesTheCompoundedGrowth) {
  auto a = Cont050();
  ASSERT_NE(a, nullptr);
  auto perm = AmdOrdering(*a);
  ASSERT_TRUE(perm.ok());
  auto sym = internal::BuildLdltSymbolic(*a, *perm);
  ASSERT_TRUE(sym.ok());
  std::vector<double> values(sym->col_rows.size());
  double max_abs = 0;
  for (size_t e = 0; e < values.size(); ++e) {
    values[e] = sym->col_src[e] >= 0 ? a->values[sym->col_src[e]] : 0.0;
    max_abs = std::max(max_abs, std::abs(values[e]));
  }
  ExecContext ctx;
  ctx.backend = Backend::kReference;
  double residual[2];
  for (int bounded = 0; bounded < 2; ++bounded) {
    kernels::DenseLdltParams params =
        internal::DensePivotParams(Pivoting::kBunchKaufman, 0.01, max_abs);
    if (bounded) params.max_weak_update = 1e9 * max_abs;
    internal::FrontFactors factors;
    std::vector<internal::FrontCounts> counts;
    ASSERT_TRUE(kernels::reference::FactorizeFrontTree(
                    ctx, *sym, values, params, &factors, &counts)
                    .ok());
    residual[bounded] =
        internal::LdltFactorResidual(*sym, values, factors.fronts);
  }
  EXPECT_GT(residual[0], 1e-5);
  EXPECT_LT(residual[1], 1e-5);  // kMaxFactorResidual (1.2e-6 here, unscaled)
}

// The check on a factor that is right (a 3x3 needing a 2x2 pivot), and on
// one with a wrong D entry.
TEST(LdltDelayedPivots, FactorCheckIsRoundoffOnAnExactFactor) {
  CsrMatrix a;
  a.rows = a.cols = 3;
  a.structure = Structure::kSymmetricLower;
  // [0 1 0; 1 0 2; 0 2 1]: needs a 2x2 pivot.
  a.row_ptr = {0, 1, 3, 5};
  a.col_idx = {0, 0, 1, 1, 2};
  a.values = {0.0, 1.0, 0.0, 2.0, 1.0};
  auto perm = AmdOrdering(a);
  ASSERT_TRUE(perm.ok());
  auto sym = internal::BuildLdltSymbolic(a, *perm);
  ASSERT_TRUE(sym.ok());
  std::vector<double> values(sym->col_rows.size());
  for (size_t e = 0; e < values.size(); ++e) {
    values[e] = sym->col_src[e] >= 0 ? a.values[sym->col_src[e]] : 0.0;
  }
  ExecContext ctx;
  ctx.backend = Backend::kReference;
  internal::FrontFactors factors;
  std::vector<internal::FrontCounts> counts;
  ASSERT_TRUE(kernels::reference::FactorizeFrontTree(
                  ctx, *sym, values,
                  internal::DensePivotParams(Pivoting::kBunchKaufman, 0.01, 2),
                  &factors, &counts)
                  .ok());
  EXPECT_LT(internal::LdltFactorResidual(*sym, values, factors.fronts), 1e-15);
  // A wrong D entry is seen.
  factors.fronts.back().d_diag[0] *= 1.5;
  EXPECT_GT(internal::LdltFactorResidual(*sym, values, factors.fronts), 1e-3);
}

// Pivot growth the factor check sees with no pivot perturbed: status ok,
// inertia not reliable. The planted system of
// tests/pardiso/pardiso_numerics_test.c (which explains its parts; also
// tests/python/matrices.py): two pairs of weak pivots +-1/9.9e8 leave, at
// their parent, a pivot of about 2e7 beside couplings of about 2e9, and
// two threshold pivots with |l| near 1/u = 100 follow. At u = 0.1 the
// factor is trusted.
CsrMatrix PlantedGrowth() {
  using testing::Entry;
  std::vector<Entry> e;
  auto add = [&](int i, int j, double v) {
    e.push_back({std::max(i, j), std::min(i, j), v});
  };
  const int clique = 30, r = 30, z = 31;
  for (int i = 0; i < clique; ++i) {
    add(i, i, 1.0);
    for (int j = 0; j < i; ++j) add(i, j, 0.01);
  }
  add(r, r, 1.0);
  for (int i = 0; i < 20; ++i) add(r, i, 0.0);
  add(z, z, 1.0);
  add(z, r, 0.5);
  for (int i = 10; i < 17; ++i) add(z, i, 0.0);
  for (int g = 0; g < 2; ++g) {
    const double sign = g == 0 ? 1 : -1, d = g == 0 ? 2e7 : 2.06e7;
    const double inv1 = 9.9e8, inv2 = inv1 - d;
    const int x1 = z + 1 + 4 * g, x2 = x1 + 1, y = x1 + 2, q = x1 + 3;
    add(x1, x1, sign / inv1);
    add(x2, x2, -sign / inv2);
    add(y, y, 1.0);
    add(q, q, 0.0);
    add(q, x1, 1.0);
    add(r, x1, 1.0);
    add(0, x1, sign);
    add(q, x2, 1.0);
    add(r, x2, -1.0);
    add(0, x2, -sign);
    add(q, y, 0.5);
    for (int i = 20 + 3 * g; i < 23 + 3 * g; ++i) add(y, i, 0.0);
    add(q, r, 0.0);
    for (int i = 1 + 3 * g; i < 4 + 3 * g; ++i) add(q, i, 0.0);
  }
  return testing::LowerFromEntries(40, e);
}

TEST(LdltDelayedPivots, PlantedGrowthIsUnreliableWithStatusOk) {
  auto a = std::make_shared<const CsrMatrix>(PlantedGrowth());
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    auto run = RunLdlt(a, {}, {}, backend);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_EQ(run->factor.status, FactorStatus::kOk);
    EXPECT_EQ(run->factor.perturbed_pivots, 0);
    EXPECT_FALSE(run->factor.inertia_reliable);
    EXPECT_NE(run->factor.message.find("inertia unreliable"), std::string::npos)
        << run->factor.message;
    FactorOptions careful;
    careful.pivot_threshold = 0.1;
    auto trusted = RunLdlt(a, {}, careful, backend);
    ASSERT_TRUE(trusted.ok()) << trusted.status();
    EXPECT_TRUE(trusted->factor.inertia_reliable);
    EXPECT_EQ(trusted->factor.inertia.positive, 36);
    EXPECT_EQ(trusted->factor.inertia.negative, 4);
    EXPECT_EQ(trusted->factor.inertia.zero, 0);
    EXPECT_EQ(trusted->solve.status, SolveStatus::kConverged);
  }
}

TEST(LdltDelayedPivots, Cont050OtherPivotingAndScaling) {
  auto a = Cont050();
  ASSERT_NE(a, nullptr);
  FactorOptions rook;
  rook.pivoting = Pivoting::kRook;
  FactorOptions unscaled;
  unscaled.scaling = Scaling::kNone;
  for (const FactorOptions& options : {rook, unscaled}) {
    auto run = RunLdlt(a, {}, options, Backend::kCpu, 2);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_TRUE(run->factor.inertia_reliable);
    EXPECT_EQ(run->factor.inertia.positive, 2597);
    EXPECT_EQ(run->factor.inertia.negative, 2401);
    EXPECT_LE(run->solve.relative_residual, 1e-10);
  }
}

}  // namespace
}  // namespace factord
