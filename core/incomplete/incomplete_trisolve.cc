// Backend dispatch of the triangular-solve kernels
// (core/trisolve/kernels/trisolve_kernels.h): per kernel, a switch on
// ctx.backend; kCuda runs on the registered device backend
// (core/device/device_dispatch.h), or on the host (cpu kernels) for the
// kernels the device seam does not have.
#include "core/incomplete/incomplete_trisolve.h"

#include "core/device/device_dispatch.h"

namespace factord::internal {

void Substitute(const ExecContext& ctx, const TriangularFactor& t,
                Triangle triangle, const LevelSchedule& levels,
                std::span<const double> b, std::span<double> x) {
  switch (ctx.backend) {
    case Backend::kReference:
      kernels::reference::Substitute(ctx, t, triangle, levels, b, x);
      return;
    case Backend::kCpu:
    case Backend::kCuda:  // no device kernel: on the host
      break;
  }
  kernels::cpu::Substitute(ctx, t, triangle, levels, b, x);
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
  switch (ctx.backend) {
    case Backend::kReference:
      kernels::reference::ExtractTriangularBlocks(ctx, t, triangle, blocks,
                                                  dense);
      return;
    case Backend::kCpu:
    case Backend::kCuda:  // no device kernel: on the host
      break;
  }
  kernels::cpu::ExtractTriangularBlocks(ctx, t, triangle, blocks, dense);
}

}  // namespace factord::internal
