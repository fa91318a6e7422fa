// Blocked LDL^T of a front's fully summed columns in their natural order,
// 1x1 pivots only, with the threshold test applied a posteriori (the
// optimistic first attempt of the a-posteriori pivoting of SSIDS, Hogg,
// Ovtchinnikov & Scott 2016, §3; there, and here, a failed block is
// retried with pivoting).
//
// When every pivot passes the test the pivoting kernels
// (core/dense/kernels/dense_ldlt.h) would apply first, |a_tt| > tiny and
// |a_tt| >= u max_i |a_it| over the rest of the current column (update rows
// included; u = params.threshold, only |a_tt| > tiny for static pivoting),
// they would take exactly these pivots in this order: the result is the one
// they define, computed with BLAS 3 instead. Per block of nb columns: an
// unblocked LDL^T of the nb x nb diagonal block, one dtrsm for the rows
// below it (the current columns, on which the test is made), their scaling
// by D^{-1}, and the update of the remaining fully summed columns as one
// dgemm per column chunk, the chunks run as tasks of the caller's TBB arena
// (each a single-threaded BLAS call on its own columns: the result does not
// depend on the number of threads). An SPD front passes by construction;
// this is the Cholesky path of the factorization (LDL^T with D > 0, the
// same arithmetic as dpotrf's right-looking variant with sqrt(D) moved
// into D).
//
// Reads and writes only the lower triangle of columns 0..p-1 (rows j..m-1
// of column j), leading dimension m. The contribution block (rows and
// columns p..m-1) is not updated: the caller applies the Schur update.
// A block that fails is given back as it was, so the front stays a valid
// partial factorization: the pivots before the block are kept, and the
// columns from the block on hold their Schur complement after them, ready
// for a pivoting kernel to continue (dense_ldlt_app.h). Host only.
#ifndef FACTORD_DENSE_KERNELS_DENSE_LDLT_UNPIVOTED_H_
#define FACTORD_DENSE_KERNELS_DENSE_LDLT_UNPIVOTED_H_

#include <vector>

#include "core/dense/kernels/dense_ldlt.h"

namespace factord::internal {

// Returns the number of pivots taken in order, q (p when all passed; else
// the first column of the block that failed). Column t < q of f holds the
// unit lower L below its diagonal (rows t+1..m-1) and d[t] = D(t, t);
// columns q..p-1 hold their Schur complement after the q pivots (lower
// triangle). `w` is scratch (resized as needed).
int DenseUnpivotedLdlt(double* f, int m, int p,
                       const kernels::DenseLdltParams& params, double* d,
                       std::vector<double>* w);

}  // namespace factord::internal

#endif  // FACTORD_DENSE_KERNELS_DENSE_LDLT_UNPIVOTED_H_
