// Sparse matrix-vector product y = A x for a general CSR matrix: one
// signature, two implementations.
//
// `a` must be general (Structure::kGeneral, both triangles stored): a
// symmetric-lower matrix is expanded once at factorization time
// (ExpandSymmetric). Each row's sum is accumulated serially in column
// order, so the cpu backend (rows split into fixed chunks on a TBB arena of
// ctx.threads) is bitwise identical to the reference. Empty rows give 0.
#ifndef FACTORD_LINALG_KERNELS_SPMV_KERNELS_H_
#define FACTORD_LINALG_KERNELS_SPMV_KERNELS_H_

#include <span>

#include "core/base/exec_context.h"
#include "core/matrix/csr.h"

namespace factord::kernels {

namespace reference {
// y = A x. x has a.cols entries, y has a.rows; they must not overlap.
void Spmv(const ExecContext& ctx, const CsrMatrix& a, std::span<const double> x,
          std::span<double> y);
}  // namespace reference

namespace cpu {
void Spmv(const ExecContext& ctx, const CsrMatrix& a, std::span<const double> x,
          std::span<double> y);
}  // namespace cpu

}  // namespace factord::kernels

#endif  // FACTORD_LINALG_KERNELS_SPMV_KERNELS_H_
