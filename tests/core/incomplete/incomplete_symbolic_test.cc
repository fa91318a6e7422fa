// The symbolic phase of ic / ilu: SymbolicIlu against a dense ILU(k) level
// computation written here (S4 §2.1's sum rule) on planted and random
// patterns, the missing diagonal kept in the pattern, the level sets of
// both triangles against their definition, and PermuteSymmetric.
#include "core/incomplete/incomplete_symbolic.h"

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace factord::internal {
namespace {

constexpr int kAbsent = std::numeric_limits<int>::max();

// A general CSR matrix with the given pattern (row-major n x n, true =
// stored) and value 1 everywhere.
CsrMatrix FromPattern(int n, const std::vector<bool>& stored) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kGeneral;
  a.row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (stored[i * n + j]) {
        a.col_idx.push_back(j);
        a.values.push_back(1.0);
      }
    }
    a.row_ptr.push_back(a.col_idx.size());
  }
  return a;
}

// Dense ILU(k) levels in KIJ order: 0 on A's entries and the diagonal;
// lev(i, j) = min over p < min(i, j) of lev(i, p) + lev(p, j) + 1.
std::vector<int> DenseLevels(int n, const std::vector<bool>& stored) {
  std::vector<int> lev(n * n, kAbsent);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (stored[i * n + j] || i == j) lev[i * n + j] = 0;
    }
  }
  for (int p = 0; p < n; ++p) {
    for (int i = p + 1; i < n; ++i) {
      if (lev[i * n + p] == kAbsent) continue;
      for (int j = p + 1; j < n; ++j) {
        if (lev[p * n + j] == kAbsent) continue;
        lev[i * n + j] =
            std::min(lev[i * n + j], lev[i * n + p] + lev[p * n + j] + 1);
      }
    }
  }
  return lev;
}

void ExpectPatternOfLevel(const IncompletePattern& p, int n,
                          const std::vector<int>& lev, int k) {
  ASSERT_EQ(p.n(), n);
  ASSERT_EQ(p.row_ptr.size(), static_cast<size_t>(n) + 1);
  for (int i = 0; i < n; ++i) {
    std::vector<int32_t> expected;
    for (int j = 0; j < n; ++j) {
      if (lev[i * n + j] <= k) expected.push_back(j);
    }
    const std::vector<int32_t> row(p.col_idx.begin() + p.row_ptr[i],
                                   p.col_idx.begin() + p.row_ptr[i + 1]);
    EXPECT_EQ(row, expected) << "row " << i;
    ASSERT_GE(p.diag[i], p.row_ptr[i]);
    ASSERT_LT(p.diag[i], p.row_ptr[i + 1]);
    EXPECT_EQ(p.col_idx[p.diag[i]], i);
  }
}

TEST(IncompleteSymbolic, ArrowWithTheHubFirstFillsEverythingAtLevelOne) {
  const int n = 5;
  std::vector<bool> stored(n * n, false);
  for (int i = 0; i < n; ++i) {
    stored[i * n + i] = stored[i * n] = stored[i] = true;
  }
  const CsrMatrix a = FromPattern(n, stored);
  absl::StatusOr<IncompletePattern> level0 = SymbolicIlu(a, 0, ExecContext{});
  ASSERT_TRUE(level0.ok()) << level0.status();
  EXPECT_EQ(level0->col_idx.size(), 3u * n - 2);  // the arrow itself
  absl::StatusOr<IncompletePattern> level1 = SymbolicIlu(a, 1, ExecContext{});
  ASSERT_TRUE(level1.ok()) << level1.status();
  EXPECT_EQ(level1->col_idx.size(), static_cast<size_t>(n * n));
}

