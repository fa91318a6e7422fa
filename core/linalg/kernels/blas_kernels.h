// Vector kernels of the Krylov methods: one signature, two implementations.
//
// `reference` is serial and obviously correct (plain loops, one running sum).
// `cpu` runs on a tbb::task_arena of ctx.threads threads with static
// partitioning. Its reductions split the vectors into fixed chunks of
// kReductionChunk entries (a function of n only), sum each chunk serially in
// parallel, and add the chunk partials serially in chunk order, so the result
// is bitwise reproducible for any thread count. For n <= kReductionChunk it
// equals the reference bit for bit.
//
// All spans of one call have the same size n; outputs must not overlap
// inputs. Nothing is allocated except the chunk partials.
#ifndef FACTORD_LINALG_KERNELS_BLAS_KERNELS_H_
#define FACTORD_LINALG_KERNELS_BLAS_KERNELS_H_

#include <cstdint>
#include <span>

#include "core/base/exec_context.h"

namespace factord::kernels {

// Entries per reduction chunk of the cpu backend.
inline constexpr int64_t kReductionChunk = 4096;

namespace reference {
// x . y
double Dot(const ExecContext& ctx, std::span<const double> x,
           std::span<const double> y);
// ||x||_2 = sqrt(x . x)
double Norm2(const ExecContext& ctx, std::span<const double> x);
// max_i |x_i|; a NaN entry makes the result NaN.
double NormInf(const ExecContext& ctx, std::span<const double> x);
// y += alpha x
void Axpy(const ExecContext& ctx, double alpha, std::span<const double> x,
          std::span<double> y);
// y = alpha x + beta y; beta == 0 ignores the old y (even NaN).
void Axpby(const ExecContext& ctx, double alpha, std::span<const double> x,
           double beta, std::span<double> y);
// x *= alpha
void Scale(const ExecContext& ctx, double alpha, std::span<double> x);
// y = x
void Copy(const ExecContext& ctx, std::span<const double> x,
          std::span<double> y);
// y_i = d_i x_i (scalar Jacobi)
void PointwiseProduct(const ExecContext& ctx, std::span<const double> d,
                      std::span<const double> x, std::span<double> y);
}  // namespace reference

namespace cpu {
double Dot(const ExecContext& ctx, std::span<const double> x,
           std::span<const double> y);
double Norm2(const ExecContext& ctx, std::span<const double> x);
double NormInf(const ExecContext& ctx, std::span<const double> x);
void Axpy(const ExecContext& ctx, double alpha, std::span<const double> x,
          std::span<double> y);
void Axpby(const ExecContext& ctx, double alpha, std::span<const double> x,
           double beta, std::span<double> y);
void Scale(const ExecContext& ctx, double alpha, std::span<double> x);
void Copy(const ExecContext& ctx, std::span<const double> x,
          std::span<double> y);
void PointwiseProduct(const ExecContext& ctx, std::span<const double> d,
                      std::span<const double> x, std::span<double> y);
}  // namespace cpu

}  // namespace factord::kernels

#endif  // FACTORD_LINALG_KERNELS_BLAS_KERNELS_H_
