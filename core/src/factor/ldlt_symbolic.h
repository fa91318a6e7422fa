// Symbolic analysis of the complete LDL^T (method ldlt): fill-reducing
// ordering, elimination tree (Liu), postorder, column counts, fundamental
// supernodes and relaxed amalgamation into fronts, the update-row structure
// of each front, and the gather map from the uploaded values to the permuted
// lower triangle. Depends only on the pattern and the ordering, so it is
// computed once and reused unchanged when the values change (S1 §IV-A: all
// set-up on the host, before any numeric work).
//
// The symbolic structure assumes no pivoting; pivots a front cannot supply
// are delayed to the parent at factorization time (S2 §V push-back), which
// the numeric phase handles by growing the parent's front.
#ifndef FACTORD_SRC_FACTOR_LDLT_SYMBOLIC_H_
#define FACTORD_SRC_FACTOR_LDLT_SYMBOLIC_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "factord/matrix/csr.h"

namespace factord::internal {

struct LdltSymbolic {
  int64_t n = 0;
  // perm[k]: original index of the k-th variable (fill order then etree
  // postorder); inverse[perm[k]] = k. Indices below are in this order.
  std::vector<int32_t> perm;
  std::vector<int32_t> inverse;

  // The permuted lower triangle by column: column c holds rows >= c, the
  // diagonal first (always present; src -1 when the pattern has none).
  // src is the index into the uploaded values (a.values).
  std::vector<int64_t> col_ptr;   // n + 1
  std::vector<int32_t> col_rows;  // col_ptr[n]
  std::vector<int64_t> col_src;   // col_ptr[n]

  // Fronts (amalgamated supernodes) in postorder: children precede parents.
  // Front f eliminates its own columns [front_begin[f], front_begin[f+1])
  // and passes updates to its update rows (all > its columns, ascending).
  std::vector<int32_t> front_begin;   // num_fronts + 1
  std::vector<int32_t> front_parent;  // num_fronts, -1 for a root
  std::vector<int64_t> update_ptr;    // num_fronts + 1
  std::vector<int32_t> update_rows;   // update_ptr[num_fronts]
  std::vector<int32_t> child_ptr;     // num_fronts + 1
  std::vector<int32_t> children;      // child_ptr[num_fronts]
  std::vector<int64_t> subtree_work;  // num_fronts: flops estimate of
                                      // the subtree rooted at each front

  int64_t nnz_factor = 0;  // entries of L (with the diagonal), no delays
  int64_t max_front = 0;   // largest front order, no delays

  int64_t num_fronts() const {
    return static_cast<int64_t>(front_parent.size());
  }
  int64_t bytes() const;
};

// Builds the symbolic structure of the symmetric-lower matrix `a` (square)
// under the fill-reducing permutation `fill_perm` (a.rows entries,
// fill_perm[k] = original index of the k-th variable). Values are not read.
absl::StatusOr<LdltSymbolic> BuildLdltSymbolic(
    const CsrMatrix& a, const std::vector<int32_t>& fill_perm);

}  // namespace factord::internal

#endif  // FACTORD_SRC_FACTOR_LDLT_SYMBOLIC_H_
