// Method ldlt with Scaling::kMatching imposes the matching's 2x2 candidates
// at analysis (S1 §II, Duff & Pralet's compressed ordering): each pair is
// consecutive in the analysis's permutation and inside one front; the
// pairs come from the values given to Analyze and are reused unchanged by
// factorizations of new values; residual and inertia hold on saddle-point
// systems, synthetic and from tests/data/kkt (and ../shared/data/kkt).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/ldlt/ldlt_analysis.h"
#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"
#include "tests/core/ldlt/ldlt_test_util.h"

namespace factord {
namespace {

using internal::LdltAnalysis;
using testing::DenseInertia;
using testing::LowerFromDense;

// [H B^T; B 0] (row-major dense, n1 + n2): H diagonal with magnitudes
// 10^(shift + i % 7 - 3), B with a full-rank diagonal part and random
// entries; the zero diagonal forces 2x2 (or delayed) pivots.
std::vector<double> SaddleDense(int n1, int n2, int shift, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  const int n = n1 + n2;
  std::vector<double> a(n * n, 0.0);
  for (int i = 0; i < n1; ++i) {
    a[i * n + i] = -std::pow(10.0, (i + shift) % 7 - 3.0);
  }
  for (int i = n1; i < n; ++i) {
    a[i * n + (i - n1)] = a[(i - n1) * n + i] = 1 + value(rng);
    for (int j = 0; j < n1; ++j) {
      if (rng() % 5 == 0) a[i * n + j] = a[j * n + i] = value(rng);
    }
  }
  return a;
}

std::shared_ptr<const LdltAnalysis> AnalyzeLdlt(const CsrMatrix& a,
                                                FactorOptions options) {
  options.method = Method::kLdlt;
  auto analysis = Analyze(a, options, ExecContext{});
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return nullptr;
  return std::dynamic_pointer_cast<const LdltAnalysis>(*analysis);
}

// Every imposed pair (i, j) at positions k, k + 1 of the permutation and
// in one front.
void ExpectPairsInOneFront(const LdltAnalysis& analysis,
                           const std::string& name) {
  const internal::LdltSymbolic& sym = analysis.symbolic();
  std::vector<int32_t> front_of(sym.n);
  for (int64_t f = 0; f < sym.num_fronts(); ++f) {
    for (int32_t c = sym.front_begin[f]; c < sym.front_begin[f + 1]; ++c) {
      front_of[c] = f;
    }
  }
  for (auto [i, j] : analysis.pairs()) {
    const int32_t ci = sym.inverse[i], cj = sym.inverse[j];
    EXPECT_EQ(cj, ci + 1) << name << ": pair (" << i << ", " << j << ")";
    EXPECT_EQ(front_of[ci], front_of[cj])
        << name << ": pair (" << i << ", " << j << ") split across fronts";
  }
  EXPECT_EQ(sym.pair_first.size(), analysis.pairs().size()) << name;
}

TEST(LdltMatchingPairs, PairsAreConsecutiveInOneFront) {
  for (int trial = 0; trial < 6; ++trial) {
    const int n1 = 40 + 10 * trial, n2 = 15 + 4 * trial, n = n1 + n2;
    const std::vector<double> dense = SaddleDense(n1, n2, trial, 7 + trial);
    std::vector<bool> keep(n * n);
    for (int k = 0; k < n * n; ++k) keep[k] = dense[k] != 0 || k % (n + 1) == 0;
    const CsrMatrix a = LowerFromDense(n, dense, keep);
    for (Ordering o : {Ordering::kAmd, Ordering::kMetis, Ordering::kNatural}) {
      FactorOptions options;
      options.scaling = Scaling::kMatching;
      options.ordering = o;
      auto analysis = AnalyzeLdlt(a, options);
      ASSERT_NE(analysis, nullptr);
      // The zero (2,2) block has no diagonal to match: n2 pairs at least
      // unless the matching closes longer cycles through B.
      EXPECT_GT(analysis->pairs().size(), 0u) << "trial " << trial;
      ExpectPairsInOneFront(*analysis, "trial " + std::to_string(trial));
      // Off: the plain ordering, no pairs.
      options.impose_matching_pairs = false;
      auto plain = AnalyzeLdlt(a, options);
      ASSERT_NE(plain, nullptr);
      EXPECT_TRUE(plain->pairs().empty());
      EXPECT_TRUE(plain->symbolic().pair_first.empty());
    }
  }
}

TEST(LdltMatchingPairs, RuizAndPatternOnlyAnalysesImposeNothing) {
  const int n1 = 30, n2 = 12, n = n1 + n2;
  const std::vector<double> dense = SaddleDense(n1, n2, 0, 3);
  std::vector<bool> keep(n * n);
  for (int k = 0; k < n * n; ++k) keep[k] = dense[k] != 0 || k % (n + 1) == 0;
  CsrMatrix a = LowerFromDense(n, dense, keep);
  FactorOptions options;
  options.scaling = Scaling::kRuiz;
  auto ruiz = AnalyzeLdlt(a, options);
  ASSERT_NE(ruiz, nullptr);
  EXPECT_TRUE(ruiz->pairs().empty());
  options.scaling = Scaling::kMatching;
  a.values.clear();  // a pattern-only analysis: nothing to match
  auto pattern_only = AnalyzeLdlt(a, options);
  ASSERT_NE(pattern_only, nullptr);
  EXPECT_TRUE(pattern_only->pairs().empty());
  EXPECT_EQ(ruiz->symbolic().perm, pattern_only->symbolic().perm);
}

TEST(LdltMatchingPairs, AnalysisPairsAreReusedWithNewValues) {
  const int n1 = 60, n2 = 25, n = n1 + n2;
  const std::vector<double> first = SaddleDense(n1, n2, 0, 11);
  std::vector<double> second = SaddleDense(n1, n2, 3, 11);  // same pattern
  std::vector<bool> keep(n * n);
  for (int k = 0; k < n * n; ++k) keep[k] = first[k] != 0 || k % (n + 1) == 0;
  auto a1 = std::make_shared<const CsrMatrix>(LowerFromDense(n, first, keep));
  auto a2 = std::make_shared<const CsrMatrix>(LowerFromDense(n, second, keep));
  ASSERT_EQ(a1->col_idx, a2->col_idx);
  FactorOptions options;
  options.method = Method::kLdlt;
  options.scaling = Scaling::kMatching;
  auto analysis = AnalyzeLdlt(*a1, options);
  auto fresh = AnalyzeLdlt(*a2, options);
  ASSERT_NE(analysis, nullptr);
  ASSERT_NE(fresh, nullptr);
  const auto pairs = analysis->pairs();
  const std::vector<int32_t> perm = analysis->symbolic().perm;
  // The second values match differently, so a recomputed analysis would
  // show here.
  ASSERT_NE(pairs, fresh->pairs());

  const Inertia expected = DenseInertia(n, second, 1e-12);
  ASSERT_EQ(expected.zero, 0);
  ExecContext ctx;
  for (auto a : {a1, a2, a2}) {
    auto factorization = Factorize(a, analysis, options, ctx);
    ASSERT_TRUE(factorization.ok()) << factorization.status();
    const FactorReport& report = (*factorization)->report();
    EXPECT_NE(report.message.find(
                  absl::StrCat(pairs.size(), " imposed by the analysis")),
              std::string::npos)
        << report.message;
    std::vector<double> b(n, 1.0), x(n, 0.0);
    SolveOptions solve_options;
    solve_options.tolerance = 1e-10;
    SolveReport solve;
    ASSERT_TRUE((*factorization)->Solve(b, x, solve_options, ctx, &solve).ok());
    EXPECT_LE(solve.relative_residual, 1e-10);
    EXPECT_TRUE(report.inertia_reliable);
    if (a == a2) {
      EXPECT_EQ(report.inertia.negative, expected.negative);
      EXPECT_EQ(report.inertia.positive, expected.positive);
    }
  }
  EXPECT_EQ(analysis->pairs(), pairs);
  EXPECT_EQ(analysis->symbolic().perm, perm);
}

// The saddle-point variant of a 2x2 KKT system [-(H+D) A^T; A D2]: D2 set
// to 0 (entries kept); n1 = the leading negative-diagonal rows.
CsrMatrix SaddleVariant(const CsrMatrix& a, int64_t* n1) {
  CsrMatrix s = a;
  *n1 = 0;
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (a.col_idx[k] != i) continue;
      if (a.values[k] < 0 && *n1 == i) ++*n1;
      if (i >= *n1) s.values[k] = 0.0;
    }
  }
  return s;
}

