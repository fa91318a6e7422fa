// The symbolic structure of the multifrontal LDL^T as the numeric kernels
// read it: the permuted lower triangle, the fronts in postorder, their
// update rows and the assembly plan, and the packed layout of a
// contribution block. Built by core/ldlt/ldlt_symbolic.h (BuildLdltSymbolic,
// PlanLdltAssembly); kept here so that the kernels depend only on data
// types of their own folder.
#ifndef FACTORD_LDLT_KERNELS_SYMBOLIC_TYPES_H_
#define FACTORD_LDLT_KERNELS_SYMBOLIC_TYPES_H_

#include <cstdint>
#include <vector>

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

// Entries of the packed lower triangle of an rc x rc contribution block;
// column b starts at PackedColumn(rc, b) and holds rows b..rc-1.
inline int64_t PackedSize(int64_t rc) { return rc * (rc + 1) / 2; }
inline int64_t PackedColumn(int64_t rc, int64_t b) {
  return b * rc - b * (b - 1) / 2;
}

}  // namespace factord::internal

#endif  // FACTORD_LDLT_KERNELS_SYMBOLIC_TYPES_H_
