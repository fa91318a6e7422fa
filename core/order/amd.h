// Approximate minimum degree ordering (Amestoy, Davis, Duff; S1 ref. [2])
// through SuiteSparse AMD, for the fill-reducing step of the complete and
// incomplete LDL^T factorizations.
#ifndef FACTORD_ORDER_AMD_H_
#define FACTORD_ORDER_AMD_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/matrix/csr.h"

namespace factord {

// The AMD ordering of the pattern of A + A^T (values are not read). `a` is
// square, general or symmetric-lower; diagonal entries are ignored. Returns
// perm with a.rows entries: perm[k] is the original index of the k-th
// variable of the ordered matrix.
absl::StatusOr<std::vector<int32_t>> AmdOrdering(const CsrMatrix& a);

}  // namespace factord

#endif  // FACTORD_ORDER_AMD_H_
