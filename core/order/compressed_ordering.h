// Fill-reducing ordering that keeps 2x2 pivot candidates together (S1 §II:
// "the matrix is compressed such that 2x2 pivots are kept"; Duff & Pralet
// 2005, MUMPS ICNTL(12) = 2). Each candidate pair (i, j) becomes one node of
// a compressed graph whose adjacency is the union of the two rows; the
// compressed graph is ordered with the requested ordering and expanded so
// that every pair is eliminated consecutively, i then j.
//
// Limits: the compressed graph is unweighted, so the fill-reducing ordering
// sees a pair as one variable (MUMPS passes the same unweighted graph to
// AMD); with few pairs this is the plain ordering.
#ifndef FACTORD_ORDER_COMPRESSED_ORDERING_H_
#define FACTORD_ORDER_COMPRESSED_ORDERING_H_

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"

namespace factord {

// The symmetric-lower pattern of the graph of `a` (square, symmetric-lower
// or general; values are not read) compressed by `pairs`: pair p becomes
// node p, the indices in no pair follow in increasing order. node_of (a.rows
// entries) receives the node of every index. The result stores a diagonal
// entry per node and has no values.
CsrMatrix CompressPairs(const CsrMatrix& a,
                        std::span<const std::pair<int32_t, int32_t>> pairs,
                        std::vector<int32_t>* node_of);

// A symmetric permutation of `a` (perm[k] = original index of the k-th
// variable, a.rows entries) by `ordering` on the compressed graph, with
// pair (i, j) at consecutive positions, i first. `pairs` must be disjoint,
// in range and have i != j (InvalidArgument otherwise); neither `a` nor
// `pairs` is modified. Without pairs it is ComputeOrdering(a, ordering).
absl::StatusOr<std::vector<int32_t>> CompressedPairOrdering(
    const CsrMatrix& a, std::span<const std::pair<int32_t, int32_t>> pairs,
    Ordering ordering);

}  // namespace factord

#endif  // FACTORD_ORDER_COMPRESSED_ORDERING_H_
