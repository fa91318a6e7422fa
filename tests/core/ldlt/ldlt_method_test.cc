// Method ldlt on tiny hand-built matrices with known answers: 1x1, a zero
// diagonal that needs a 2x2 pivot, [[0,1],[1,0]], delayed pivots, singular
// matrices, IPM shifts (small and large: the shifted system is solved),
// analysis reuse; then random sparse indefinite
// matrices against dense eigenvalue inertia, reference against cpu.
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "core/solver/residual.h"
#include "gtest/gtest.h"
#include "tests/core/ldlt/ldlt_test_util.h"

namespace factord {
namespace {

using testing::DenseInertia;
using testing::LowerFromDense;
using testing::RunLdlt;

std::shared_ptr<const CsrMatrix> Share(CsrMatrix a) {
  return std::make_shared<const CsrMatrix>(std::move(a));
}

void ExpectInertia(const Inertia& got, int64_t pos, int64_t neg, int64_t zero) {
  EXPECT_EQ(got.positive, pos);
  EXPECT_EQ(got.negative, neg);
  EXPECT_EQ(got.zero, zero);
}

TEST(LdltMethod, OneByOne) {
  for (double v : {4.0, -2.5}) {
    auto run = RunLdlt(Share(LowerFromDense(1, {v})), {2.0});
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_NEAR(run->x[0], 2.0 / v, 1e-15);
    ExpectInertia(run->factor.inertia, v > 0, v < 0, 0);
    EXPECT_TRUE(run->factor.inertia_reliable);
    EXPECT_EQ(run->factor.status, FactorStatus::kOk);
  }
}

TEST(LdltMethod, AntiDiagonalNeedsTwoByTwo) {
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    auto run = RunLdlt(
        Share(LowerFromDense(2, {0, 1, 1, 0}, {true, false, true, true})),
        {3.0, 5.0}, {}, backend);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_NEAR(run->x[0], 5.0, 1e-14);
    EXPECT_NEAR(run->x[1], 3.0, 1e-14);
    ExpectInertia(run->factor.inertia, 1, 1, 0);
    EXPECT_EQ(run->factor.two_by_two_pivots, 1);
    EXPECT_TRUE(run->factor.inertia_reliable);
  }
}

TEST(LdltMethod, StaticPivotingFallsBackToTwoByTwoAtTheRoot) {
  FactorOptions options;
  options.pivoting = Pivoting::kStatic;
  auto run =
      RunLdlt(Share(LowerFromDense(2, {0, 1, 1, 0}, {true, false, true, true})),
              {3.0, 5.0}, options);
  ASSERT_TRUE(run.ok()) << run.status();
  // Static pivoting takes no 2x2 in its threshold pass; the root's last
  // resort tries a 2x2 before perturbing, which is exact here.
  EXPECT_EQ(run->factor.perturbed_pivots, 0);
  EXPECT_EQ(run->factor.two_by_two_pivots, 1);
  ExpectInertia(run->factor.inertia, 1, 1, 0);
  EXPECT_TRUE(run->factor.inertia_reliable);
}

// Static pivoting takes every diagonal pivot, however small against the
// column below it: tiny pivots on a tridiagonal matrix grow the factor by
// about 1e12. The factor check must then run (as for pivots taken below
// the threshold) and no inertia it cannot vouch for is reported reliable.
TEST(LdltMethod, StaticPivotingGrowthIsChecked) {
  const int n = 40;
  std::vector<double> dense(n * n, 0.0);
  for (int i = 0; i < n; ++i) {
    dense[i * n + i] = i % 2 == 0 ? 1e-12 : 1.0;
    if (i + 1 < n) dense[i * n + i + 1] = dense[(i + 1) * n + i] = 1.0;
  }
  FactorOptions options;
  options.pivoting = Pivoting::kStatic;
  options.ordering = Ordering::kNatural;
  options.scaling = Scaling::kNone;
  CsrMatrix a = LowerFromDense(n, dense);
  const Inertia exact = testing::LapackInertia(a);
  auto run = RunLdlt(Share(std::move(a)), {}, options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->factor.perturbed_pivots, 0);
  EXPECT_FALSE(run->factor.inertia_reliable) << run->factor.message;
  EXPECT_NE(run->factor.message.find("factor residual"), std::string::npos)
      << run->factor.message;
  if (run->factor.inertia_reliable) {
    ExpectInertia(run->factor.inertia, exact.positive, exact.negative,
                  exact.zero);
  }
}

TEST(LdltMethod, ZeroDiagonalIn3x3) {
  const std::vector<double> a = {0, 2, 0,  //
                                 2, 0, 1,  //
                                 0, 1, 3};
  for (Pivoting pivoting : {Pivoting::kBunchKaufman, Pivoting::kRook}) {
    FactorOptions options;
    options.pivoting = pivoting;
    options.ordering = Ordering::kNatural;
    auto run = RunLdlt(Share(LowerFromDense(3, a)), {2, 3, 4}, options);
    ASSERT_TRUE(run.ok()) << run.status();
    ExpectInertia(run->factor.inertia, 2, 1, 0);
    EXPECT_EQ(DenseInertia(3, a).negative, 1);
    EXPECT_LE(run->solve.relative_residual, 1e-14);
  }
}

// Saddle point [[0 I], [I C]] in natural order: every zero-diagonal leaf
// front must delay its pivot to the fronts of the C block (S2 §V).
TEST(LdltMethod, SaddlePointDelaysPivots) {
  const int half = 8, n = 2 * half;
  std::vector<double> a(n * n, 0.0);
  std::vector<bool> keep(n * n, false);
  for (int i = 0; i < half; ++i) {
    keep[i * n + i] = true;  // explicit zero diagonal
    a[(half + i) * n + i] = a[i * n + half + i] = 1.0;
    keep[(half + i) * n + i] = true;
  }
  for (int i = half; i < n; ++i) {
    for (int j = half; j <= i; ++j) {
      const double v = i == j ? 4.0 : (i - j == 1 ? -1.0 : 0.0);
      a[i * n + j] = a[j * n + i] = v;
      keep[i * n + j] = v != 0;
    }
  }
  const Inertia expected = DenseInertia(n, a);
  ASSERT_EQ(expected.zero, 0);
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    FactorOptions options;
    options.ordering = Ordering::kNatural;
    auto run = RunLdlt(Share(LowerFromDense(n, a, keep)), {}, options, backend);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_GT(run->factor.delayed_pivots, 0);
    EXPECT_EQ(run->factor.perturbed_pivots, 0);
    ExpectInertia(run->factor.inertia, expected.positive, expected.negative, 0);
    EXPECT_TRUE(run->factor.inertia_reliable);
    EXPECT_LE(run->solve.relative_residual, 1e-13);
  }
}

