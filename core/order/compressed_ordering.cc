// Compressed-graph ordering for 2x2 pivot candidates (S1 §II; Duff & Pralet
// 2005): compress each pair to one node, order, expand pairs consecutively.
#include "core/order/compressed_ordering.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/order/ordering.h"

namespace factord {

CsrMatrix CompressPairs(const CsrMatrix& a,
                        std::span<const std::pair<int32_t, int32_t>> pairs,
                        std::vector<int32_t>* node_of) {
  const int64_t n = a.rows;
  node_of->assign(n, -1);
  int32_t nodes = 0;
  for (const auto& [i, j] : pairs) {
    (*node_of)[i] = (*node_of)[j] = nodes++;
  }
  for (int64_t i = 0; i < n; ++i) {
    if ((*node_of)[i] == -1) (*node_of)[i] = nodes++;
  }
  // Both triangles of the compressed graph: node u's neighbours are the
  // union of its members' rows (A + A^T), deduplicated by a marker.
  std::vector<std::vector<int32_t>> adjacency(nodes);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t u = (*node_of)[i], v = (*node_of)[a.col_idx[k]];
      if (u == v) continue;
      adjacency[std::max(u, v)].push_back(std::min(u, v));
    }
  }
  CsrMatrix c;
  c.rows = c.cols = nodes;
  c.structure = Structure::kSymmetricLower;
  c.row_ptr.reserve(nodes + 1);
  c.row_ptr.push_back(0);
  for (int32_t u = 0; u < nodes; ++u) {
    std::vector<int32_t>& row = adjacency[u];
    row.push_back(u);  // the diagonal
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    c.col_idx.insert(c.col_idx.end(), row.begin(), row.end());
    c.row_ptr.push_back(static_cast<int64_t>(c.col_idx.size()));
    std::vector<int32_t>().swap(row);
  }
  return c;
}

absl::StatusOr<std::vector<int32_t>> CompressedPairOrdering(
    const CsrMatrix& a, std::span<const std::pair<int32_t, int32_t>> pairs,
    Ordering ordering) {
  if (a.rows != a.cols) {
    return absl::InvalidArgumentError(
        "a compressed ordering needs a square "
        "matrix");
  }
  const int64_t n = a.rows;
  std::vector<uint8_t> seen(n, 0);
  for (const auto& [i, j] : pairs) {
    if (i < 0 || j < 0 || i >= n || j >= n || i == j || seen[i] || seen[j]) {
      return absl::InvalidArgumentError(
          absl::StrCat("2x2 pair (", i, ", ", j,
                       ") is out of range, degenerate or not disjoint"));
    }
    seen[i] = seen[j] = 1;
  }
  if (pairs.empty()) return ComputeOrdering(a, ordering);
  std::vector<int32_t> node_of;
  const CsrMatrix compressed = CompressPairs(a, pairs, &node_of);
  auto node_perm = ComputeOrdering(compressed, ordering);
  if (!node_perm.ok()) return node_perm.status();
  // Members of each node: the pair (i first), or the single index.
  const int64_t num_pairs = static_cast<int64_t>(pairs.size());
  std::vector<int32_t> single(compressed.rows - num_pairs);
  for (int64_t i = 0; i < n; ++i) {
    if (node_of[i] >= num_pairs) single[node_of[i] - num_pairs] = i;
  }
  std::vector<int32_t> perm;
  perm.reserve(n);
  for (int32_t u : *node_perm) {
    if (u < num_pairs) {
      perm.push_back(pairs[u].first);
      perm.push_back(pairs[u].second);
    } else {
      perm.push_back(single[u - num_pairs]);
    }
  }
  return perm;
}

}  // namespace factord
