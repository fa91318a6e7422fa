// Nested-dissection ordering through METIS_NodeND (METIS 5.1, 32-bit idx_t
// in Debian: the graph is converted at the call).
#ifndef FACTORD_ORDER_METIS_H_
#define FACTORD_ORDER_METIS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/matrix/csr.h"

namespace factord {

// The METIS nested-dissection ordering of the pattern of A + A^T (values are
// not read). `a` is square, general or symmetric-lower. Returns perm with
// a.rows entries: perm[k] is the original index of the k-th ordered
// variable. InvalidArgument when the graph does not fit 32-bit indices.
absl::StatusOr<std::vector<int32_t>> MetisOrdering(const CsrMatrix& a);

}  // namespace factord

#endif  // FACTORD_ORDER_METIS_H_
