// The symbolic phase of method ldlt (BuildLdltSymbolic) on hand-worked
// planted patterns (tridiagonal, arrow, block diagonal, an empty row, a 2x2
// candidate across a front boundary) and on random patterns checked against
// a naive dense boolean elimination written here: the elimination tree,
// the postorder, the column structure of L and the gather map.
#include "core/ldlt/ldlt_symbolic.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/block_ildlt/block_ildlt_planted.h"

namespace factord::internal {
namespace {

using testing::Entry;
using testing::LowerFromEntries;

std::vector<int32_t> Identity(int n) {
  std::vector<int32_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  return p;
}

std::vector<Entry> Tridiagonal(int n) {
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    e.push_back({i, i, 4.0});
    if (i > 0) e.push_back({i, i - 1, -1.0});
  }
  return e;
}

// The arrow of order n with its hub at index `hub`.
std::vector<Entry> Arrow(int n, int hub) {
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    e.push_back({i, i, 4.0});
    if (i != hub) e.push_back({std::max(i, hub), std::min(i, hub), 1.0});
  }
  return e;
}

// The complete L of a symmetric pattern by dense boolean elimination
// (O(n^3)): below[c] lists the rows r > c of L(:, c), ascending.
struct DenseSymbolic {
  std::vector<std::vector<int32_t>> below;
  std::vector<int32_t> parent;  // min of below[c], -1 when empty
  int64_t nnz = 0;              // entries of L with the diagonal
};

DenseSymbolic Eliminate(std::vector<std::vector<bool>> l) {
  const int n = static_cast<int>(l.size());
  for (int k = 0; k < n; ++k) {
    for (int i = k + 1; i < n; ++i) {
      if (!l[i][k]) continue;
      for (int j = k + 1; j < i; ++j) {
        if (l[j][k]) l[i][j] = true;
      }
    }
  }
  DenseSymbolic d;
  d.below.resize(n);
  d.parent.assign(n, -1);
  for (int c = 0; c < n; ++c) {
    for (int r = c + 1; r < n; ++r) {
      if (l[r][c]) d.below[c].push_back(r);
    }
    if (!d.below[c].empty()) d.parent[c] = d.below[c][0];
    d.nnz += 1 + static_cast<int64_t>(d.below[c].size());
  }
  return d;
}

// The strictly lower pattern of P A P^T with position[original] = new.
std::vector<std::vector<bool>> PermutedPattern(
    const CsrMatrix& a, const std::vector<int32_t>& position) {
  const int n = static_cast<int>(a.rows);
  std::vector<std::vector<bool>> l(n, std::vector<bool>(n, false));
  for (int i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int pi = position[i], pj = position[a.col_idx[k]];
      if (pi != pj) l[std::max(pi, pj)][std::min(pi, pj)] = true;
    }
  }
  return l;
}

// The elimination tree as the fronts encode it: inside a front each column's
// parent is the next one; the last column's parent is its first update row
// (the update rows of a front are the structure of its last column).
std::vector<int32_t> TreeOfFronts(const LdltSymbolic& sym) {
  std::vector<int32_t> parent(sym.n, -1);
  for (int64_t f = 0; f < sym.num_fronts(); ++f) {
    const int32_t last = sym.front_begin[f + 1] - 1;
    for (int32_t c = sym.front_begin[f]; c < last; ++c) parent[c] = c + 1;
    if (sym.update_ptr[f + 1] > sym.update_ptr[f]) {
      parent[last] = sym.update_rows[sym.update_ptr[f]];
    }
  }
  return parent;
}

std::vector<int32_t> UpdateRows(const LdltSymbolic& sym, int64_t f) {
  return {sym.update_rows.begin() + sym.update_ptr[f],
          sym.update_rows.begin() + sym.update_ptr[f + 1]};
}

TEST(LdltSymbolic, TridiagonalIsOneChainAmalgamatedIntoOneFront) {
  const int n = 6;
  const CsrMatrix a = LowerFromEntries(n, Tridiagonal(n));
  absl::StatusOr<LdltSymbolic> sym = BuildLdltSymbolic(a, Identity(n));
  ASSERT_TRUE(sym.ok()) << sym.status();
  EXPECT_EQ(sym->perm, Identity(n));  // a chain is its own postorder
  // Supernodes {0} {1} {2} {3} {4 5}; the relaxed rule merges them all (6
  // columns, 10 explicit zeros of 21 stored entries): one dense front.
  EXPECT_EQ(sym->front_begin, (std::vector<int32_t>{0, n}));
  EXPECT_EQ(sym->front_parent, (std::vector<int32_t>{-1}));
  EXPECT_TRUE(sym->update_rows.empty());
  EXPECT_EQ(sym->nnz_factor, n * (n + 1) / 2);
  EXPECT_EQ(sym->max_front, n);
  EXPECT_EQ(sym->roots, (std::vector<int32_t>{0}));
}

