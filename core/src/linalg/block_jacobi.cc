// Backend dispatch of the block-Jacobi kernels.
#include "src/linalg/block_jacobi.h"

namespace factord::linalg {

void ExtractDiagonalBlocks(const ExecContext& ctx, const CsrMatrix& a,
                           const BlockLayout& layout,
                           std::span<double> blocks) {
  if (ctx.backend == Backend::kReference) {
    kernels::reference::ExtractDiagonalBlocks(ctx, a, layout, blocks);
  } else {
    kernels::cpu::ExtractDiagonalBlocks(ctx, a, layout, blocks);
  }
}

void InvertDiagonalBlocks(const ExecContext& ctx, const BlockLayout& layout,
                          std::span<const double> blocks,
                          std::span<double> inverses,
                          std::span<uint8_t> status) {
  if (ctx.backend == Backend::kReference) {
    kernels::reference::InvertDiagonalBlocks(ctx, layout, blocks, inverses,
                                             status);
  } else {
    kernels::cpu::InvertDiagonalBlocks(ctx, layout, blocks, inverses, status);
  }
}

void ApplyBlockDiagonal(const ExecContext& ctx, const BlockLayout& layout,
                        std::span<const double> inverses,
                        std::span<const double> r, std::span<double> z) {
  if (ctx.backend == Backend::kReference) {
    kernels::reference::ApplyBlockDiagonal(ctx, layout, inverses, r, z);
  } else {
    kernels::cpu::ApplyBlockDiagonal(ctx, layout, inverses, r, z);
  }
}

}  // namespace factord::linalg
