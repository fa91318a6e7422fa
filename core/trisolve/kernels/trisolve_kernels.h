// Triangular-solve kernels for incomplete factors (S4 §2.1): exact
// substitution, one scalar Jacobi sweep (S4 eq. 2) and one block-Jacobi
// sweep (S4 eqs. 4-5), plus the extraction of a triangle's diagonal blocks
// (inverted afterwards by the batched Gauss-Jordan kernel of
// kernels/block_jacobi). One signature, two implementations.
//
// The factor is the combined CSR of an incomplete LU / LDL^T in its
// (permuted) elimination order: row i holds the strictly lower entries of a
// unit lower L (the unit diagonal is not stored), then U's diagonal at
// diag[i], then U's strictly upper entries, columns ascending. For IC(k) in
// LDL^T form U = D L^T (S4 eq. 1).
//
// Every row (and block) is computed by the same code in both backends, in the
// same summation order (core/trisolve/kernels/trisolve_rows.h), so the cpu
// results equal the reference bit for bit. The cpu substitution runs the rows
// of one level set in parallel (level scheduling); the sweeps are parallel over
// rows or blocks in fixed chunks on a TBB arena of ctx.threads.
#ifndef FACTORD_TRISOLVE_KERNELS_TRISOLVE_KERNELS_H_
#define FACTORD_TRISOLVE_KERNELS_TRISOLVE_KERNELS_H_

#include <cstdint>
#include <span>

#include "core/base/exec_context.h"
#include "core/block_jacobi/kernels/block_jacobi_kernels.h"

namespace factord::kernels {

// Views of a combined L\U factor of order n; the owner keeps the arrays.
struct TriangularFactor {
  std::span<const int64_t> row_ptr;  // n + 1
  std::span<const int32_t> col_idx;  // row_ptr[n], ascending in each row
  std::span<const int64_t> diag;     // n: position of (i, i) in row i
  std::span<const double> values;    // row_ptr[n]
  int64_t n() const { return static_cast<int64_t>(diag.size()); }
};

// Which triangle a kernel works on.
enum class Triangle {
  kLower,  // unit lower L: entries [row_ptr[i], diag[i]), diagonal 1
  kUpper,  // U: entries [diag[i], row_ptr[i+1]), diagonal values[diag[i]]
};

// Level sets of one triangle: level l is rows[level_ptr[l] ..
// level_ptr[l+1]); a row depends only on rows of earlier levels (for kUpper
// the levels run from the last row up). Used by the cpu substitution; the
// reference substitutes row by row and ignores it.
struct LevelSchedule {
  std::span<const int64_t> level_ptr;  // levels + 1
  std::span<const int32_t> rows;       // n
};

// The diagonal blocks of a blocked triangle (S4 eq. 5): consecutive rows,
// block b = rows [block_ptr[b], block_ptr[b+1]) of the factor's order, so
// layout.block_rows is the identity. Sizes 1..32.
using TriangularBlocks = BlockLayout;

namespace reference {
// x = T^{-1} b by forward (kLower) or backward (kUpper) substitution. A zero
// U pivot is the caller's to avoid (the factorization replaces them). b and
// x have n entries and must not overlap.
void Substitute(const ExecContext& ctx, const TriangularFactor& t,
                Triangle triangle, const LevelSchedule& levels,
                std::span<const double> b, std::span<double> x);
// One Jacobi sweep (S4 eq. 2): x_new = D^{-1} (b - (T - D) x_old), D =
// diag(T) (the identity for kLower). All spans have n entries; x_new must
// not overlap b or x_old.
void JacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                 Triangle triangle, std::span<const double> b,
                 std::span<const double> x_old, std::span<double> x_new);
// One block-Jacobi sweep (S4 eqs. 4-5): x_new = D_B^{-1} (b - (T - D_B)
// x_old), D_B the block diagonal of T on `blocks`, given by `inverses`
// (blocks.value_ptr[B] entries, row-major m_b x m_b per block). Spans as in
// JacobiSweep.
void BlockJacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                      Triangle triangle, const TriangularBlocks& blocks,
                      std::span<const double> inverses,
                      std::span<const double> b, std::span<const double> x_old,
                      std::span<double> x_new);
// dense[value_ptr[b] + li * m_b + lj] = T(first_b + li, first_b + lj), with
// the unit diagonal for kLower and 0 where the pattern has no entry or the
// other triangle lies. dense has blocks.value_ptr[B] entries.
void ExtractTriangularBlocks(const ExecContext& ctx, const TriangularFactor& t,
                             Triangle triangle, const TriangularBlocks& blocks,
                             std::span<double> dense);
}  // namespace reference

namespace cpu {
void Substitute(const ExecContext& ctx, const TriangularFactor& t,
                Triangle triangle, const LevelSchedule& levels,
                std::span<const double> b, std::span<double> x);
void JacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                 Triangle triangle, std::span<const double> b,
                 std::span<const double> x_old, std::span<double> x_new);
void BlockJacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                      Triangle triangle, const TriangularBlocks& blocks,
                      std::span<const double> inverses,
                      std::span<const double> b, std::span<const double> x_old,
                      std::span<double> x_new);
void ExtractTriangularBlocks(const ExecContext& ctx, const TriangularFactor& t,
                             Triangle triangle, const TriangularBlocks& blocks,
                             std::span<double> dense);
}  // namespace cpu

}  // namespace factord::kernels

#endif  // FACTORD_TRISOLVE_KERNELS_TRISOLVE_KERNELS_H_
