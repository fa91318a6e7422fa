// Restarted GMRES(m) (Saad-Schultz) with RIGHT preconditioning: the
// minimized residual is the residual of A x = b itself. Arnoldi with
// modified Gram-Schmidt, Givens rotations; m = options.restart.
// A 'lucky' breakdown (h(j+1,j) = 0) ends the cycle with the exact
// least-squares solution; a singular Hessenberg triangle (A M^{-1} singular
// on the Krylov space) is a breakdown.
#ifndef FACTORD_KRYLOV_GMRES_H_
#define FACTORD_KRYLOV_GMRES_H_

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
absl::StatusOr<KrylovResult> SolveGmres(
    const LinearOperator& a, const Preconditioner& m, std::span<const double> b,
    std::span<double> x, const KrylovOptions& options, const ExecContext& ctx);

}  // namespace factord

#endif  // FACTORD_KRYLOV_GMRES_H_
