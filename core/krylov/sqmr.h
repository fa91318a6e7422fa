// Symmetric QMR (Freund & Nachtigal 1994, the preconditioned algorithm
// with M1 = I, M2 = M) for symmetric, possibly indefinite A with a
// symmetric, possibly indefinite preconditioner M (S1 §IV-C). Uses one
// product with A and one application of M^{-1} an iteration. The residual
// of the QMR iterate is updated by recurrence (A d is carried along) to
// decide when to check the true residual.
// Breakdown: q'Aq = 0 or r'M^{-1}r = 0 (possible for indefinite A or M).
#ifndef FACTORD_KRYLOV_SQMR_H_
#define FACTORD_KRYLOV_SQMR_H_

#include <span>

#include "absl/status/statusor.h"
#include "core/base/exec_context.h"
#include "core/krylov/operator.h"

namespace factord {

// Solves A x = b with preconditioner m under the contract of operator.h.
// b and x have a.size() entries; x holds the initial guess on entry and the
// last finite iterate on return. Returns CANCELLED / DEADLINE_EXCEEDED from
// ctx and INVALID_ARGUMENT for mismatched sizes; numerical outcomes are in
// the KrylovResult.
absl::StatusOr<KrylovResult> SolveSqmr(
    const LinearOperator& a, const Preconditioner& m, std::span<const double> b,
    std::span<double> x, const KrylovOptions& options, const ExecContext& ctx);

}  // namespace factord

#endif  // FACTORD_KRYLOV_SQMR_H_
