// Serial block-Jacobi kernels (S3 §3): the source of truth for the cpu ones.
#include "core/block_jacobi/kernels/block_jacobi_kernels.h"

#include "core/block_jacobi/kernels/block_jacobi_block.h"

namespace factord::kernels::reference {

void ExtractDiagonalBlocks(const ExecContext&, const CsrMatrix& a,
                           const BlockLayout& layout,
                           std::span<double> blocks) {
  for (int64_t b = 0; b < layout.num_blocks(); ++b) {
    ExtractBlock(a, layout, b, blocks);
  }
}

void InvertDiagonalBlocks(const ExecContext&, const BlockLayout& layout,
                          std::span<const double> blocks,
                          std::span<double> inverses,
                          std::span<uint8_t> status) {
  for (int64_t b = 0; b < layout.num_blocks(); ++b) {
    status[b] = InvertBlock(layout, b, blocks, inverses);
  }
}

void ApplyBlockDiagonal(const ExecContext&, const BlockLayout& layout,
                        std::span<const double> inverses,
                        std::span<const double> r, std::span<double> z) {
  for (int64_t b = 0; b < layout.num_blocks(); ++b) {
    ApplyBlock(layout, b, inverses, r, z);
  }
}

}  // namespace factord::kernels::reference
