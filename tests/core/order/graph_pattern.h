// Test patterns for the ordering tests: the symmetric-lower matrix (values
// 1, with a diagonal) of an undirected graph.
#ifndef FACTORD_TESTS_CORE_ORDER_GRAPH_PATTERN_H_
#define FACTORD_TESTS_CORE_ORDER_GRAPH_PATTERN_H_

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/matrix/csr.h"

namespace factord {

inline CsrMatrix Graph(int n, const std::vector<std::pair<int, int>>& edges) {
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

}  // namespace factord

#endif  // FACTORD_TESTS_CORE_ORDER_GRAPH_PATTERN_H_
