// y = A x for a general CSR matrix, dispatched by ctx.backend
// (core/linalg/kernels/spmv_kernels.h; kCuda: the registered device backend,
// core/device/device_dispatch.h).
#ifndef FACTORD_LINALG_SPMV_H_
#define FACTORD_LINALG_SPMV_H_

#include <span>

#include "core/base/exec_context.h"
#include "core/matrix/csr.h"

namespace factord::linalg {

// `a` is general (expand a symmetric-lower matrix first). x has a.cols
// entries, y has a.rows; they must not overlap.
void Spmv(const ExecContext& ctx, const CsrMatrix& a, std::span<const double> x,
          std::span<double> y);

}  // namespace factord::linalg

#endif  // FACTORD_LINALG_SPMV_H_
