// Preconditioned conjugate gradients (Hestenes-Stiefel) for symmetric
// positive definite A with a symmetric positive definite preconditioner.
// Breakdown: p'Ap <= 0 or r'z <= 0 (A or M not SPD).
#ifndef FACTORD_KRYLOV_CG_H_
#define FACTORD_KRYLOV_CG_H_

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
absl::StatusOr<KrylovResult> SolveCg(
    const LinearOperator& a, const Preconditioner& m, std::span<const double> b,
    std::span<double> x, const KrylovOptions& options, const ExecContext& ctx);

}  // namespace factord

#endif  // FACTORD_KRYLOV_CG_H_
