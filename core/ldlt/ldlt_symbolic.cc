// Symbolic LDL^T analysis: etree by Liu's algorithm with path compression,
// column counts by row-subtree traversal (O(nnz(L)), core/order/
// elimination_tree.h), fundamental
// supernodes, and CHOLMOD-style relaxed amalgamation of a front with its
// last child (contiguous columns in postorder) when the explicit zeros this
// adds stay within bounds.
#include "core/ldlt/ldlt_symbolic.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "core/order/elimination_tree.h"

namespace factord::internal {

int64_t LdltSymbolic::bytes() const {
  return static_cast<int64_t>(
      (perm.size() + inverse.size() + col_rows.size() + front_begin.size() +
       front_parent.size() + update_rows.size() + child_ptr.size() +
       children.size() + pair_first.size() + entry_local.size() +
       update_local.size() + first_descendant.size() + roots.size()) *
          sizeof(int32_t) +
      (col_ptr.size() + col_src.size() + update_ptr.size() +
       subtree_work.size() + factor_offset.size() + row_offset.size()) *
          sizeof(int64_t));
}

absl::StatusOr<LdltSymbolic> BuildLdltSymbolic(
    const CsrMatrix& a, const std::vector<int32_t>& fill_perm,
    std::span<const std::pair<int32_t, int32_t>> pairs) {
  if (a.rows != a.cols || static_cast<int64_t>(fill_perm.size()) != a.rows) {
    return absl::InvalidArgumentError(
        "ldlt analysis needs a square matrix and a permutation of its order");
  }
  const int64_t n = a.rows;
  LdltSymbolic sym;
  sym.n = n;

  // Etree of the fill-ordered matrix, then renumber in its postorder (the
  // fill is unchanged and every subtree becomes a contiguous range).
  std::vector<int32_t> inv(n);
  for (int64_t k = 0; k < n; ++k) inv[fill_perm[k]] = k;
  std::vector<int32_t> post =
      Postorder(EliminationTree(PermutedLowerRows(a, inv), n));
  sym.perm.resize(n);
  for (int64_t k = 0; k < n; ++k) sym.perm[k] = fill_perm[post[k]];
  sym.inverse.resize(n);
  for (int64_t k = 0; k < n; ++k) sym.inverse[sym.perm[k]] = k;
  const LowerRowPattern rows = PermutedLowerRows(a, sym.inverse);
  const std::vector<int32_t> parent = EliminationTree(rows, n);

  // Pairs that are still consecutive with j the parent of i (always so when
  // they were consecutive in fill_perm with a stored a_ij): c = i's position.
  std::vector<uint8_t> keep_with_next(n, 0);
  for (const auto& [i, j] : pairs) {
    if (i < 0 || j < 0 || i >= n || j >= n) continue;
    const int32_t c = std::min(sym.inverse[i], sym.inverse[j]);
    if (std::max(sym.inverse[i], sym.inverse[j]) == c + 1 &&
        parent[c] == c + 1) {
      keep_with_next[c] = 1;
    }
  }
  for (int64_t c = 0; c < n; ++c) {
    if (keep_with_next[c]) sym.pair_first.push_back(c);
  }

  // Column counts (strictly below the diagonal) by row subtrees.
  const std::vector<int64_t> below = BelowDiagonalCounts(rows, parent);
  std::vector<int32_t> child_count(n, 0);
  for (int64_t j = 0; j < n; ++j) {
    if (parent[j] != -1) ++child_count[parent[j]];
  }

  // Fundamental supernodes: j joins j-1 when j is j-1's parent, its only
  // child, and their columns share a structure.
  std::vector<int32_t> fundamental_begin;
  for (int64_t j = 0; j < n; ++j) {
    const bool joins = j > 0 && parent[j - 1] == j && child_count[j] == 1 &&
                       below[j - 1] == below[j] + 1;
    if (!joins) fundamental_begin.push_back(j);
  }
  fundamental_begin.push_back(n);

  // Relaxed amalgamation (CHOLMOD's nrelax/zrelax rule): the group being
  // built absorbs the next supernode when that one is its parent.
  std::vector<int32_t>& begin = sym.front_begin;
  {
    const int64_t num_fundamental = fundamental_begin.size() - 1;
    int64_t group_begin = 0, group_true_nnz = 0;
    for (int64_t s = 0; s < num_fundamental; ++s) {
      const int64_t f = fundamental_begin[s], l = fundamental_begin[s + 1];
      int64_t nnz_s = 0;
      for (int64_t c = f; c < l; ++c) nnz_s += below[c] + 1;
      if (s == 0) {
        group_begin = f;
        group_true_nnz = nnz_s;
        continue;
      }
      bool merge = parent[f - 1] == f;  // previous group's last column
      // A 2x2 candidate across the boundary always merges (f - 1's parent
      // is f, so this is a valid amalgamation, only with more zeros).
      if (merge && !keep_with_next[f - 1]) {
        const int64_t k = l - group_begin;
        const int64_t r = below[f] - (l - 1 - f);  // rows below l - 1
        const double storage = 0.5 * k * (k + 1) + double(k) * (r > 0 ? r : 0);
        const double zeros = storage - (group_true_nnz + nnz_s);
        const double zfrac = storage > 0 ? zeros / storage : 0;
        merge = k <= 4 || (k <= 16 && zfrac < 0.8) ||
                (k <= 48 && zfrac < 0.1) || zfrac < 0.05;
      }
      if (merge) {
        group_true_nnz += nnz_s;
      } else {
        begin.push_back(group_begin);
        group_begin = f;
        group_true_nnz = nnz_s;
      }
    }
    if (n > 0) begin.push_back(group_begin);
    begin.push_back(n);
  }
  const int64_t num_fronts = begin.size() - 1;
  std::vector<int32_t> front_of(n);
  for (int64_t f = 0; f < num_fronts; ++f) {
    for (int32_t c = begin[f]; c < begin[f + 1]; ++c) front_of[c] = f;
  }
  sym.front_parent.assign(num_fronts, -1);
  for (int64_t f = 0; f < num_fronts; ++f) {
    const int32_t p = parent[begin[f + 1] - 1];
    if (p != -1) sym.front_parent[f] = front_of[p];
  }
  sym.child_ptr.assign(num_fronts + 1, 0);
  for (int64_t f = 0; f < num_fronts; ++f) {
    if (sym.front_parent[f] != -1) ++sym.child_ptr[sym.front_parent[f] + 1];
  }
  for (int64_t f = 0; f < num_fronts; ++f) {
    sym.child_ptr[f + 1] += sym.child_ptr[f];
  }
  sym.children.resize(sym.child_ptr[num_fronts]);
  {
    std::vector<int32_t> next(sym.child_ptr.begin(), sym.child_ptr.end() - 1);
    for (int64_t f = 0; f < num_fronts; ++f) {
      if (sym.front_parent[f] != -1) {
        sym.children[next[sym.front_parent[f]]++] = f;
      }
    }
  }

  // The permuted lower triangle by column, with the gather map.
  sym.col_ptr.assign(n + 1, 0);
  std::vector<uint8_t> has_diagonal(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t pi = sym.inverse[i], pj = sym.inverse[a.col_idx[k]];
      if (pi == pj) has_diagonal[pi] = 1;
      ++sym.col_ptr[std::min(pi, pj) + 1];
    }
  }
  for (int64_t c = 0; c < n; ++c) {
    if (!has_diagonal[c]) ++sym.col_ptr[c + 1];
    sym.col_ptr[c + 1] += sym.col_ptr[c];
  }
  sym.col_rows.resize(sym.col_ptr[n]);
  sym.col_src.resize(sym.col_ptr[n]);
  {
    std::vector<int64_t> next(sym.col_ptr.begin(), sym.col_ptr.end() - 1);
    for (int64_t c = 0; c < n; ++c) {  // the diagonal slot first
      sym.col_rows[next[c]] = c;
      sym.col_src[next[c]++] = -1;
    }
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        const int32_t pi = sym.inverse[i], pj = sym.inverse[a.col_idx[k]];
        if (pi == pj) {
          sym.col_src[sym.col_ptr[pi]] = k;
          continue;
        }
        const int32_t c = std::min(pi, pj);
        sym.col_rows[next[c]] = std::max(pi, pj);
        sym.col_src[next[c]++] = k;
      }
    }
  }

  // Update rows of each front: its original entries below its columns and
  // its children's update rows below its columns (children come first).
  sym.update_ptr.assign(num_fronts + 1, 0);
  sym.subtree_work.assign(num_fronts, 0);
  {
    std::vector<int32_t> mark(n, -1);
    std::vector<int32_t> list;
    for (int64_t f = 0; f < num_fronts; ++f) {
      const int32_t last = begin[f + 1] - 1;
      list.clear();
      for (int32_t c = begin[f]; c <= last; ++c) {
        for (int64_t e = sym.col_ptr[c]; e < sym.col_ptr[c + 1]; ++e) {
          const int32_t r = sym.col_rows[e];
          if (r > last && mark[r] != f) {
            mark[r] = f;
            list.push_back(r);
          }
        }
      }
      for (int32_t k = sym.child_ptr[f]; k < sym.child_ptr[f + 1]; ++k) {
        const int32_t child = sym.children[k];
        for (int64_t e = sym.update_ptr[child]; e < sym.update_ptr[child + 1];
             ++e) {
          const int32_t r = sym.update_rows[e];
          if (r > last && mark[r] != f) {
            mark[r] = f;
            list.push_back(r);
          }
        }
      }
      std::sort(list.begin(), list.end());
      sym.update_rows.insert(sym.update_rows.end(), list.begin(), list.end());
      sym.update_ptr[f + 1] = sym.update_rows.size();
      const int64_t k = begin[f + 1] - begin[f];
      const int64_t r = list.size();
      sym.nnz_factor += k * (k + 1) / 2 + k * r;
      sym.max_front = std::max(sym.max_front, k + r);
      // Work of the front: partial factorization plus the Schur update.
      int64_t work = k * (k + r) * (k + r) + r * r * k;
      for (int32_t c = sym.child_ptr[f]; c < sym.child_ptr[f + 1]; ++c) {
        work += sym.subtree_work[sym.children[c]];
      }
      sym.subtree_work[f] = work;
    }
  }
  PlanLdltAssembly(&sym);
  return sym;
}

}  // namespace factord::internal
