// Threaded block-Jacobi kernels (S3 §3): batches of blocks in parallel, each
// block computed exactly as in the reference (same dense routine, same
// summation order), so the results are identical.
#include "core/block_jacobi/kernels/block_jacobi_kernels.h"

#include <algorithm>

#include "core/block_jacobi/kernels/block_jacobi_block.h"
#include "core/kernels/cpu/parallel.h"

namespace factord::kernels::cpu {
namespace {

constexpr int64_t kBlocksPerChunk = 64;

template <typename Body>
void ForEachBlock(const ExecContext& ctx, const BlockLayout& layout,
                  Body body) {
  const int64_t num_blocks = layout.num_blocks();
  ForEachChunk(ctx, ChunkCount(num_blocks, kBlocksPerChunk), [&](int64_t c) {
    const int64_t end = std::min(num_blocks, (c + 1) * kBlocksPerChunk);
    for (int64_t b = c * kBlocksPerChunk; b < end; ++b) body(b);
  });
}

}  // namespace

void ExtractDiagonalBlocks(const ExecContext& ctx, const CsrMatrix& a,
                           const BlockLayout& layout,
                           std::span<double> blocks) {
  ForEachBlock(ctx, layout,
               [&](int64_t b) { ExtractBlock(a, layout, b, blocks); });
}

void InvertDiagonalBlocks(const ExecContext& ctx, const BlockLayout& layout,
                          std::span<const double> blocks,
                          std::span<double> inverses,
                          std::span<uint8_t> status) {
  ForEachBlock(ctx, layout, [&](int64_t b) {
    status[b] = InvertBlock(layout, b, blocks, inverses);
  });
}

void ApplyBlockDiagonal(const ExecContext& ctx, const BlockLayout& layout,
                        std::span<const double> inverses,
                        std::span<const double> r, std::span<double> z) {
  ForEachBlock(ctx, layout,
               [&](int64_t b) { ApplyBlock(layout, b, inverses, r, z); });
}

}  // namespace factord::kernels::cpu
