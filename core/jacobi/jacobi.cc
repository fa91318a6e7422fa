// Scalar Jacobi: the baseline the block-Jacobi of S3 is compared with.
#include "core/jacobi/jacobi.h"

#include <cmath>

#include "core/linalg/blas.h"

namespace factord {

JacobiPreconditioner::JacobiPreconditioner(const CsrMatrix& a,
                                           std::span<const double> shift)
    : inverse_diagonal_(a.rows, 0.0) {
  std::vector<double> diagonal(a.rows, 0.0);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (a.col_idx[k] == i) diagonal[i] = a.values[k];
    }
    if (!shift.empty()) diagonal[i] += shift[i];
  }
  for (int64_t i = 0; i < a.rows; ++i) {
    const double inverse = 1.0 / diagonal[i];
    if (diagonal[i] != 0 && std::isfinite(diagonal[i]) &&
        std::isfinite(inverse)) {
      inverse_diagonal_[i] = inverse;
    } else {
      inverse_diagonal_[i] = 1.0;
      if (zero_diagonals_++ == 0) first_zero_diagonal_ = i;
    }
  }
}

void JacobiPreconditioner::Apply(const ExecContext& ctx,
                                 std::span<const double> r,
                                 std::span<double> z) const {
  linalg::PointwiseProduct(ctx, inverse_diagonal_, r, z);
}

}  // namespace factord
