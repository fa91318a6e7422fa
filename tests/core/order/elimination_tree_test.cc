// Elimination tree, postorder and column counts on tiny hand-built patterns
// with known answers: an arrow matrix with its dense row first (everything
// fills) and last (nothing fills), and a matrix of two components.
#include "core/order/elimination_tree.h"

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/order/graph_pattern.h"

namespace factord {
namespace {

TEST(EliminationTree, ArrowWithTheDenseRowFirstFillsCompletely) {
  // Node 0 is joined to 1, 2, 3: eliminating it first makes L dense.
  const CsrMatrix a = Graph(4, {{0, 1}, {0, 2}, {0, 3}});
  const LowerRowPattern rows = PermutedLowerRows(a, {0, 1, 2, 3});
  const std::vector<int32_t> parent = EliminationTree(rows, 4);
  EXPECT_EQ(parent, (std::vector<int32_t>{1, 2, 3, -1}));
  EXPECT_EQ(BelowDiagonalCounts(rows, parent),
            (std::vector<int64_t>{3, 2, 1, 0}));
  EXPECT_EQ(Postorder(parent), (std::vector<int32_t>{0, 1, 2, 3}));
}

TEST(EliminationTree, ArrowWithTheDenseRowLastDoesNotFill) {
  const CsrMatrix a = Graph(4, {{0, 1}, {0, 2}, {0, 3}});
  // inverse[0] = 3: the dense node is eliminated last.
  const LowerRowPattern rows = PermutedLowerRows(a, {3, 0, 1, 2});
  const std::vector<int32_t> parent = EliminationTree(rows, 4);
  EXPECT_EQ(parent, (std::vector<int32_t>{3, 3, 3, -1}));
  EXPECT_EQ(BelowDiagonalCounts(rows, parent),
            (std::vector<int64_t>{1, 1, 1, 0}));
}

TEST(EliminationTree, TwoComponentsAreTwoTreesInPostorder) {
  // 0 - 2 and 1 - 3: roots 2 and 3; postorder visits 0, 2, then 1, 3.
  const CsrMatrix a = Graph(4, {{0, 2}, {1, 3}});
  const LowerRowPattern rows = PermutedLowerRows(a, {0, 1, 2, 3});
  const std::vector<int32_t> parent = EliminationTree(rows, 4);
  EXPECT_EQ(parent, (std::vector<int32_t>{2, 3, -1, -1}));
  EXPECT_EQ(Postorder(parent), (std::vector<int32_t>{0, 2, 1, 3}));
  EXPECT_EQ(BelowDiagonalCounts(rows, parent),
            (std::vector<int64_t>{1, 1, 0, 0}));
}

// The counts by walking every row subtree (O(nnz(L)), obviously right).
std::vector<int64_t> WalkedCounts(const LowerRowPattern& rows,
                                  const std::vector<int32_t>& parent) {
  const int64_t n = parent.size();
  std::vector<int64_t> below(n, 0);
  std::vector<int32_t> mark(n, -1);
  for (int64_t i = 0; i < n; ++i) {
    mark[i] = i;
    for (int64_t k = rows.ptr[i]; k < rows.ptr[i + 1]; ++k) {
      for (int32_t j = rows.cols[k]; mark[j] != i; j = parent[j]) {
        mark[j] = i;
        ++below[j];
      }
    }
  }
  return below;
}

TEST(EliminationTree, CountsEqualTheRowSubtreeWalkOnRandomPatterns) {
  std::mt19937 rng(5);
  int64_t filled = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 120);
    std::vector<std::pair<int, int>> edges;
    const int m = static_cast<int>(rng() % (3 * n + 1));
    for (int e = 0; e < m; ++e) {
      const int i = static_cast<int>(rng() % n),
                j = static_cast<int>(rng() % n);
      if (i != j) edges.push_back({i, j});
    }
    const CsrMatrix a = Graph(n, edges);
    std::vector<int32_t> inverse(n);
    for (int i = 0; i < n; ++i) inverse[i] = i;
    std::shuffle(inverse.begin(), inverse.end(), rng);
    const LowerRowPattern rows = PermutedLowerRows(a, inverse);
    const std::vector<int32_t> parent = EliminationTree(rows, n);
    const std::vector<int64_t> walked = WalkedCounts(rows, parent);
    ASSERT_EQ(BelowDiagonalCounts(rows, parent), walked) << "trial " << trial;
    for (int64_t c : walked) filled += c;
  }
  EXPECT_GT(filled, 1000);  // the patterns did fill
}

}  // namespace
}  // namespace factord
