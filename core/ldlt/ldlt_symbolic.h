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
#ifndef FACTORD_LDLT_LDLT_SYMBOLIC_H_
#define FACTORD_LDLT_LDLT_SYMBOLIC_H_

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/matrix/csr.h"

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

  // Candidate pairs kept in one front: positions c with c and c + 1 a
  // pair of `pairs` (BuildLdltSymbolic), ascending.
  std::vector<int32_t> pair_first;

  int64_t nnz_factor = 0;  // entries of L (with the diagonal), no delays
  int64_t max_front = 0;   // largest front order, no delays

  // The assembly plan (PlanLdltAssembly): everything the numeric phase
  // would otherwise recompute per front at every factorization. A front's
  // nominal local numbering is its own columns, then its update rows; with
  // delayed pivots from children the numeric phase shifts it by their
  // number (they come first), so the plan holds with or without delays.
  std::vector<int32_t> entry_local;       // col_ptr[n]: local row of entry e
                                          // in the front owning its column
  std::vector<int32_t> update_local;      // update_ptr[num_fronts]: local row
                                          // in the parent's front of each
                                          // update row (-1 for a root's)
  std::vector<int32_t> first_descendant;  // num_fronts: first front of the
                                          // subtree (postorder range)
  std::vector<int32_t> roots;             // fronts without a parent
  // Factor slots without delays: front f's L (k + r) x k at
  // factor_offset[f], its k + r row indices at row_offset[f], its pivots'
  // D entries at its first column front_begin[f].
  std::vector<int64_t> factor_offset;  // num_fronts + 1
  std::vector<int64_t> row_offset;     // num_fronts + 1
  // Peak of the contribution-block stack of a postorder traversal without
  // delays (packed lower triangles, doubles), and the largest r x q of a
  // Schur update: the workspace sizes of the numeric phase.
  int64_t max_stack = 0;
  int64_t max_update_panel = 0;

  int64_t num_fronts() const {
    return static_cast<int64_t>(front_parent.size());
  }
  int64_t bytes() const;
};

// Builds the symbolic structure of the symmetric-lower matrix `a` (square)
// under the fill-reducing permutation `fill_perm` (a.rows entries,
// fill_perm[k] = original index of the k-th variable). Values are not read.
// `pairs` (original indices, optional): 2x2 pivot candidates that
// fill_perm places at consecutive positions with a stored entry a_ij
// (CompressedPairOrdering does). The etree postorder keeps such a pair
// consecutive (j is i's parent and i its last child), and the amalgamation
// never puts a front boundary between them, so that the dense kernel sees
// both columns as fully summed in one front (S1 §II). A pair not
// consecutive in fill_perm is ignored.
absl::StatusOr<LdltSymbolic> BuildLdltSymbolic(
    const CsrMatrix& a, const std::vector<int32_t>& fill_perm,
    std::span<const std::pair<int32_t, int32_t>> pairs = {});

// Fills the assembly plan of `sym` (the fields after max_front) from its
// fronts, update rows and column structure. Called by BuildLdltSymbolic.
void PlanLdltAssembly(LdltSymbolic* sym);

// Entries of the packed lower triangle of an rc x rc contribution block;
// column b starts at PackedColumn(rc, b) and holds rows b..rc-1.
inline int64_t PackedSize(int64_t rc) { return rc * (rc + 1) / 2; }
inline int64_t PackedColumn(int64_t rc, int64_t b) {
  return b * rc - b * (b - 1) / 2;
}

}  // namespace factord::internal

#endif  // FACTORD_LDLT_LDLT_SYMBOLIC_H_