TEST(LdltSymbolic, ArrowWithTheHubFirstFillsCompletely) {
  const int n = 6;
  const CsrMatrix a = LowerFromEntries(n, Arrow(n, 0));
  absl::StatusOr<LdltSymbolic> sym = BuildLdltSymbolic(a, Identity(n));
  ASSERT_TRUE(sym.ok()) << sym.status();
  // Eliminating the hub connects every pair: L is dense, its tree a chain.
  std::vector<int32_t> chain(n);
  for (int c = 0; c < n; ++c) chain[c] = c + 1 < n ? c + 1 : -1;
  EXPECT_EQ(TreeOfFronts(*sym), chain);
  EXPECT_EQ(sym->nnz_factor, n * (n + 1) / 2);
  EXPECT_EQ(sym->num_fronts(), 1);
}

TEST(LdltSymbolic, ArrowWithTheHubLastIsAStarOfOneColumnFronts) {
  const int n = 6;
  const CsrMatrix a = LowerFromEntries(n, Arrow(n, 0));
  // Fill order: the leaves 1..5, then the hub 0.
  absl::StatusOr<LdltSymbolic> sym = BuildLdltSymbolic(a, {1, 2, 3, 4, 5, 0});
  ASSERT_TRUE(sym.ok()) << sym.status();
  // The fill order is already a postorder of this tree: kept as it is.
  EXPECT_EQ(sym->perm, (std::vector<int32_t>{1, 2, 3, 4, 5, 0}));
  // Every leaf's parent is the hub; the last leaf amalgamates with it.
  EXPECT_EQ(TreeOfFronts(*sym), (std::vector<int32_t>{5, 5, 5, 5, 5, -1}));
  EXPECT_EQ(sym->front_begin, (std::vector<int32_t>{0, 1, 2, 3, 4, 6}));
  EXPECT_EQ(sym->front_parent, (std::vector<int32_t>{4, 4, 4, 4, -1}));
  for (int f = 0; f < 4; ++f) {
    EXPECT_EQ(UpdateRows(*sym, f), (std::vector<int32_t>{5})) << f;
  }
  EXPECT_EQ(std::vector<int32_t>(sym->children.begin(), sym->children.end()),
            (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(sym->nnz_factor, 2 * n - 1);  // no fill, no explicit zeros
  EXPECT_EQ(sym->max_front, 2);
}

TEST(LdltSymbolic, BlockDiagonalIsAForestWithoutUpdateRows) {
  // Dense blocks over {0, 1}, {2, 3, 4} and {5, 6}.
  std::vector<Entry> e;
  for (auto [lo, hi] :
       std::vector<std::pair<int, int>>{{0, 2}, {2, 5}, {5, 7}}) {
    for (int i = lo; i < hi; ++i) {
      for (int j = lo; j <= i; ++j) e.push_back({i, j, i == j ? 5.0 : 1.0});
    }
  }
  const CsrMatrix a = LowerFromEntries(7, e);
  absl::StatusOr<LdltSymbolic> sym = BuildLdltSymbolic(a, Identity(7));
  ASSERT_TRUE(sym.ok()) << sym.status();
  EXPECT_EQ(sym->front_begin, (std::vector<int32_t>{0, 2, 5, 7}));
  EXPECT_EQ(sym->front_parent, (std::vector<int32_t>{-1, -1, -1}));
  EXPECT_EQ(sym->roots, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_TRUE(sym->update_rows.empty());
  EXPECT_TRUE(sym->children.empty());
  EXPECT_EQ(sym->nnz_factor, 3 + 6 + 3);
}

TEST(LdltSymbolic, EmptyRowIsAnIsolatedRootWithAnEmptyDiagonalSlot) {
  // Variable 2 has no entry at all (not even a diagonal); 0 - 1 - 3 a path.
  const CsrMatrix a = LowerFromEntries(
      4, {{0, 0, 2.0}, {1, 0, 1.0}, {1, 1, 2.0}, {3, 1, 1.0}, {3, 3, 2.0}});
  absl::StatusOr<LdltSymbolic> sym = BuildLdltSymbolic(a, Identity(4));
  ASSERT_TRUE(sym.ok()) << sym.status();
  // Postorder visits the roots in increasing order: the lone 2, then the
  // tree 0 -> 1 -> 3.
  EXPECT_EQ(sym->perm, (std::vector<int32_t>{2, 0, 1, 3}));
  EXPECT_EQ(sym->col_ptr[1] - sym->col_ptr[0], 1);
  EXPECT_EQ(sym->col_rows[sym->col_ptr[0]], 0);
  EXPECT_EQ(sym->col_src[sym->col_ptr[0]], -1);  // no stored diagonal
  EXPECT_EQ(TreeOfFronts(*sym), (std::vector<int32_t>{-1, 2, 3, -1}));
  EXPECT_EQ(sym->front_begin.front(), 0);
  EXPECT_EQ(sym->front_begin[1], 1);  // its own front
  EXPECT_EQ(sym->front_parent[0], -1);
  EXPECT_EQ(sym->update_ptr[1], 0);
}

// A path 0 - 1 - 2 - 3 - 4 - 5 followed by a dense clique 5..24: the path
// and the clique are separate fronts (merging them would store 105 zeros
// of 325 entries), so the boundary falls between 4 and its parent 5.
CsrMatrix PathIntoClique() {
  std::vector<Entry> e;
  for (int i = 0; i < 25; ++i) {
    e.push_back({i, i, 10.0});
    if (i >= 1 && i <= 5) e.push_back({i, i - 1, 1.0});
    for (int j = 5; i > 5 && j < i; ++j) e.push_back({i, j, 0.5});
  }
  return LowerFromEntries(25, e);
}

TEST(LdltSymbolic, TwoByTwoCandidateIsNeverSplitByAFrontBoundary) {
  const CsrMatrix a = PathIntoClique();
  absl::StatusOr<LdltSymbolic> plain = BuildLdltSymbolic(a, Identity(25));
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->front_begin, (std::vector<int32_t>{0, 5, 25}));
  EXPECT_TRUE(plain->pair_first.empty());

  const std::vector<std::pair<int32_t, int32_t>> pair = {{4, 5}};
  absl::StatusOr<LdltSymbolic> paired =
      BuildLdltSymbolic(a, Identity(25), pair);
  ASSERT_TRUE(paired.ok()) << paired.status();
  EXPECT_EQ(paired->pair_first, (std::vector<int32_t>{4}));
  EXPECT_EQ(paired->front_begin, (std::vector<int32_t>{0, 25}));

  // A pair that the fill order does not place consecutively is ignored.
  const std::vector<std::pair<int32_t, int32_t>> apart = {{3, 5}};
  absl::StatusOr<LdltSymbolic> ignored =
      BuildLdltSymbolic(a, Identity(25), apart);
  ASSERT_TRUE(ignored.ok()) << ignored.status();
  EXPECT_TRUE(ignored->pair_first.empty());
  EXPECT_EQ(ignored->front_begin, plain->front_begin);
}

TEST(LdltSymbolic, RejectsAPermutationOfTheWrongOrder) {
  const CsrMatrix a = LowerFromEntries(3, Tridiagonal(3));
  EXPECT_FALSE(BuildLdltSymbolic(a, Identity(2)).ok());
}

// A random symmetric pattern of order n (about `degree` off-diagonal
// entries per row, some diagonals missing) and a random fill order.
std::pair<CsrMatrix, std::vector<int32_t>> RandomCase(int n, int degree,
                                                      unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    if (rng() % 7 != 0) e.push_back({i, i, 1.0});
    for (int j = 0; j < i; ++j) {
      if (static_cast<int>(rng() % n) < degree) e.push_back({i, j, 1.0});
    }
  }
  std::vector<int32_t> fill = Identity(n);
  std::shuffle(fill.begin(), fill.end(), rng);
  return {LowerFromEntries(n, e), fill};
}

TEST(LdltSymbolic, TreeAndStructureMatchADenseEliminationOnRandomPatterns) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE(seed);
    const int n = 20 + static_cast<int>(seed) * 3;
    const auto [a, fill] = RandomCase(n, 2, seed);
    absl::StatusOr<LdltSymbolic> sym = BuildLdltSymbolic(a, fill);
    ASSERT_TRUE(sym.ok()) << sym.status();

    // perm is a permutation and inverse its inverse.
    std::vector<int32_t> sorted = sym->perm;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(sorted, Identity(n));
    for (int k = 0; k < n; ++k) ASSERT_EQ(sym->inverse[sym->perm[k]], k);

    // The postorder is an equivalent ordering: the fill is that of the
    // fill order.
    std::vector<int32_t> fill_position(n);
    for (int k = 0; k < n; ++k) fill_position[fill[k]] = k;
    const DenseSymbolic before = Eliminate(PermutedPattern(a, fill_position));
    const DenseSymbolic dense = Eliminate(PermutedPattern(a, sym->inverse));
    EXPECT_EQ(dense.nnz, before.nnz);
    EXPECT_GE(sym->nnz_factor, dense.nnz);

    // The elimination tree of the fronts is the dense elimination's.
    EXPECT_EQ(TreeOfFronts(*sym), dense.parent);

    // A postorder: each subtree is the contiguous range ending at its root.
    std::vector<int32_t> first(n);
    std::iota(first.begin(), first.end(), 0);
    std::vector<int32_t> size(n, 1);
    for (int c = 0; c < n; ++c) {
      const int32_t p = dense.parent[c];
      if (p == -1) continue;
      ASSERT_GT(p, c);
      first[p] = std::min(first[p], first[c]);
      size[p] += size[c];
    }
    for (int c = 0; c < n; ++c) EXPECT_EQ(c - first[c] + 1, size[c]) << c;

    // Fronts: children precede parents; the update rows are the structure
    // of the last column, and cover every other column's rows below it.
    int64_t max_front = 0;
    for (int64_t f = 0; f < sym->num_fronts(); ++f) {
      const int32_t begin = sym->front_begin[f];
      const int32_t last = sym->front_begin[f + 1] - 1;
      ASSERT_LE(begin, last);
      if (sym->front_parent[f] != -1) {
        EXPECT_GT(sym->front_parent[f], f);
      }
      const std::vector<int32_t> rows = UpdateRows(*sym, f);
      EXPECT_EQ(rows, dense.below[last]) << "front " << f;
      for (int32_t c = begin; c < last; ++c) {
        for (int32_t r : dense.below[c]) {
          EXPECT_TRUE(r <= last ||
                      std::binary_search(rows.begin(), rows.end(), r))
              << "column " << c << " row " << r;
        }
      }
      max_front = std::max<int64_t>(max_front, last - begin + 1 + rows.size());
    }
    EXPECT_EQ(sym->max_front, max_front);

    // The permuted lower triangle: the diagonal slot first, then exactly
    // the stored entries below it, each gathered from an entry of a that
    // maps to its (row, column).
    std::vector<int32_t> row_of(a.nnz());
    for (int i = 0; i < n; ++i) {
      for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) row_of[k] = i;
    }
    const std::vector<std::vector<bool>> pattern =
        PermutedPattern(a, sym->inverse);
    for (int c = 0; c < n; ++c) {
      ASSERT_EQ(sym->col_rows[sym->col_ptr[c]], c);
      int64_t diagonal = -1;  // the stored diagonal of c, if any
      const int32_t i = sym->perm[c];
      for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        if (a.col_idx[k] == i) diagonal = k;
      }
      EXPECT_EQ(sym->col_src[sym->col_ptr[c]], diagonal) << "column " << c;
      std::vector<int32_t> rows;
      for (int64_t e = sym->col_ptr[c]; e < sym->col_ptr[c + 1]; ++e) {
        const int64_t src = sym->col_src[e];
        if (e > sym->col_ptr[c]) {
          rows.push_back(sym->col_rows[e]);
          ASSERT_GE(src, 0);
        }
        if (src < 0) continue;
        const int32_t pi = sym->inverse[row_of[src]];
        const int32_t pj = sym->inverse[a.col_idx[src]];
        EXPECT_EQ(std::min(pi, pj), c);
        EXPECT_EQ(std::max(pi, pj), sym->col_rows[e]);
      }
      std::sort(rows.begin(), rows.end());
      std::vector<int32_t> expected;
      for (int r = c + 1; r < n; ++r) {
        if (pattern[r][c]) expected.push_back(r);
      }
      EXPECT_EQ(rows, expected) << "column " << c;
    }
  }
}

}  // namespace
}  // namespace factord::internal
