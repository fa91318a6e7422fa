// Elimination tree (Liu, path compression), postorder and column counts by
// row subtrees: row i of L is the union of the paths from each j with
// a_ij != 0 up the etree towards i, each column counted once per row.
#include "core/order/elimination_tree.h"

#include <algorithm>

namespace factord {

LowerRowPattern PermutedLowerRows(const CsrMatrix& a,
                                  const std::vector<int32_t>& inv) {
  const int64_t n = a.rows;
  LowerRowPattern rows;
  rows.ptr.assign(n + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t pi = inv[i], pj = inv[a.col_idx[k]];
      if (pi != pj) ++rows.ptr[std::max(pi, pj) + 1];
    }
  }
  for (int64_t i = 0; i < n; ++i) rows.ptr[i + 1] += rows.ptr[i];
  rows.cols.resize(rows.ptr[n]);
  std::vector<int64_t> next(rows.ptr.begin(), rows.ptr.end() - 1);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t pi = inv[i], pj = inv[a.col_idx[k]];
      if (pi != pj) rows.cols[next[std::max(pi, pj)]++] = std::min(pi, pj);
    }
  }
  return rows;
}

std::vector<int32_t> EliminationTree(const LowerRowPattern& rows, int64_t n) {
  std::vector<int32_t> parent(n, -1), ancestor(n, -1);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = rows.ptr[i]; k < rows.ptr[i + 1]; ++k) {
      int32_t j = rows.cols[k];
      while (j != -1 && j < i) {
        const int32_t next = ancestor[j];
        ancestor[j] = static_cast<int32_t>(i);
        if (next == -1) parent[j] = static_cast<int32_t>(i);
        j = next;
      }
    }
  }
  return parent;
}

std::vector<int32_t> Postorder(const std::vector<int32_t>& parent) {
  const int64_t n = parent.size();
  std::vector<int32_t> head(n, -1), next(n, -1);
  for (int64_t j = n - 1; j >= 0; --j) {
    if (parent[j] != -1) {
      next[j] = head[parent[j]];
      head[parent[j]] = j;
    }
  }
  std::vector<int32_t> post, stack;
  post.reserve(n);
  for (int64_t root = 0; root < n; ++root) {
    if (parent[root] != -1) continue;
    stack.push_back(root);
    while (!stack.empty()) {
      const int32_t j = stack.back();
      if (head[j] != -1) {
        const int32_t child = head[j];
        head[j] = next[child];
        stack.push_back(child);
      } else {
        stack.pop_back();
        post.push_back(j);
      }
    }
  }
  return post;
}

std::vector<int64_t> BelowDiagonalCounts(const LowerRowPattern& rows,
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

}  // namespace factord
