// ExpandSymmetric: both triangles of a symmetric-lower matrix, once per
// factorization, so that the kernels only handle general CSR.
//
// Two passes (count, fill). Rows come out sorted without a sort: row j first
// receives its own stored entries (columns <= j, already sorted) when row j
// is visited, then the mirrored entries (j, i) of later rows i > j in
// increasing i. Explicit zeros are kept.
#include <cstdint>
#include <vector>

#include "core/matrix/csr.h"

namespace factord {

CsrMatrix ExpandSymmetric(const CsrMatrix& lower) {
  if (!IsSymmetric(lower.structure)) return lower;
  const int64_t n = lower.rows;
  CsrMatrix full;
  full.rows = lower.rows;
  full.cols = lower.cols;
  full.structure = Structure::kGeneral;
  std::vector<int64_t> count(n + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = lower.row_ptr[i]; k < lower.row_ptr[i + 1]; ++k) {
      const int64_t j = lower.col_idx[k];
      ++count[i + 1];
      if (j != i) ++count[j + 1];
    }
  }
  full.row_ptr.assign(n + 1, 0);
  for (int64_t i = 0; i < n; ++i)
    full.row_ptr[i + 1] = full.row_ptr[i] + count[i + 1];
  const int64_t nnz = full.row_ptr[n];
  full.col_idx.resize(nnz);
  full.values.resize(nnz);
  std::vector<int64_t> next(full.row_ptr.begin(), full.row_ptr.end() - 1);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = lower.row_ptr[i]; k < lower.row_ptr[i + 1]; ++k) {
      const int32_t j = lower.col_idx[k];
      const double v = lower.values[k];
      full.col_idx[next[i]] = j;
      full.values[next[i]++] = v;
      if (j != i) {
        full.col_idx[next[j]] = static_cast<int32_t>(i);
        full.values[next[j]++] = v;
      }
    }
  }
  return full;
}

}  // namespace factord
