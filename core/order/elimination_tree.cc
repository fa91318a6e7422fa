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
  // Gilbert, Ng and Peyton's algorithm (Davis, Direct Methods for Sparse
  // Linear Systems, §4.5): in postorder, each entry a_ij (i > j) that is a
  // leaf of row i's subtree adds one to column j and subtracts one at the
  // least common ancestor of j and the previous leaf of that row subtree
  // (found with path-compressed ancestors); summing the deltas over each
  // subtree gives the counts. O(nnz(A) alpha(n)) against O(nnz(L)) for a
  // walk of every row subtree.
  const int64_t n = parent.size();
  // The strictly lower pattern by columns: rows i > j of column j.
  std::vector<int64_t> col_ptr(n + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = rows.ptr[i]; k < rows.ptr[i + 1]; ++k) {
      ++col_ptr[rows.cols[k] + 1];
    }
  }
  for (int64_t j = 0; j < n; ++j) col_ptr[j + 1] += col_ptr[j];
  std::vector<int32_t> col_rows(col_ptr[n]);
  {
    std::vector<int64_t> next(col_ptr.begin(), col_ptr.end() - 1);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t k = rows.ptr[i]; k < rows.ptr[i + 1]; ++k) {
        col_rows[next[rows.cols[k]]++] = static_cast<int32_t>(i);
      }
    }
  }
  const std::vector<int32_t> post = Postorder(parent);
  // first[j]: postorder number of the first descendant of j.
  std::vector<int32_t> first(n, -1), max_first(n, -1), prev_leaf(n, -1),
      ancestor(n);
  std::vector<int64_t> delta(n, 0);
  for (int64_t k = 0; k < n; ++k) {
    int32_t j = post[k];
    delta[j] = first[j] == -1 ? 1 : 0;  // 1 for a leaf of the etree
    for (; j != -1 && first[j] == -1; j = parent[j]) {
      first[j] = static_cast<int32_t>(k);
    }
  }
  for (int64_t i = 0; i < n; ++i) ancestor[i] = static_cast<int32_t>(i);
  for (int64_t k = 0; k < n; ++k) {
    const int32_t j = post[k];
    if (parent[j] != -1) --delta[parent[j]];  // j is not a root
    for (int64_t e = col_ptr[j]; e < col_ptr[j + 1]; ++e) {
      const int32_t i = col_rows[e];
      // j is a leaf of row i's subtree unless a descendant of j already
      // was one (first[j] <= max_first[i]).
      if (i <= j || first[j] <= max_first[i]) continue;
      max_first[i] = first[j];
      const int32_t jprev = prev_leaf[i];
      prev_leaf[i] = j;
      ++delta[j];
      if (jprev == -1) continue;  // the first leaf of the row subtree
      // The least common ancestor of jprev and j, compressing the path.
      int32_t q = jprev;
      while (q != ancestor[q]) q = ancestor[q];
      for (int32_t s = jprev; s != q;) {
        const int32_t up = ancestor[s];
        ancestor[s] = q;
        s = up;
      }
      --delta[q];
    }
    if (parent[j] != -1) ancestor[j] = parent[j];
  }
  // Column counts with the diagonal: each node's delta summed over its
  // subtree (children come before parents in postorder).
  for (int64_t k = 0; k < n; ++k) {
    const int32_t j = post[k];
    if (parent[j] != -1) delta[parent[j]] += delta[j];
  }
  for (int64_t j = 0; j < n; ++j) --delta[j];  // strictly below
  return delta;
}

}  // namespace factord
