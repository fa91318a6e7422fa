// The identity preconditioner and the CSR operator.
#include "core/krylov/operator.h"

#include "core/linalg/blas.h"
#include "core/linalg/spmv.h"

namespace factord {

void IdentityPreconditioner::Apply(const ExecContext& ctx,
                                   std::span<const double> r,
                                   std::span<double> z) const {
  linalg::Copy(ctx, r, z);
}

void CsrOperator::Apply(const ExecContext& ctx, std::span<const double> x,
                        std::span<double> y) const {
  linalg::Spmv(ctx, a_, x, y);
}

}  // namespace factord
