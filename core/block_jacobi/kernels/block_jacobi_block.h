// The work on one block of the block-Jacobi kernels (S3 §3), written once:
// the reference backend loops over the blocks serially, the cpu backend in
// parallel chunks, and both call these, so they agree bit for bit.
#ifndef FACTORD_BLOCK_JACOBI_KERNELS_BLOCK_JACOBI_BLOCK_H_
#define FACTORD_BLOCK_JACOBI_KERNELS_BLOCK_JACOBI_BLOCK_H_

#include <algorithm>
#include <cstdint>
#include <span>

#include "core/block_jacobi/kernels/block_jacobi_kernels.h"
#include "core/dense/kernels/gauss_jordan.h"

namespace factord::kernels {

// S3 §3.2, "cached extraction": walk block b's rows, keep the entries whose
// column falls in the same block; the rest of the dense block is 0.
inline void ExtractBlock(const CsrMatrix& a, const BlockLayout& layout,
                         int64_t b, std::span<double> blocks) {
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
}

// S3 §3.1: Gauss-Jordan inverse of block b, or the diagonal fallback for a
// singular block. Returns its BlockStatus.
inline uint8_t InvertBlock(const BlockLayout& layout, int64_t b,
                           std::span<const double> blocks,
                           std::span<double> inverses) {
  const int m = static_cast<int>(layout.block_ptr[b + 1] - layout.block_ptr[b]);
  const double* block = blocks.data() + layout.value_ptr[b];
  double* inverse = inverses.data() + layout.value_ptr[b];
  if (GaussJordanInvert(m, block, inverse) < 0) return kBlockOk;
  DiagonalInverseFallback(m, block, inverse);
  return kBlockSingular;
}

// z[rows of b] = inverse_b * r[rows of b] (S3 eq. 2).
inline void ApplyBlock(const BlockLayout& layout, int64_t b,
                       std::span<const double> inverses,
                       std::span<const double> r, std::span<double> z) {
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

}  // namespace factord::kernels

#endif  // FACTORD_BLOCK_JACOBI_KERNELS_BLOCK_JACOBI_BLOCK_H_