TEST(LdltMethod, SingularIsReportedPerturbed) {
  // Rank one: [[1 1], [1 1]], and a structurally zero row.
  for (const CsrMatrix& a : {LowerFromDense(2, {1, 1, 1, 1}),
                             LowerFromDense(3, {2, 0, 0, 0, 0, 0, 0, 0, 1},
                                            {true, false, false, false, true,
                                             false, false, false, true})}) {
    // b outside the range: no x can converge.
    std::vector<double> b(a.rows);
    for (int64_t i = 0; i < a.rows; ++i) b[i] = i % 2 ? -1.0 : 1.0;
    auto run = RunLdlt(Share(a), b);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_EQ(run->factor.status, FactorStatus::kPerturbed);
    EXPECT_FALSE(run->factor.inertia_reliable);
    EXPECT_GE(run->factor.inertia.zero, 1);
    EXPECT_NE(run->solve.status, SolveStatus::kConverged);
  }
}

TEST(LdltMethod, ShiftsChangeTheFactorizedMatrix) {
  // diag(-1, 1) + shifts (3 on the first, -2 on the rest): diag(2, -1).
  auto a = Share(LowerFromDense(2, {-1, 0, 0, 1}, {true, false, false, true}));
  FactorOptions options;
  options.shift_first = 3.0;
  options.shift_rest = -2.0;
  options.shift_count = 1;
  auto run = RunLdlt(a, {1, 1}, options);
  ASSERT_TRUE(run.ok()) << run.status();
  ExpectInertia(run->factor.inertia, 1, 1, 0);
  // The solution is that of the system factorized, diag(2, -1).
  EXPECT_NEAR(run->x[0], 0.5, 1e-15);
  EXPECT_NEAR(run->x[1], -1.0, 1e-15);
  // Small shifts too: diag(-1 + 1e-4, 1 - 1e-4), not diag(-1, 1).
  options.shift_first = 1e-4;
  options.shift_rest = -1e-4;
  run = RunLdlt(a, {1, 1}, options);
  ASSERT_TRUE(run.ok()) << run.status();
  ExpectInertia(run->factor.inertia, 1, 1, 0);
  EXPECT_NEAR(run->x[0], 1 / (-1 + 1e-4), 1e-15);
  EXPECT_NEAR(run->x[1], 1 / (1 - 1e-4), 1e-15);
}

