// Test patterns for the ordering tests: the symmetric-lower matrix (values
// 1, with a diagonal) of an undirected graph.
#ifndef FACTORD_TESTS_CORE_ORDER_GRAPH_PATTERN_H_
#define FACTORD_TESTS_CORE_ORDER_GRAPH_PATTERN_H_

#include <algorithm>
#include <utility>
#include <vector>

#include "core/matrix/csr.h"
#include "tests/core/block_ildlt/block_ildlt_planted.h"

namespace factord {

inline CsrMatrix Graph(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<testing::Entry> entries;
  for (int i = 0; i < n; ++i) entries.emplace_back(i, i, 1.0);
  for (auto [i, j] : edges) {
    entries.emplace_back(std::max(i, j), std::min(i, j), 1.0);
  }
  return testing::LowerFromEntries(n, std::move(entries));
}

}  // namespace factord

#endif  // FACTORD_TESTS_CORE_ORDER_GRAPH_PATTERN_H_
