// Backend dispatch of the vector kernels.
#include "src/linalg/blas.h"

#include "kernels/blas/blas_kernels.h"

namespace factord::linalg {

namespace ref = kernels::reference;
namespace cpu = kernels::cpu;

// kCuda falls back to the cpu kernels for now.
#define FACTORD_DISPATCH(call) \
  return ctx.backend == Backend::kReference ? ref::call : cpu::call

double Dot(const ExecContext& ctx, std::span<const double> x,
           std::span<const double> y) {
  FACTORD_DISPATCH(Dot(ctx, x, y));
}
double Norm2(const ExecContext& ctx, std::span<const double> x) {
  FACTORD_DISPATCH(Norm2(ctx, x));
}
double NormInf(const ExecContext& ctx, std::span<const double> x) {
  FACTORD_DISPATCH(NormInf(ctx, x));
}
void Axpy(const ExecContext& ctx, double alpha, std::span<const double> x,
          std::span<double> y) {
  FACTORD_DISPATCH(Axpy(ctx, alpha, x, y));
}
void Axpby(const ExecContext& ctx, double alpha, std::span<const double> x,
           double beta, std::span<double> y) {
  FACTORD_DISPATCH(Axpby(ctx, alpha, x, beta, y));
}
void Scale(const ExecContext& ctx, double alpha, std::span<double> x) {
  FACTORD_DISPATCH(Scale(ctx, alpha, x));
}
void Copy(const ExecContext& ctx, std::span<const double> x,
          std::span<double> y) {
  FACTORD_DISPATCH(Copy(ctx, x, y));
}

void PointwiseProduct(const ExecContext& ctx, std::span<const double> d,
                      std::span<const double> x, std::span<double> y) {
  FACTORD_DISPATCH(PointwiseProduct(ctx, d, x, y));
}

#undef FACTORD_DISPATCH

}  // namespace factord::linalg