// A KKT matrix [H A^T; A 0] with an indefinite H (what Ipopt corrects by
// delta_w) and no stored (2,2) diagonal: the rows of H get delta_w = 1e4
// and the constraint rows -delta_c = -1e-8 (on diagonals the pattern lacks).
// The solve must solve that shifted system: its residual on A + shifts is
// the one reported, at the tolerance, and x is the solution of a
// factorization of the same values with the shifts added to the matrix
// itself. Refinement on the unshifted matrix ends with neither system
// solved.
TEST(LdltMethod, LargeShiftIsSolvedOnTheShiftedSystem) {
  const int primal = 24, dual = 8, n = primal + dual;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> dense(n * n, 0.0);
  std::vector<bool> keep(n * n, false);
  auto set = [&](int i, int j, double v) {
    dense[i * n + j] = dense[j * n + i] = v;
    keep[i * n + j] = keep[j * n + i] = true;
  };
  for (int i = 0; i < primal; ++i) {
    set(i, i, (i % 2 ? -1 : 1) * (1 + value(rng)));  // indefinite H
    for (int j = 0; j < i; ++j) {
      if (rng() % 6 == 0) set(i, j, value(rng));
    }
  }
  for (int c = 0; c < dual; ++c) {
    for (int j = 0; j < primal; ++j) {
      if (j % dual == c || rng() % 5 == 0) set(primal + c, j, value(rng));
    }
  }
  auto a = Share(LowerFromDense(n, dense, keep));
  std::vector<double> b(n);
  for (double& v : b) v = value(rng);

  FactorOptions options;
  options.shift_first = 1e4;
  options.shift_count = primal;
  options.shift_rest = -1e-8;
  auto run = RunLdlt(a, b, options);
  ASSERT_TRUE(run.ok()) << run.status();
  ExpectInertia(run->factor.inertia, primal, dual, 0);
  EXPECT_EQ(run->solve.status, SolveStatus::kConverged);
  const std::vector<double> shift = options.ShiftVector(n);
  const ResidualNorms shifted = ComputeResidualNorms(*a, shift, b, run->x);
  EXPECT_EQ(run->solve.relative_residual, shifted.relative_residual);
  EXPECT_EQ(run->solve.backward_error, shifted.backward_error);
  EXPECT_LE(shifted.relative_residual, 1e-10);

  // The same system with the shifts in the values (the missing diagonal
  // entries stored).
  for (int i = 0; i < n; ++i) {
    dense[i * n + i] += shift[i];
    keep[i * n + i] = true;
  }
  auto in_values = RunLdlt(Share(LowerFromDense(n, dense, keep)), b);
  ASSERT_TRUE(in_values.ok()) << in_values.status();
  double scale = 0;
  for (double v : in_values->x) scale = std::max(scale, std::abs(v));
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(run->x[i], in_values->x[i], 1e-10 * scale) << i;
  }

  // The same shifts as a per-entry diagonal give the same solution.
  FactorOptions per_entry;
  per_entry.diagonal_shift = shift;
  auto diagonal = RunLdlt(a, b, per_entry);
  ASSERT_TRUE(diagonal.ok()) << diagonal.status();
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(diagonal->x[i], in_values->x[i], 1e-10 * scale) << i;
  }
}

TEST(LdltMethod, MissingDiagonalTakesTheShift) {
  // [[., 1], [1, .]] without stored diagonal entries; shift 2 on both:
  // [[2, 1], [1, 2]], positive definite.
  auto a = Share(LowerFromDense(2, {0, 1, 1, 0}, {false, false, true, false}));
  FactorOptions options;
  options.shift_first = options.shift_rest = 2.0;
  auto run = RunLdlt(a, {1, 1}, options);
  ASSERT_TRUE(run.ok()) << run.status();
  ExpectInertia(run->factor.inertia, 2, 0, 0);
  options.shift_first = options.shift_rest = 0.0;
  run = RunLdlt(a, {1, 2}, options);
  ASSERT_TRUE(run.ok()) << run.status();
  ExpectInertia(run->factor.inertia, 1, 1, 0);
  EXPECT_NEAR(run->x[0], 2.0, 1e-14);
  EXPECT_NEAR(run->x[1], 1.0, 1e-14);
}

