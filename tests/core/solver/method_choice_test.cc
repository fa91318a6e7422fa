// What `auto` resolves to (ChooseMethod, core/solver/method_choice.cc): by
// matrix class, then ldlt -> block_ildlt when ldlt's expected bytes exceed
// the memory budget. The budgets are derived from the analysis itself, so
// the tests check the rule, not a byte count.
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/matrix/csr.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"

namespace factord {
namespace {

constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();

// Tridiagonal of order n, lower triangle stored: diagonal d, off-diagonal -1.
CsrMatrix LowerTridiagonal(int64_t n, std::vector<double> d,
                           Structure structure) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = structure;
  a.row_ptr.push_back(0);
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) {
      a.col_idx.push_back(static_cast<int32_t>(i - 1));
      a.values.push_back(-1.0);
    }
    a.col_idx.push_back(static_cast<int32_t>(i));
    a.values.push_back(d[i]);
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

// 1D Laplacian: symmetric positive definite.
CsrMatrix Spd(int64_t n) {
  return LowerTridiagonal(n, std::vector<double>(n, 2.0), Structure::kSpdLower);
}

// Diagonal +3, -3, +3, ...: symmetric indefinite (half the eigenvalues are
// negative), stored as symmetric_lower.
CsrMatrix Indefinite(int64_t n) {
  std::vector<double> d(n);
  for (int64_t i = 0; i < n; ++i) d[i] = i % 2 == 0 ? 3.0 : -3.0;
  return LowerTridiagonal(n, d, Structure::kSymmetricLower);
}

// Upper bidiagonal, general storage: unsymmetric.
CsrMatrix Unsymmetric(int64_t n) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kGeneral;
  a.row_ptr.push_back(0);
  for (int64_t i = 0; i < n; ++i) {
    a.col_idx.push_back(static_cast<int32_t>(i));
    a.values.push_back(4.0);
    if (i + 1 < n) {
      a.col_idx.push_back(static_cast<int32_t>(i + 1));
      a.values.push_back(1.0);
    }
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

FactorOptions Auto() { return FactorOptions{}; }

// ChooseMethod with the core's Analyze, recording the methods analyzed.
struct CountingChoice {
  std::vector<Method> analyzed;
  absl::StatusOr<MethodChoice> Choose(const CsrMatrix& a,
                                      const FactorOptions& options,
                                      int64_t budget) {
    return ChooseMethod(a, options, budget, [&](const FactorOptions& resolved) {
      analyzed.push_back(resolved.method);
      return Analyze(a, resolved, ExecContext{});
    });
  }
};

TEST(MethodChoice, AutoOnSpdIsLdlt) {
  const CsrMatrix a = Spd(40);
  absl::StatusOr<MethodChoice> c = ChooseMethod(a, Auto(), kNoLimit, {});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->method, Method::kLdlt);
  ASSERT_NE(c->analysis, nullptr);
  EXPECT_EQ(c->analysis->method(), Method::kLdlt);
}

TEST(MethodChoice, AutoOnSymmetricIndefiniteIsLdlt) {
  const CsrMatrix a = Indefinite(40);
  CountingChoice counting;
  absl::StatusOr<MethodChoice> c = counting.Choose(a, Auto(), kNoLimit);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->method, Method::kLdlt);
  EXPECT_EQ(c->analysis->method(), Method::kLdlt);
  EXPECT_EQ(counting.analyzed, std::vector<Method>{Method::kLdlt});
}

TEST(MethodChoice, AutoOnUnsymmetricIsLuOrIluWithoutUmfpack) {
  const CsrMatrix a = Unsymmetric(40);
  const Method expected = LuAvailable() ? Method::kLu : Method::kIlu;
  // The budget only decides between ldlt and block_ildlt: even a budget of
  // 0 bytes keeps the unsymmetric choice.
  for (int64_t budget : {kNoLimit, int64_t{0}}) {
    CountingChoice counting;
    absl::StatusOr<MethodChoice> c = counting.Choose(a, Auto(), budget);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->method, expected) << budget;
    EXPECT_EQ(c->analysis->method(), expected) << budget;
    EXPECT_EQ(counting.analyzed, std::vector<Method>{expected}) << budget;
  }
}

TEST(MethodChoice, AutoFallsBackToBlockIldltOverTheBudget) {
  for (const CsrMatrix& a : {Spd(60), Indefinite(60)}) {
    FactorOptions ldlt;
    ldlt.method = Method::kLdlt;
    absl::StatusOr<std::shared_ptr<const Analysis>> analysis =
        Analyze(a, ldlt, ExecContext{});
    ASSERT_TRUE(analysis.ok()) << analysis.status();
    const int64_t needed = ExpectedFactorBytes(a, **analysis);
    ASSERT_GT(needed, a.bytes());

    // Exactly what ldlt needs fits: ldlt, one analysis.
    CountingChoice fits;
    absl::StatusOr<MethodChoice> c = fits.Choose(a, Auto(), needed);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->method, Method::kLdlt);
    EXPECT_EQ(fits.analyzed, std::vector<Method>{Method::kLdlt});

    // One byte less: block_ildlt, after ldlt's analysis gave the estimate.
    CountingChoice over;
    c = over.Choose(a, Auto(), needed - 1);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->method, Method::kBlockIldlt);
    EXPECT_EQ(c->analysis->method(), Method::kBlockIldlt);
    EXPECT_EQ(over.analyzed,
              (std::vector<Method>{Method::kLdlt, Method::kBlockIldlt}));
  }
}

TEST(MethodChoice, AnExplicitMethodIsKeptWhateverTheBudget) {
  const CsrMatrix a = Spd(40);
  for (Method m : {Method::kLdlt, Method::kIc, Method::kJacobi}) {
    FactorOptions options;
    options.method = m;
    CountingChoice counting;
    absl::StatusOr<MethodChoice> c = counting.Choose(a, options, 0);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->method, m);
    EXPECT_EQ(counting.analyzed, std::vector<Method>{m});
  }
}

TEST(MethodChoice, AnAnalysisErrorIsReturned) {
  const CsrMatrix a = Spd(10);
  absl::StatusOr<MethodChoice> c =
      ChooseMethod(a, Auto(), kNoLimit,
                   [](const FactorOptions&)
                       -> absl::StatusOr<std::shared_ptr<const Analysis>> {
                     return absl::ResourceExhaustedError("no room");
                   });
  EXPECT_EQ(c.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(MethodChoice, ResolveMethodIsTheClassPartOfTheChoice) {
  EXPECT_EQ(ResolveMethod(Spd(5), Method::kAuto), Method::kLdlt);
  EXPECT_EQ(ResolveMethod(Indefinite(5), Method::kAuto), Method::kLdlt);
  EXPECT_EQ(ResolveMethod(Unsymmetric(5), Method::kAuto),
            LuAvailable() ? Method::kLu : Method::kIlu);
  EXPECT_EQ(ResolveMethod(Spd(5), Method::kBlockJacobi), Method::kBlockJacobi);
}

}  // namespace
}  // namespace factord
