// The ldlt assembly plan (core/ldlt/ldlt_assembly_plan.cc) against the
// front structure it is computed from, and the refactorization it enables:
// no workspace growth without delays, results that do not depend on the
// analysis being fresh or reused or on an earlier cancelled run, and the
// delayed-pivot fallback (fronts that own their storage).
#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "core/ldlt/ldlt_front.h"
#include "core/ldlt/ldlt_symbolic.h"
#include "core/order/amd.h"
#include "gtest/gtest.h"
#include "tests/core/ldlt/ldlt_test_util.h"

namespace factord {
namespace {

using internal::LdltSymbolic;
using testing::LowerFromDense;

// A random sparse symmetric matrix (lower CSR) with every diagonal stored;
// `zero_every` > 0 sets every zero_every-th diagonal to 0 (delays).
CsrMatrix RandomSymmetric(int n, int density, int zero_every, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> a(static_cast<size_t>(n) * n, 0.0);
  std::vector<bool> keep(a.size(), false);
  for (int i = 0; i < n; ++i) {
    a[i * n + i] = (zero_every > 0 && i % zero_every == 0) ? 0.0 : 4 + i % 5;
    keep[i * n + i] = true;
    for (int j = 0; j < i; ++j) {
      if (static_cast<int>(rng() % 100) < density) {
        a[i * n + j] = a[j * n + i] = value(rng);
        keep[i * n + j] = keep[j * n + i] = true;
      }
    }
  }
  return LowerFromDense(n, a, keep);
}

LdltSymbolic Symbolic(const CsrMatrix& a) {
  auto perm = AmdOrdering(a);
  EXPECT_TRUE(perm.ok());
  auto sym = internal::BuildLdltSymbolic(a, *perm);
  EXPECT_TRUE(sym.ok());
  return *std::move(sym);
}

// The rows of front f in its nominal local order: own columns, update rows.
std::vector<int32_t> FrontRows(const LdltSymbolic& sym, int64_t f) {
  std::vector<int32_t> rows;
  for (int32_t c = sym.front_begin[f]; c < sym.front_begin[f + 1]; ++c) {
    rows.push_back(c);
  }
  rows.insert(rows.end(), sym.update_rows.begin() + sym.update_ptr[f],
              sym.update_rows.begin() + sym.update_ptr[f + 1]);
  return rows;
}

TEST(LdltAssemblyPlan, LocalRowsNameTheRightVariables) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    const CsrMatrix a = RandomSymmetric(60 + 20 * seed, 6, 0, seed);
    const LdltSymbolic sym = Symbolic(a);
    const int64_t num_fronts = sym.num_fronts();
    ASSERT_EQ(sym.entry_local.size(), sym.col_rows.size());
    ASSERT_EQ(sym.update_local.size(), sym.update_rows.size());
    int64_t factor_size = 0;
    std::vector<bool> is_root(num_fronts, false);
    for (int32_t f : sym.roots) is_root[f] = true;
    for (int64_t f = 0; f < num_fronts; ++f) {
      const std::vector<int32_t> rows = FrontRows(sym, f);
      const int64_t k = sym.front_begin[f + 1] - sym.front_begin[f];
      // Original entries: the local row holds the entry's row.
      for (int32_t c = sym.front_begin[f]; c < sym.front_begin[f + 1]; ++c) {
        for (int64_t e = sym.col_ptr[c]; e < sym.col_ptr[c + 1]; ++e) {
          ASSERT_GE(sym.entry_local[e], c - sym.front_begin[f]);
          ASSERT_LT(sym.entry_local[e], static_cast<int32_t>(rows.size()));
          EXPECT_EQ(rows[sym.entry_local[e]], sym.col_rows[e]);
        }
      }
      // Update rows land on the parent's rows, in increasing positions
      // (the lower triangle of a child's block stays lower in the parent).
      const int32_t parent = sym.front_parent[f];
      EXPECT_EQ(is_root[f], parent == -1);
      if (parent != -1) {
        const std::vector<int32_t> parent_rows = FrontRows(sym, parent);
        int32_t previous = -1;
        for (int64_t e = sym.update_ptr[f]; e < sym.update_ptr[f + 1]; ++e) {
          const int32_t pos = sym.update_local[e];
          ASSERT_GE(pos, 0);
          ASSERT_LT(pos, static_cast<int32_t>(parent_rows.size()));
          EXPECT_EQ(parent_rows[pos], sym.update_rows[e]);
          EXPECT_GT(pos, previous);
          previous = pos;
        }
      }
      // The subtree of f is the postorder range [first_descendant, f].
      for (int32_t i = sym.child_ptr[f]; i < sym.child_ptr[f + 1]; ++i) {
        const int32_t child = sym.children[i];
        EXPECT_GE(sym.first_descendant[child], sym.first_descendant[f]);
        EXPECT_LT(child, f);
      }
      EXPECT_EQ(sym.row_offset[f + 1] - sym.row_offset[f],
                static_cast<int64_t>(rows.size()));
      factor_size += static_cast<int64_t>(rows.size()) * k;
      EXPECT_LE(static_cast<int64_t>(rows.size()), sym.max_front);
    }
    EXPECT_EQ(sym.factor_offset.back(), factor_size);
    EXPECT_GT(sym.max_stack, 0);
  }
}