TEST(LdltMethod, EmptyMatrix) {
  CsrMatrix a;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr = {0};
  auto run = RunLdlt(Share(a), {});
  ASSERT_TRUE(run.ok()) << run.status();
  ExpectInertia(run->factor.inertia, 0, 0, 0);
}

TEST(LdltMethod, CancelledFactorizationUnwinds) {
  auto a = Share(LowerFromDense(3, {4, 1, 0, 1, -3, 1, 0, 1, 2}));
  FactorOptions options;
  options.method = Method::kLdlt;
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    ExecContext ctx;
    ctx.backend = backend;
    auto analysis = Analyze(*a, options, ctx);
    ASSERT_TRUE(analysis.ok());
    Cancellation cancellation;
    cancellation.Cancel();
    ctx.cancellation = &cancellation;
    auto f = Factorize(a, *analysis, options, ctx);
    EXPECT_EQ(f.status().code(), absl::StatusCode::kCancelled);
  }
}

TEST(LdltMethod, RejectsGeneralMatrices) {
  CsrMatrix a = LowerFromDense(1, {1.0});
  a.structure = Structure::kGeneral;
  FactorOptions options;
  options.method = Method::kLdlt;
  EXPECT_FALSE(Analyze(a, options, ExecContext()).ok());
}

TEST(LdltMethod, AnalysisIsReusedForNewValues) {
  auto a = Share(LowerFromDense(3, {4, 1, 0, 1, -3, 1, 0, 1, 2}));
  FactorOptions options;
  options.method = Method::kLdlt;
  ExecContext ctx;
  auto analysis = Analyze(*a, options, ctx);
  ASSERT_TRUE(analysis.ok());
  EXPECT_GT((*analysis)->factor_bytes_estimate(), 0);
  CsrMatrix b = *a;
  for (double& v : b.values) v = -v;
  auto f = Factorize(Share(b), *analysis, options, ctx);
  ASSERT_TRUE(f.ok());
  ExpectInertia((*f)->report().inertia, 1, 2, 0);
}

// Random sparse symmetric indefinite matrices with zero diagonals planted:
// inertia against dense eigenvalues, residual, reference against cpu.
TEST(LdltMethod, RandomIndefiniteMatchesDenseInertiaOnBothBackends) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-1, 1);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 20 + 7 * trial;
    std::vector<double> a(n * n, 0.0);
    for (int i = 0; i < n; ++i) {
      a[i * n + i] = (i % 3 == 0) ? 0.0 : 2 * value(rng);
      for (int j = 0; j < i; ++j) {
        if (rng() % 8 == 0) a[i * n + j] = a[j * n + i] = value(rng);
      }
    }
    std::vector<bool> keep(n * n);
    for (int k = 0; k < n * n; ++k) keep[k] = a[k] != 0 || k % (n + 1) == 0;
    const Inertia expected = DenseInertia(n, a, 1e-9);
    if (expected.zero != 0) continue;
    auto shared = Share(LowerFromDense(n, a, keep));
    FactorOptions options;
    options.ordering = trial % 2 ? Ordering::kMetis : Ordering::kAmd;
    auto ref = RunLdlt(shared, {}, options, Backend::kReference, 1);
    auto cpu = RunLdlt(shared, {}, options, Backend::kCpu, 2);
    ASSERT_TRUE(ref.ok() && cpu.ok());
    for (const auto* run : {&*ref, &*cpu}) {
      ExpectInertia(run->factor.inertia, expected.positive, expected.negative,
                    0);
      EXPECT_TRUE(run->factor.inertia_reliable);
      EXPECT_LE(run->solve.relative_residual, 1e-12) << "trial " << trial;
    }
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(ref->x[i], cpu->x[i], 1e-9 * (1 + std::abs(ref->x[i])));
    }
  }
}

}  // namespace
}  // namespace factord
