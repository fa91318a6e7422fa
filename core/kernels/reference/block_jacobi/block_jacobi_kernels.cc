// Serial block-Jacobi kernels (S3 §3): the source of truth for the cpu ones.
#include "kernels/block_jacobi/block_jacobi_kernels.h"

#include <algorithm>

#include "kernels/common/gauss_jordan.h"

namespace factord::kernels::reference {

// S3 §3.2, "cached extraction": walk the block's rows, keep the entries whose
// column falls in the same block.
void ExtractDiagonalBlocks(const ExecContext&, const CsrMatrix& a,
                           const BlockLayout& layout,
                           std::span<double> blocks) {
  std::fill(blocks.begin(), blocks.end(), 0.0);
  for (int64_t b = 0; b < layout.num_blocks(); ++b) {
    const int64_t first = layout.block_ptr[b];
    const int64_t m = layout.block_ptr[b + 1] - first;
    double* dense = blocks.data() + layout.value_ptr[b];
    for (int64_t li = 0; li < m; ++li) {
      const int32_t row = layout.block_rows[first + li];
      for (int64_t k = a.row_ptr[row]; k < a.row_ptr[row + 1]; ++k) {
        const int32_t col = a.col_idx[k];
        if (layout.block_of_row[col] != b) continue;
        dense[li * m + layout.local_index[col]] = a.values[k];
      }
    }
  }
}

void InvertDiagonalBlocks(const ExecContext&, const BlockLayout& layout,
                          std::span<const double> blocks,
                          std::span<double> inverses,
                          std::span<uint8_t> status) {
  for (int64_t b = 0; b < layout.num_blocks(); ++b) {
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
  }
}

void ApplyBlockDiagonal(const ExecContext&, const BlockLayout& layout,
                        std::span<const double> inverses,
                        std::span<const double> r, std::span<double> z) {
  for (int64_t b = 0; b < layout.num_blocks(); ++b) {
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
  }
}

}  // namespace factord::kernels::reference
