// Serial CSR product: the source of truth for the cpu backend's tests.
#include "core/linalg/kernels/spmv_kernels.h"

namespace factord::kernels::reference {

void Spmv(const ExecContext&, const CsrMatrix& a, std::span<const double> x,
          std::span<double> y) {
  for (int64_t i = 0; i < a.rows; ++i) {
    double sum = 0;
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      sum += a.values[k] * x[a.col_idx[k]];
    }
    y[i] = sum;
  }
}

}  // namespace factord::kernels::reference