TEST(IncompleteSymbolic, MissingDiagonalIsPartOfThePattern) {
  // [[x x 0]; [x 0 x]; [0 x x]] with (1, 1) not stored.
  const CsrMatrix a =
      FromPattern(3, {true, true, false, true, false, true, false, true, true});
  absl::StatusOr<IncompletePattern> p = SymbolicIlu(a, 0, ExecContext{});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->row_ptr, (std::vector<int64_t>{0, 2, 5, 7}));
  EXPECT_EQ(p->col_idx, (std::vector<int32_t>{0, 1, 0, 1, 2, 1, 2}));
  EXPECT_EQ(p->diag, (std::vector<int64_t>{0, 3, 6}));
}

TEST(IncompleteSymbolic, LevelsMatchADenseEliminationOnRandomPatterns) {
  for (unsigned seed = 1; seed <= 15; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937 rng(seed);
    const int n = 8 + static_cast<int>(rng() % 20);
    std::vector<bool> stored(n * n, false);
    for (int i = 0; i < n; ++i) {
      if (rng() % 5 != 0) stored[i * n + i] = true;
      for (int j = 0; j < n; ++j) {
        // Unsymmetric on purpose: ilu takes general patterns.
        if (i != j && rng() % n < 2) stored[i * n + j] = true;
      }
    }
    const CsrMatrix a = FromPattern(n, stored);
    const std::vector<int> lev = DenseLevels(n, stored);
    for (int k : {0, 1, 2, 4, n}) {
      SCOPED_TRACE(k);
      absl::StatusOr<IncompletePattern> p = SymbolicIlu(a, k, ExecContext{});
      ASSERT_TRUE(p.ok()) << p.status();
      ExpectPatternOfLevel(*p, n, lev, k);

      // Level sets: a row's level is one more than the highest level of
      // the rows its strict triangle references (0 without any).
      for (kernels::Triangle tri :
           {kernels::Triangle::kLower, kernels::Triangle::kUpper}) {
        const bool lower = tri == kernels::Triangle::kLower;
        std::vector<int> level(n, 0);
        for (int step = 0; step < n; ++step) {
          const int i = lower ? step : n - 1 - step;
          for (int j = 0; j < n; ++j) {
            if (lev[i * n + j] > k || (lower ? j >= i : j <= i)) continue;
            level[i] = std::max(level[i], level[j] + 1);
          }
        }
        const LevelSets sets = ComputeLevelSets(*p, tri);
        const int levels = *std::max_element(level.begin(), level.end()) + 1;
        ASSERT_EQ(sets.level_ptr.size(), static_cast<size_t>(levels) + 1);
        ASSERT_EQ(sets.rows.size(), static_cast<size_t>(n));
        for (int l = 0; l < levels; ++l) {
          for (int64_t r = sets.level_ptr[l]; r < sets.level_ptr[l + 1]; ++r) {
            EXPECT_EQ(level[sets.rows[r]], l) << "row " << sets.rows[r];
          }
        }
      }
    }
  }
}

TEST(IncompleteSymbolic, PermuteSymmetricMovesRowsAndColumnsTogether) {
  // A(i, j) = 10 i + j on a full 3 x 3 pattern; perm[new] = old.
  CsrMatrix a;
  a.rows = a.cols = 3;
  a.row_ptr = {0, 3, 6, 9};
  a.col_idx = {0, 1, 2, 0, 1, 2, 0, 1, 2};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) a.values.push_back(10 * i + j);
  }
  const std::vector<int32_t> perm = {2, 0, 1};
  const CsrMatrix b = PermuteSymmetric(a, perm);
  for (int r = 0; r < 3; ++r) {
    for (int64_t q = b.row_ptr[r]; q < b.row_ptr[r + 1]; ++q) {
      const int c = b.col_idx[q];
      EXPECT_EQ(b.values[q], 10 * perm[r] + perm[c]) << r << "," << c;
      if (q > b.row_ptr[r]) {
        EXPECT_LT(b.col_idx[q - 1], c);
      }
    }
  }
}

}  // namespace
}  // namespace factord::internal
