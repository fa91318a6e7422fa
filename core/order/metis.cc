// METIS_NodeND on the adjacency graph of A + A^T without self loops. Debian's
// METIS has 32-bit idx_t: the graph is built in idx_t and refused when it
// does not fit.
#include "core/order/metis.h"

#include <algorithm>
#include <limits>
#include <vector>

// Angle brackets: the system METIS, not core/order/metis.h beside this file.
#include <metis.h>

#include "absl/strings/str_cat.h"

namespace factord {

absl::StatusOr<std::vector<int32_t>> MetisOrdering(const CsrMatrix& a) {
  if (a.rows != a.cols) {
    return absl::InvalidArgumentError("METIS needs a square matrix");
  }
  const int64_t n = a.rows;
  std::vector<int32_t> perm(n);
  if (n == 0) return perm;
  // Degrees of A + A^T without the diagonal (duplicates from a general
  // matrix's (i,j) and (j,i) are removed after sorting).
  std::vector<std::vector<idx_t>> adjacency(n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int64_t j = a.col_idx[k];
      if (j == i) continue;
      adjacency[i].push_back(static_cast<idx_t>(j));
      adjacency[j].push_back(static_cast<idx_t>(i));
    }
  }
  std::vector<idx_t> xadj(n + 1, 0);
  std::vector<idx_t> adjncy;
  for (int64_t i = 0; i < n; ++i) {
    auto& list = adjacency[i];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    if (adjncy.size() + list.size() >
        static_cast<size_t>(std::numeric_limits<idx_t>::max())) {
      return absl::InvalidArgumentError(
          "graph too large for METIS 32-bit indices");
    }
    adjncy.insert(adjncy.end(), list.begin(), list.end());
    xadj[i + 1] = static_cast<idx_t>(adjncy.size());
  }
  if (adjncy.empty()) {  // a diagonal matrix: any order is optimal
    for (int64_t k = 0; k < n; ++k) perm[k] = k;
    return perm;
  }
  idx_t nvtxs = static_cast<idx_t>(n);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  std::vector<idx_t> metis_perm(n), metis_iperm(n);
  const int status =
      METIS_NodeND(&nvtxs, xadj.data(), adjncy.data(), nullptr, options,
                   metis_perm.data(), metis_iperm.data());
  if (status != METIS_OK) {
    return absl::InternalError(absl::StrCat("METIS_NodeND failed: ", status));
  }
  // METIS: row i of the permuted matrix is row perm[i] of A.
  for (int64_t k = 0; k < n; ++k) perm[k] = metis_perm[k];
  return perm;
}

}  // namespace factord