// Every diagonal positive and dominant: no delays, so a refactorization
// must not grow (reallocate) any workspace array of the calling thread.
TEST(LdltAssemblyPlan, RefactorizationDoesNotGrowTheWorkspace) {
  CsrMatrix a = RandomSymmetric(300, 3, 0, 9);
  for (int64_t i = 0; i < a.rows; ++i) {
    a.values[a.row_ptr[i + 1] - 1] += 20;  // the diagonal is stored last
  }
  auto shared = std::make_shared<const CsrMatrix>(a);
  FactorOptions options;
  options.method = Method::kLdlt;
  ExecContext ctx;
  ctx.backend = Backend::kReference;  // runs on this thread
  auto analysis = Analyze(*shared, options, ctx);
  ASSERT_TRUE(analysis.ok());
  auto first = Factorize(shared, *analysis, options, ctx);
  ASSERT_TRUE(first.ok());
  ASSERT_EQ((*first)->report().delayed_pivots, 0);
  const internal::FrontWorkspace& ws = internal::ThreadFrontWorkspace();
  const double* front = ws.front.data();
  const double* stack = ws.stack.data();
  const size_t stack_size = ws.stack.size();
  CsrMatrix b = a;
  for (double& v : b.values) v *= 1.5;
  auto second =
      Factorize(std::make_shared<const CsrMatrix>(b), *analysis, options, ctx);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(ws.front.data(), front);
  EXPECT_EQ(ws.stack.data(), stack);
  EXPECT_EQ(ws.stack.size(), stack_size);
  EXPECT_EQ(ws.stack_top, 0);
}

std::vector<double> SolveOnes(const Factorization& f, int64_t n,
                              const ExecContext& ctx) {
  std::vector<double> b(n, 1.0), x(n, 0.0);
  SolveOptions options;
  options.krylov = Krylov::kNone;
  SolveReport report;
  EXPECT_TRUE(f.Solve(b, x, options, ctx, &report).ok());
  EXPECT_LE(report.relative_residual, 1e-10);
  return x;
}

bool SameBits(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() &&
         std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

// Zero diagonals force delays (fronts with their own storage). A reused
// analysis, a fresh one, a run after a cancelled one: the same bits.
TEST(LdltAssemblyPlan, ReusedAnalysisGivesTheBitsOfAFreshOne) {
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    const CsrMatrix a0 = RandomSymmetric(400, 2, 3, 21);
    CsrMatrix a1 = a0;
    std::mt19937 rng(5);
    for (double& v : a1.values) {
      if (v != 0) v *= 0.5 + (rng() % 100) / 100.0;
    }
    auto m0 = std::make_shared<const CsrMatrix>(a0);
    auto m1 = std::make_shared<const CsrMatrix>(a1);
    FactorOptions options;
    options.method = Method::kLdlt;
    ExecContext ctx;
    ctx.backend = backend;
    ctx.threads = 2;
    auto analysis0 = Analyze(*m0, options, ctx);
    auto analysis1 = Analyze(*m1, options, ctx);
    ASSERT_TRUE(analysis0.ok() && analysis1.ok());
    ASSERT_TRUE(Factorize(m0, *analysis0, options, ctx).ok());
    // A cancelled run in between must leave nothing behind.
    Cancellation cancellation;
    cancellation.Cancel();
    ExecContext cancelled = ctx;
    cancelled.cancellation = &cancellation;
    EXPECT_FALSE(Factorize(m1, *analysis0, options, cancelled).ok());
    auto reused = Factorize(m1, *analysis0, options, ctx);
    auto fresh = Factorize(m1, *analysis1, options, ctx);
    ASSERT_TRUE(reused.ok() && fresh.ok());
    const FactorReport& r = (*reused)->report();
    const FactorReport& f = (*fresh)->report();
    EXPECT_GT(r.delayed_pivots, 0) << "the test needs delayed pivots";
    EXPECT_EQ(r.delayed_pivots, f.delayed_pivots);
    EXPECT_EQ(r.two_by_two_pivots, f.two_by_two_pivots);
    EXPECT_EQ(r.inertia.positive, f.inertia.positive);
    EXPECT_EQ(r.inertia.negative, f.inertia.negative);
    EXPECT_EQ(r.nnz_factor, f.nnz_factor);
    EXPECT_TRUE(r.inertia_reliable);
    EXPECT_EQ(r.inertia.positive + r.inertia.negative, a1.rows);
    EXPECT_TRUE(SameBits(SolveOnes(**reused, a1.rows, ctx),
                         SolveOnes(**fresh, a1.rows, ctx)));
  }
}

}  // namespace
}  // namespace factord
