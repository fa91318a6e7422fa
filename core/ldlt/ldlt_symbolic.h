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
#include "core/ldlt/kernels/symbolic_types.h"
#include "core/matrix/csr.h"

namespace factord::internal {

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

}  // namespace factord::internal

#endif  // FACTORD_LDLT_LDLT_SYMBOLIC_H_
