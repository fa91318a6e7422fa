// Vector operations of the Krylov methods, dispatched by ctx.backend to the
// reference or cpu kernels (core/linalg/kernels/blas_kernels.h) or, for kCuda,
// the registered device backend (core/device/device_dispatch.h; NormInf has no
// device kernel and runs on the host). All spans of one call have the same
// size; outputs must not overlap inputs.
#ifndef FACTORD_LINALG_BLAS_H_
#define FACTORD_LINALG_BLAS_H_

#include <span>

#include "core/base/exec_context.h"

namespace factord::linalg {

// x . y
double Dot(const ExecContext& ctx, std::span<const double> x,
           std::span<const double> y);
// ||x||_2
double Norm2(const ExecContext& ctx, std::span<const double> x);
// max |x_i| (NaN if any entry is NaN)
double NormInf(const ExecContext& ctx, std::span<const double> x);
// y += alpha x
void Axpy(const ExecContext& ctx, double alpha, std::span<const double> x,
          std::span<double> y);
// y = alpha x + beta y (beta == 0 ignores the old y)
void Axpby(const ExecContext& ctx, double alpha, std::span<const double> x,
           double beta, std::span<double> y);
// x *= alpha
void Scale(const ExecContext& ctx, double alpha, std::span<double> x);
// y = x
void Copy(const ExecContext& ctx, std::span<const double> x,
          std::span<double> y);

// y_i = d_i x_i
void PointwiseProduct(const ExecContext& ctx, std::span<const double> d,
                      std::span<const double> x, std::span<double> y);

}  // namespace factord::linalg

#endif  // FACTORD_LINALG_BLAS_H_
