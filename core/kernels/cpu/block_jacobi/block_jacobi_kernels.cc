// Threaded block-Jacobi kernels (S3 §3): batches of blocks in parallel, each
// block computed exactly as in the reference (same dense routine, same
// summation order), so the results are identical.
#include "kernels/block_jacobi/block_jacobi_kernels.h"

#include <algorithm>

#include "kernels/common/gauss_jordan.h"
#include "kernels/cpu/common/parallel.h"

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
  ForEachBlock(ctx, layout, [&](int64_t b) {
    const int64_t first = layout.block_ptr[b];
    const int64_t m = layout.block_ptr[b + 1] - first;
    double* dense = blocks.data() + layout.value_ptr[b];
    std::fill(dense, dense + m * m, 0.0);
    for (int64_t li = 0; li < m; ++li) {
      const int32_t row = layout.block_rows[first + li];
      for (int64_t k = a.row_ptr[row]; k < a.row_ptr[row + 1]; ++k) {
        const int32_t col = a.col_idx[k];
        if (layout.block_of_row[col] != b) continue;
        dense[li * m + layout.local_index[col]] = a.values[k];
      }
    }
  });
}

void InvertDiagonalBlocks(const ExecContext& ctx, const BlockLayout& layout,
                          std::span<const double> blocks,
                          std::span<double> inverses,
                          std::span<uint8_t> status) {
  ForEachBlock(ctx, layout, [&](int64_t b) {
    const int m =
        static_cast<int>(layout.block_ptr[b + 1] - layout.block_ptr[b]);
    const double* block = blocks.data() + layout.value_ptr[b];
    double* inverse = inverses.data() + layout.value_ptr[b];
    if (GaussJordanInvert(m, block, inverse) < 0) {
      status[b] = kBlockOk;
    } else {
      DiagonalInverseFallback(m, block, inverse);
      status[b] = kBlockSingular;
    }
  });
}

void ApplyBlockDiagonal(const ExecContext& ctx, const BlockLayout& layout,
                        std::span<const double> inverses,
                        std::span<const double> r, std::span<double> z) {
  ForEachBlock(ctx, layout, [&](int64_t b) {
    const int64_t first = layout.block_ptr[b];
    const int64_t m = layout.block_ptr[b + 1] - first;
    const double* inverse = inverses.data() + layout.value_ptr[b];
    for (int64_t li = 0; li < m; ++li) {
      double sum = 0;
      for (int64_t lj = 0; lj < m; ++lj) {
        sum += inverse[li * m + lj] * r[layout.block_rows[first + lj]];
      }
      z[layout.block_rows[first + li]] = sum;
    }
  });
}

}  // namespace factord::kernels::cpu
