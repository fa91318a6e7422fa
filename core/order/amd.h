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

// AMD's own statistics of its order (amd Info), as CHOLMOD's cholmod_amd
// turns them into its Common->fl and Common->lnz: slight upper bounds (mass
// elimination with approximate degrees), rough ones when AMD removed dense
// rows.
struct AmdStatistics {
  double flops = 0;       // Info[AMD_NDIV] + 2 Info[AMD_NMULTSUBS_LDL] + n
  double nnz_factor = 0;  // n + Info[AMD_LNZ]: nnz(L) with the diagonal
  // n + Info[AMD_NZ_A_PLUS_AT] / 2: nnz(tril(A + A^T)) with the diagonal
  // (CHOLMOD's Common->anz).
  double nnz_lower = 0;
};

// The AMD ordering of the pattern of A + A^T (values are not read). `a` is
// square, general or symmetric-lower; diagonal entries are ignored. Returns
// perm with a.rows entries: perm[k] is the original index of the k-th
// variable of the ordered matrix. `statistics` (optional) receives AMD's
// statistics of that order.
absl::StatusOr<std::vector<int32_t>> AmdOrdering(
    const CsrMatrix& a, AmdStatistics* statistics = nullptr);

}  // namespace factord

#endif  // FACTORD_ORDER_AMD_H_
