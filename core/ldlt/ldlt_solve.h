// Triangular and diagonal solves with the multifrontal factor, front by
// front: forward (L) in postorder, D, backward (L^T) in reverse postorder.
// Works on the permuted, scaled system; the caller permutes and scales.
#ifndef FACTORD_LDLT_LDLT_SOLVE_H_
#define FACTORD_LDLT_LDLT_SOLVE_H_

#include <span>
#include <vector>

#include "core/ldlt/ldlt_front.h"

namespace factord::internal {

// y <- (L D L^T)^{-1} y for `nrhs` right-hand sides stored column-major with
// leading dimension ldy (>= n). `work` is scratch resized as needed.
void SolveWithFronts(std::span<const FrontFactor> fronts, int64_t n, int nrhs,
                     double* y, int64_t ldy, std::vector<double>* work);

}  // namespace factord::internal

#endif  // FACTORD_LDLT_LDLT_SOLVE_H_