TEST(LdltMatchingPairs, KktSaddlePointSystems) {
  // Non-singular saddle variants (stcqp1's is singular): three bundled in
  // tests/data, two larger ones from the shared set when it is present.
  std::vector<std::string> paths = {
      testing::TestDataPath("kkt/hs21/2x2/iter_5/K_5.mtx"),
      testing::TestDataPath("kkt/cvxqp1_s/2x2/iter_10/K_10.mtx"),
      testing::TestDataPath("kkt/qpcboei1/2x2/iter_10/K_10.mtx")};
  if (testing::HaveSharedData()) {
    for (const char* s : {"aug2d/2x2/iter_0/K_0", "liswet1/2x2/iter_10/K_10"}) {
      paths.push_back(
          testing::SharedDataPath(std::string("kkt/") + s + ".mtx"));
    }
  } else {
    std::printf(
        "[ skipped  ] %s\n",
        testing::SharedDataAbsent("the aug2d and liswet1 saddle variants")
            .c_str());
  }
  for (const std::string& path : paths) {
    auto read = ReadMatrixMarket(path);
    ASSERT_TRUE(read.ok()) << path << ": " << read.status();
    int64_t n1 = 0;
    auto a = std::make_shared<const CsrMatrix>(SaddleVariant(*read, &n1));
    FactorOptions options;
    options.scaling = Scaling::kMatching;
    options.method = Method::kLdlt;
    auto analysis = AnalyzeLdlt(*a, options);
    ASSERT_NE(analysis, nullptr);
    EXPECT_GT(analysis->pairs().size(), 0u) << path;
    ExpectPairsInOneFront(*analysis, path);
    auto run = testing::RunLdlt(a, {}, options);
    ASSERT_TRUE(run.ok()) << path << ": " << run.status();
    options.impose_matching_pairs = false;
    auto plain = testing::RunLdlt(a, {}, options);
    ASSERT_TRUE(plain.ok()) << path << ": " << plain.status();
    std::printf(
        "%s saddle: pairs %zu, 2x2 %lld (off: %lld), delayed %lld (off: "
        "%lld), nnz(L) %lld (off: %lld), relres %.1e\n",
        path.c_str(), analysis->pairs().size(),
        static_cast<long long>(run->factor.two_by_two_pivots),
        static_cast<long long>(plain->factor.two_by_two_pivots),
        static_cast<long long>(run->factor.delayed_pivots),
        static_cast<long long>(plain->factor.delayed_pivots),
        static_cast<long long>(run->factor.nnz_factor),
        static_cast<long long>(plain->factor.nnz_factor),
        run->solve.relative_residual);
    // Measured on these systems: the pairs never add delayed pivots (they
    // remove all of them on cvxqp1_s, qpcboei1 and liswet1).
    EXPECT_LE(run->factor.delayed_pivots, plain->factor.delayed_pivots) << path;
    EXPECT_LE(run->solve.relative_residual, 1e-10) << path;
    ASSERT_TRUE(run->factor.inertia_reliable) << path;
    // Haynsworth: exactly n1 negative eigenvalues whatever A's rank.
    EXPECT_EQ(run->factor.inertia.negative, n1) << path;
    EXPECT_EQ(run->factor.inertia.positive, a->rows - n1) << path;
  }
}

}  // namespace
}  // namespace factord
