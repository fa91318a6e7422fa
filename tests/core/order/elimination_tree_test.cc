// Elimination tree, postorder and column counts on tiny hand-built patterns
// with known answers: an arrow matrix with its dense row first (everything
// fills) and last (nothing fills), and a matrix of two components.
#include "core/order/elimination_tree.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace factord {
namespace {

// Symmetric-lower pattern (values 1) of the edges, with a diagonal.
CsrMatrix Graph(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<std::vector<int32_t>> rows(n);
  for (int i = 0; i < n; ++i) rows[i].push_back(i);
  for (auto [i, j] : edges) rows[std::max(i, j)].push_back(std::min(i, j));
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    a.col_idx.insert(a.col_idx.end(), row.begin(), row.end());
    a.row_ptr.push_back(a.col_idx.size());
  }
  a.values.assign(a.col_idx.size(), 1.0);
  return a;
}

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

}  // namespace
}  // namespace factord
