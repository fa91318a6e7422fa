// Blocked (BLAS 3) partial LDL^T of a large front with the pivoting of
// core/dense/kernels/dense_ldlt.h: threshold 1x1 / Bunch-Kaufman / rook 2x2
// pivots, delays, weak second pass, forced root elimination.
//
// Method (right-looking with panels, in the spirit of the blocked APP/TPP
// kernels of HSL_MA97 and SSIDS, Hogg, Ovtchinnikov & Scott 2016): the alive
// fully summed columns are visited in panels of `panel_width` consecutive
// alive columns. Inside a panel the columns are kept current (every pivot
// updates the panel's alive columns over all alive rows, BLAS 1/2 work of
// O(m nb) a pivot); the other alive columns are left stale and receive the
// panel's pivots at once at the end of the panel by dgemm (S -= L W^T,
// O(m p nb) a panel). The threshold test reads the candidate's whole column
// (fully summed and update rows), which is current, so |L| <= 1/u holds as
// in the unblocked kernel. A 2x2 partner r may lie outside the panel: its
// column is brought current with the panel's pivots so far and joins the
// panel. Columns that fail stay alive and are revisited in the next sweep,
// sweeps repeating while one takes a pivot (as the unblocked kernel does).
// The forced elimination of a root's last columns is unblocked.
//
// Limits: the pivot sequence differs from DensePartialLdlt's (the sweep
// order is per panel); the results satisfy the same contract. Host only.
#ifndef FACTORD_DENSE_KERNELS_DENSE_LDLT_BLOCKED_H_
#define FACTORD_DENSE_KERNELS_DENSE_LDLT_BLOCKED_H_

#include "core/dense/kernels/dense_ldlt.h"

namespace factord::internal {

// Same contract as kernels::DensePartialLdlt (f is m x m column-major with
// the p x p fully summed block holding both triangles; order, size, d_diag,
// d_off have p entries each, owned by the caller). For p <= panel_width it
// is exactly DensePartialLdlt, with `work` (p ints, or nullptr: allocated
// here) as its workspace; wider fronts allocate their panel workspace.
kernels::DenseLdltCounts DenseBlockedPartialLdlt(
    double* f, int m, int p, const kernels::DenseLdltParams& params, int* order,
    int* size, double* d_diag, double* d_off, int panel_width = 32,
    int* work = nullptr);

}  // namespace factord::internal

#endif  // FACTORD_DENSE_KERNELS_DENSE_LDLT_BLOCKED_H_
