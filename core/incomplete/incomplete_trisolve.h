// The triangular-solve kernels (core/trisolve/kernels/trisolve_kernels.h, which
// documents sizes and layout) dispatched by ctx.backend. kCuda runs the
// Jacobi and block-Jacobi sweeps on the registered device backend
// (core/device/device_dispatch.h); Substitute and ExtractTriangularBlocks
// have no device kernel and run the cpu kernels.
#ifndef FACTORD_INCOMPLETE_INCOMPLETE_TRISOLVE_H_
#define FACTORD_INCOMPLETE_INCOMPLETE_TRISOLVE_H_

#include <span>

#include "core/base/exec_context.h"
#include "core/trisolve/kernels/trisolve_kernels.h"

namespace factord::internal {

using kernels::LevelSchedule;
using kernels::Triangle;
using kernels::TriangularBlocks;
using kernels::TriangularFactor;

void Substitute(const ExecContext& ctx, const TriangularFactor& t,
                Triangle triangle, const LevelSchedule& levels,
                std::span<const double> b, std::span<double> x);
void JacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                 Triangle triangle, std::span<const double> b,
                 std::span<const double> x_old, std::span<double> x_new);
void BlockJacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                      Triangle triangle, const TriangularBlocks& blocks,
                      std::span<const double> inverses,
                      std::span<const double> b, std::span<const double> x_old,
                      std::span<double> x_new);
void ExtractTriangularBlocks(const ExecContext& ctx, const TriangularFactor& t,
                             Triangle triangle, const TriangularBlocks& blocks,
                             std::span<double> dense);

}  // namespace factord::internal

#endif  // FACTORD_INCOMPLETE_INCOMPLETE_TRISOLVE_H_
