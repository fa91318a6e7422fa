// The ordering an analysis uses, by name: one dispatch for every method.
#ifndef FACTORD_ORDER_ORDERING_H_
#define FACTORD_ORDER_ORDERING_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"

namespace factord {

// A symmetric permutation of the square matrix `a` (perm[k] = the original
// index of the k-th row): AMD for kAuto and kAmd (fill-reducing), METIS nested
// dissection, RCM (bandwidth), GMC (S1 greedy multicolouring: level sets, not
// fill; expect more fill), or the identity for kNatural. Method ldlt
// resolves kAuto itself, to AMD or METIS (core/order/ordering_choice.h).
absl::StatusOr<std::vector<int32_t>> ComputeOrdering(const CsrMatrix& a,
                                                     Ordering ordering);

}  // namespace factord

#endif  // FACTORD_ORDER_ORDERING_H_
