// A posteriori check of a multifrontal LDL^T factor: the relative residual
// of the factorization on one fixed vector, ||B x - L D L^T x||_inf /
// (||B||_inf ||x||_inf), with B the permuted, scaled and shifted matrix the
// fronts factorized. Rounding makes it about eps times the pivot growth;
// a factor that lost its digits (compounded growth, or any bookkeeping
// error in assembly or storage) shows it at once. Costs a multiplication by
// B and one by the factor: about a solve.
#ifndef FACTORD_LDLT_LDLT_FACTOR_CHECK_H_
#define FACTORD_LDLT_LDLT_FACTOR_CHECK_H_

#include <span>

#include "core/ldlt/ldlt_front.h"
#include "core/ldlt/ldlt_symbolic.h"

namespace factord::internal {

// `values`: sym.col_ptr[n] entries of B in the order of sym.col_rows (the
// lower triangle by columns); `fronts`: the factor of every front. Reads
// only; allocates three vectors of sym.n doubles.
double LdltFactorResidual(const LdltSymbolic& sym,
                          std::span<const double> values,
                          std::span<const FrontFactor> fronts);

}  // namespace factord::internal

#endif  // FACTORD_LDLT_LDLT_FACTOR_CHECK_H_
