// Blocked partial LDL^T with a-posteriori threshold pivoting (APP, after
// SSIDS: Hogg, Ovtchinnikov & Scott 2016, §3) for fronts whose pivots need
// pivoting (S1 §IV-B1 pivots: threshold Bunch-Kaufman or rook, 1x1 and 2x2).
//
// Per block of `block` consecutive alive fully summed columns:
//   1. the block's diagonal block (its rows only) is factorized by the
//      unblocked pivoting kernel DensePartialLdlt: local pivots, 1x1 and
//      2x2, whose threshold test sees the block's rows;
//   2. the rows below it are solved at once, W = A21 L11^{-T} (= L21 D) by
//      dtrsm, and tested a posteriori: |L21| <= 1/u. The pivots up to the
//      first one that fails are kept (a 2x2 pair is kept or dropped whole);
//      the others get their values back;
//   3. the kept pivots update the remaining fully summed columns, failed
//      ones included, by dgemm column chunks run as tasks of the caller's
//      TBB arena (each chunk a single-threaded BLAS call: the result does
//      not depend on the thread count).
// The next block starts at the first column not kept, so a failed column is
// tried again next to new partners. The columns are permuted physically
// (pivots first, in order), so every BLAS operand is contiguous. Every kept
// pivot meets the pivoting kernel's test on its whole column, update rows
// included: |L| <= 1/u, and the inertia is exact. A block that keeps no
// pivot moves after the other columns (a symmetric permutation), to be
// tried again when they are eliminated; when every remaining column has
// been tried since the last pivot kept (at a root: at once), the rest of
// the front goes to the pivoting kernel (DenseBlockedPartialLdlt: sweeps, the
// weak pass over the delay budget, delays, the forced root elimination), on a
// compact copy of its columns.
//
// Static pivoting has no test to apply a posteriori: callers keep
// DenseBlockedPartialLdlt for it. Host only.
#ifndef FACTORD_DENSE_KERNELS_DENSE_LDLT_APP_H_
#define FACTORD_DENSE_KERNELS_DENSE_LDLT_APP_H_

#include "core/dense/kernels/dense_ldlt.h"

namespace factord::internal {

// Columns per block: the diagonal block's unblocked factorization costs
// O(block^3), the BLAS 3 operations have inner dimension up to block.
inline constexpr int kAppBlock = 64;

// Partial factorization of the first p columns of the m x m front f
// (column-major, leading dimension m), of which only the lower triangle of
// columns 0..p-1 is read (rows j..m-1 of column j); the contribution block
// (columns p..m-1) is not read or written.
// On return the first p rows and columns are permuted: position t holds
// the input's fully summed variable perm[t] (update rows stay in place).
// In that numbering the outputs follow kernels::DensePartialLdlt: order[t]
// is the column of pivot t (t for the blocked part, any alive column in
// the pivoting kernel's part), size, d_diag and d_off describe D, order[q..p)
// lists the alive (delayed) columns, column order[t] holds L's column on
// the rows alive at its elimination, and the alive columns hold their Schur
// complement with both triangles of their fully summed rows. All arrays
// have p entries and are owned by the caller.
// The first `first` columns may already be pivots, 1x1 and in order, as
// DenseUnpivotedLdlt leaves them when a later block fails (L below their
// diagonal, d_diag set; the rest their Schur complement): the kernel goes
// on from there and records them (order, size 1).
kernels::DenseLdltCounts DenseAppPartialLdlt(
    double* f, int m, int p, const kernels::DenseLdltParams& params, int* perm,
    int* order, int* size, double* d_diag, double* d_off, int block = kAppBlock,
    int first = 0);

}  // namespace factord::internal

#endif  // FACTORD_DENSE_KERNELS_DENSE_LDLT_APP_H_
