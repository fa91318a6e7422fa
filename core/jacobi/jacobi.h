// Scalar Jacobi (diagonal) preconditioner: M = diag(A).
//
// A zero or non-finite diagonal entry is not divided by: it is counted,
// the first one is remembered, and M^{-1} has 1 there (z_i = r_i), so the
// preconditioner stays finite and symmetric.
#ifndef FACTORD_JACOBI_JACOBI_H_
#define FACTORD_JACOBI_JACOBI_H_

#include <cstdint>
#include <vector>

#include "core/krylov/operator.h"
#include "core/matrix/csr.h"

namespace factord {

class JacobiPreconditioner final : public Preconditioner {
 public:
  // From the diagonal of the square matrix `a` (any Structure), plus
  // `shift[i]` when `shift` is non-empty (size a.rows). Copies what it needs.
  explicit JacobiPreconditioner(const CsrMatrix& a,
                                std::span<const double> shift = {});

  int64_t size() const override {
    return static_cast<int64_t>(inverse_diagonal_.size());
  }
  // z_i = r_i / a_ii (r_i where a_ii was zero).
  void Apply(const ExecContext& ctx, std::span<const double> r,
             std::span<double> z) const override;

  int64_t zero_diagonals() const { return zero_diagonals_; }
  int64_t first_zero_diagonal() const { return first_zero_diagonal_; }  // -1
  int64_t bytes() const {
    return static_cast<int64_t>(inverse_diagonal_.size() * sizeof(double));
  }

 private:
  std::vector<double> inverse_diagonal_;
  int64_t zero_diagonals_ = 0;
  int64_t first_zero_diagonal_ = -1;
};

}  // namespace factord

#endif  // FACTORD_JACOBI_JACOBI_H_
