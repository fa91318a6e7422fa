// Numeric stage of ic / ilu (S4): the IKJ incomplete factorization on a
// fixed pattern, with the breakdown strategy, and the column-norm scaling
// S4 §3 applies before factorizing.
#ifndef FACTORD_INCOMPLETE_INCOMPLETE_NUMERIC_H_
#define FACTORD_INCOMPLETE_INCOMPLETE_NUMERIC_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/exec_context.h"
#include "core/incomplete/incomplete_symbolic.h"
#include "core/matrix/csr.h"

namespace factord::internal {

struct IncompleteValues {
  std::vector<double> lu;  // on pattern.col_idx: unit L strictly lower, U
  double alpha = 0;        // the factor is of A + alpha diag(A)
  int64_t breakdowns = 0;  // pivots still replaced in `lu` (see below)
};

// ILU(k) values of the general matrix `a` (the matrix the pattern was built
// from, same order) by IKJ elimination restricted to the pattern (S4 eq. 1).
// For a symmetric a on a symmetric pattern U = D L^T: the IC(k) factor in
// LDL^T form. A breakdown (a pivot <= 1e-8 |a_ii| for ic, |pivot| <= 1e-8
// |a_ii| for ilu; 1e-8 max|a_jj| where a_ii = 0) restarts the
// factorization on A + alpha diag(A),
// alpha = 1e-3 doubled up to 10 times (Manteuffel's shifted IC); the last
// attempt replaces its remaining bad pivots by max(|a_ii|, 1e-8 max|a_jj|)
// and counts them. The test is invariant under symmetric diagonal scaling.
// Cancelled through ctx.
absl::StatusOr<IncompleteValues> FactorIncompleteValues(
    const IncompletePattern& pattern, const CsrMatrix& a, bool ic,
    const ExecContext& ctx);

// S4 §3: s_j = 1 / sqrt(||a(:, j)||_2), 1 for an empty column; `a` general.
std::vector<double> ColumnNormScaling(const CsrMatrix& a);

// a(i, j) *= s_i s_j for every stored entry (s has a.rows entries).
void ScaleSymmetric(std::span<const double> s, CsrMatrix* a);

}  // namespace factord::internal

#endif  // FACTORD_INCOMPLETE_INCOMPLETE_NUMERIC_H_
