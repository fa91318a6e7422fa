// Backend dispatch of the triangular-solve kernels.
#include "core/incomplete/incomplete_trisolve.h"

#include "core/device/device_dispatch.h"

namespace factord::internal {

void Substitute(const ExecContext& ctx, const TriangularFactor& t,
                Triangle triangle, const LevelSchedule& levels,
                std::span<const double> b, std::span<double> x) {
  if (ctx.backend == Backend::kReference) {  // kCuda: host, no device kernel
    kernels::reference::Substitute(ctx, t, triangle, levels, b, x);
  } else {
    kernels::cpu::Substitute(ctx, t, triangle, levels, b, x);
  }
}

void JacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                 Triangle triangle, std::span<const double> b,
                 std::span<const double> x_old, std::span<double> x_new) {
  switch (ctx.backend) {
    case Backend::kReference:
      kernels::reference::JacobiSweep(ctx, t, triangle, b, x_old, x_new);
      return;
    case Backend::kCpu:
      kernels::cpu::JacobiSweep(ctx, t, triangle, b, x_old, x_new);
      return;
    case Backend::kCuda:
      if (!linalg::RunOnDevice(
              ctx, "JacobiSweep", linalg::SumDeviceBytes(t, b, x_old, x_new),
              [&](const DeviceKernels& k, DeviceStream& s) {
                return k.JacobiSweep(s, t, triangle, b, x_old, x_new);
              })) {
        linalg::FillNaN(x_new);
      }
      return;
  }
}

void BlockJacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                      Triangle triangle, const TriangularBlocks& blocks,
                      std::span<const double> inverses,
                      std::span<const double> b, std::span<const double> x_old,
                      std::span<double> x_new) {
  switch (ctx.backend) {
    case Backend::kReference:
      kernels::reference::BlockJacobiSweep(ctx, t, triangle, blocks, inverses,
                                           b, x_old, x_new);
      return;
    case Backend::kCpu:
      kernels::cpu::BlockJacobiSweep(ctx, t, triangle, blocks, inverses, b,
                                     x_old, x_new);
      return;
    case Backend::kCuda:
      if (!linalg::RunOnDevice(
              ctx, "BlockJacobiSweep",
              linalg::SumDeviceBytes(t, blocks, inverses, b, x_old, x_new),
              [&](const DeviceKernels& k, DeviceStream& s) {
                return k.BlockJacobiSweep(s, t, triangle, blocks, inverses, b,
                                          x_old, x_new);
              })) {
        linalg::FillNaN(x_new);
      }
      return;
  }
}

void ExtractTriangularBlocks(const ExecContext& ctx, const TriangularFactor& t,
                             Triangle triangle, const TriangularBlocks& blocks,
                             std::span<double> dense) {
  if (ctx.backend == Backend::kReference) {  // kCuda: host, no device kernel
    kernels::reference::ExtractTriangularBlocks(ctx, t, triangle, blocks,
                                                dense);
  } else {
    kernels::cpu::ExtractTriangularBlocks(ctx, t, triangle, blocks, dense);
  }
}

}  // namespace factord::internal
