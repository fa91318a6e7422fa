// Triangular and diagonal solves with the multifrontal factor, front by
// front (supernodal): forward (L, then D on the front's pivots) in
// postorder, backward (L^T) in reverse postorder, each front's rows
// gathered into a dense block so that BLAS works on the front's L. Works on
// the permuted, scaled system; the caller permutes and scales. Also the
// residual norms of a refinement step from a residual already computed.
#ifndef FACTORD_LDLT_LDLT_SOLVE_H_
#define FACTORD_LDLT_LDLT_SOLVE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/ldlt/ldlt_front.h"

namespace factord::internal {

// Fronts with fewer entries in L (rows.size() * q) than this are solved by
// plain loops on the right-hand side in place; larger ones by BLAS on a
// gathered block. Measured (best of 21 solves, OpenBLAS, one and four
// right-hand sides, thresholds 0 to 16384 and plain loops only): BLAS on
// every front is 4.4x slower than loops on liswet1 (11252 fronts of at most
// 18 rows) and 8x on aug3dc, loops only are 2.2x slower than the best on
// poisson32 (32^3, largest front 1469); 512 is the best or within 4% of it
// on poisson32, liswet1, aug3dc and cvxqp2_m.
constexpr int64_t kSolveBlasMinEntries = 512;

// y <- (L D L^T)^{-1} y for `nrhs` right-hand sides stored column-major
// with leading dimension ldy (>= n), all columns as one matrix (BLAS 3 for
// nrhs > 1). `work` is scratch, resized to the largest front times nrhs.
// `blas_min_entries` chooses the path per front (see kSolveBlasMinEntries;
// 0: BLAS everywhere, INT64_MAX: plain loops everywhere). Reads `fronts`
// only.
void SolveWithFronts(std::span<const FrontFactor> fronts, int64_t n, int nrhs,
                     double* y, int64_t ldy, std::vector<double>* work,
                     int64_t blas_min_entries = kSolveBlasMinEntries);

}  // namespace factord::internal

#endif  // FACTORD_LDLT_LDLT_SOLVE_H_
