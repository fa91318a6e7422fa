// The elimination tree of a symmetric permutation and the column counts of
// its Cholesky factor, from the pattern alone: Liu's etree with path
// compression, a depth-first postorder, and Gilbert, Ng and Peyton's column
// counts (O(nnz(A) alpha(n))). Shared by the ldlt symbolic analysis and the
// prediction that compares fill-reducing orderings.
#ifndef FACTORD_ORDER_ELIMINATION_TREE_H_
#define FACTORD_ORDER_ELIMINATION_TREE_H_

#include <cstdint>
#include <vector>

#include "core/matrix/csr.h"

namespace factord {

// The strictly lower triangle of P A P^T by rows: row i's columns are
// cols[ptr[i]] .. cols[ptr[i + 1] - 1] (unsorted; a general matrix's (i, j)
// and (j, i) both appear).
struct LowerRowPattern {
  std::vector<int64_t> ptr;
  std::vector<int32_t> cols;
};

// The pattern of P A P^T for the square matrix `a` (symmetric-lower or
// general; values not read), with inverse[i] = the new position of
// original index i (a.rows entries). Neither argument is modified.
LowerRowPattern PermutedLowerRows(const CsrMatrix& a,
                                  const std::vector<int32_t>& inverse);

// Liu's elimination tree of the n x n pattern `rows`: parent[j] (n
// entries), -1 for a root.
std::vector<int32_t> EliminationTree(const LowerRowPattern& rows, int64_t n);

// post[k] = node visited k-th in a depth-first postorder of the forest
// `parent` (children in increasing order, so an already postordered tree
// maps to itself).
std::vector<int32_t> Postorder(const std::vector<int32_t>& parent);

// below[j] = nnz of column j of L strictly below the diagonal (n entries),
// for the pattern `rows` and its elimination tree `parent`.
std::vector<int64_t> BelowDiagonalCounts(const LowerRowPattern& rows,
                                         const std::vector<int32_t>& parent);

}  // namespace factord

#endif  // FACTORD_ORDER_ELIMINATION_TREE_H_
