// Block-Jacobi kernels (S3 §3): extraction of the diagonal blocks from CSR
// (S3 §3.2), batched Gauss-Jordan inversion with implicit pivoting (S3 §3.1,
// the dense routine in core/dense/kernels/gauss_jordan.h), and application of
// the inverses as a block-diagonal multiply (S3 eq. 2). One signature, two
// implementations; the cpu backend splits the blocks into fixed chunks on a
// TBB arena of ctx.threads, and every block is computed exactly as in the
// reference, so the two agree bit for bit.
//
// A block is a set of rows (not necessarily consecutive in the matrix: after
// an RCM ordering the blocks are consecutive in the permuted order). Each
// dense block is stored row-major in its local row order.
#ifndef FACTORD_BLOCK_JACOBI_KERNELS_BLOCK_JACOBI_KERNELS_H_
#define FACTORD_BLOCK_JACOBI_KERNELS_BLOCK_JACOBI_KERNELS_H_

#include <cstdint>
#include <span>

#include "core/base/exec_context.h"
#include "core/matrix/csr.h"

namespace factord::kernels {

enum BlockStatus : uint8_t {
  kBlockOk = 0,
  // No acceptable pivot: the stored "inverse" is the fallback of
  // DiagonalInverseFallback (inverse of the diagonal, 1 for a zero entry).
  kBlockSingular = 1,
};

// Views of the block structure; the owner keeps the arrays alive. n is the
// matrix order, B the number of blocks, every block size is in [1, 32].
struct BlockLayout {
  std::span<const int64_t> block_ptr;     // B + 1: block b is positions
                                          // [block_ptr[b], block_ptr[b+1])
  std::span<const int32_t> block_rows;    // n: matrix row at each position
  std::span<const int32_t> block_of_row;  // n: block of each matrix row
  std::span<const int32_t> local_index;   // n: position of a row in its block
  std::span<const int64_t> value_ptr;     // B + 1: offset of block b's dense
                                          // m_b x m_b storage
  int64_t num_blocks() const {
    return static_cast<int64_t>(block_ptr.size()) - 1;
  }
};

namespace reference {
// blocks[value_ptr[b] + li * m_b + lj] = a(block_rows[.. + li],
// block_rows[.. + lj]), 0 where the pattern has no entry. `a` is general
// (expanded); blocks has value_ptr[B] entries.
void ExtractDiagonalBlocks(const ExecContext& ctx, const CsrMatrix& a,
                           const BlockLayout& layout, std::span<double> blocks);
// inverses (value_ptr[B] entries) = the inverse of each block, or the
// fallback for a singular one; status has B entries (BlockStatus). Never
// writes a NaN or Inf.
void InvertDiagonalBlocks(const ExecContext& ctx, const BlockLayout& layout,
                          std::span<const double> blocks,
                          std::span<double> inverses,
                          std::span<uint8_t> status);
// z = D^{-1} r, with D^{-1} the block diagonal of `inverses`. r and z have n
// entries and must not overlap.
void ApplyBlockDiagonal(const ExecContext& ctx, const BlockLayout& layout,
                        std::span<const double> inverses,
                        std::span<const double> r, std::span<double> z);
}  // namespace reference

namespace cpu {
void ExtractDiagonalBlocks(const ExecContext& ctx, const CsrMatrix& a,
                           const BlockLayout& layout, std::span<double> blocks);
void InvertDiagonalBlocks(const ExecContext& ctx, const BlockLayout& layout,
                          std::span<const double> blocks,
                          std::span<double> inverses,
                          std::span<uint8_t> status);
void ApplyBlockDiagonal(const ExecContext& ctx, const BlockLayout& layout,
                        std::span<const double> inverses,
                        std::span<const double> r, std::span<double> z);
}  // namespace cpu

}  // namespace factord::kernels

#endif  // FACTORD_BLOCK_JACOBI_KERNELS_BLOCK_JACOBI_KERNELS_H_
