// Backend dispatch of the block-Jacobi kernels.
#include "core/block_jacobi/block_jacobi_dispatch.h"

#include <algorithm>

#include "core/device/device_dispatch.h"

namespace factord::linalg {

void ExtractDiagonalBlocks(const ExecContext& ctx, const CsrMatrix& a,
                           const BlockLayout& layout,
                           std::span<double> blocks) {
  switch (ctx.backend) {
    case Backend::kReference:
      kernels::reference::ExtractDiagonalBlocks(ctx, a, layout, blocks);
      return;
    case Backend::kCpu:
      kernels::cpu::ExtractDiagonalBlocks(ctx, a, layout, blocks);
      return;
    case Backend::kCuda:
      if (!RunOnDevice(ctx, "ExtractDiagonalBlocks",
                       SumDeviceBytes(a, layout, blocks),
                       [&](const DeviceKernels& k, DeviceStream& s) {
                         return k.ExtractDiagonalBlocks(s, a, layout, blocks);
                       })) {
        FillNaN(blocks);
      }
      return;
  }
}

void InvertDiagonalBlocks(const ExecContext& ctx, const BlockLayout& layout,
                          std::span<const double> blocks,
                          std::span<double> inverses,
                          std::span<uint8_t> status) {
  switch (ctx.backend) {
    case Backend::kReference:
      kernels::reference::InvertDiagonalBlocks(ctx, layout, blocks, inverses,
                                               status);
      return;
    case Backend::kCpu:
      kernels::cpu::InvertDiagonalBlocks(ctx, layout, blocks, inverses, status);
      return;
    case Backend::kCuda:
      if (!RunOnDevice(ctx, "InvertDiagonalBlocks",
                       SumDeviceBytes(layout, blocks, inverses, status),
                       [&](const DeviceKernels& k, DeviceStream& s) {
                         return k.InvertDiagonalBlocks(s, layout, blocks,
                                                       inverses, status);
                       })) {
        FillNaN(inverses);
        std::fill(status.begin(), status.end(), kernels::kBlockSingular);
      }
      return;
  }
}

void ApplyBlockDiagonal(const ExecContext& ctx, const BlockLayout& layout,
                        std::span<const double> inverses,
                        std::span<const double> r, std::span<double> z) {
  switch (ctx.backend) {
    case Backend::kReference:
      kernels::reference::ApplyBlockDiagonal(ctx, layout, inverses, r, z);
      return;
    case Backend::kCpu:
      kernels::cpu::ApplyBlockDiagonal(ctx, layout, inverses, r, z);
      return;
    case Backend::kCuda:
      if (!RunOnDevice(ctx, "ApplyBlockDiagonal",
                       SumDeviceBytes(layout, inverses, r, z),
                       [&](const DeviceKernels& k, DeviceStream& s) {
                         return k.ApplyBlockDiagonal(s, layout, inverses, r, z);
                       })) {
        FillNaN(z);
      }
      return;
  }
}

}  // namespace factord::linalg
