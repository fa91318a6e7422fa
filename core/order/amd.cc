// AMD through SuiteSparse amd_l_order. AMD orders the pattern of A + A^T, so
// the stored lower triangle (read as the CSC upper triangle) is passed as is.
#include "core/order/amd.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "suitesparse/amd.h"

namespace factord {

absl::StatusOr<std::vector<int32_t>> AmdOrdering(const CsrMatrix& a,
                                                 AmdStatistics* statistics) {
  if (a.rows != a.cols) {
    return absl::InvalidArgumentError("AMD needs a square matrix");
  }
  const int64_t n = a.rows;
  std::vector<int32_t> perm(n);
  if (statistics != nullptr) *statistics = AmdStatistics();
  if (n == 0) return perm;
  // The CSR rows of A are the CSC columns of A^T: same pattern for A + A^T.
  std::vector<SuiteSparse_long> ap(a.row_ptr.begin(), a.row_ptr.end());
  std::vector<SuiteSparse_long> ai(a.col_idx.begin(), a.col_idx.end());
  std::vector<SuiteSparse_long> p(n);
  double control[AMD_CONTROL];
  double info[AMD_INFO];
  amd_l_defaults(control);
  const int status =
      amd_l_order(n, ap.data(), ai.data(), p.data(), control, info);
  if (status != AMD_OK && status != AMD_OK_BUT_JUMBLED) {
    return absl::InternalError(absl::StrCat("amd_l_order failed: ", status));
  }
  for (int64_t k = 0; k < n; ++k) perm[k] = static_cast<int32_t>(p[k]);
  if (statistics != nullptr) {
    // CHOLMOD/Cholesky/cholmod_amd.c: the LL^T flop count and nnz(L).
    statistics->flops =
        info[AMD_NDIV] + 2 * info[AMD_NMULTSUBS_LDL] + static_cast<double>(n);
    statistics->nnz_factor = info[AMD_LNZ] + static_cast<double>(n);
    statistics->nnz_lower = info[AMD_NZ_A_PLUS_AT] / 2 + static_cast<double>(n);
  }
  return perm;
}

}  // namespace factord
