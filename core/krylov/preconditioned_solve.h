// One preconditioned Krylov solve as every iterative method family runs it:
// the Krylov method iterates on the expanded (full) matrix plus the IPM
// shifts, and convergence is decided on the true residual of the matrix as
// uploaded plus the same shifts: the system the factorization was asked
// for, whose preconditioner saw the shifts too.
#ifndef FACTORD_KRYLOV_PRECONDITIONED_SOLVE_H_
#define FACTORD_KRYLOV_PRECONDITIONED_SOLVE_H_

#include <span>

#include "absl/status/status.h"
#include "core/base/exec_context.h"
#include "core/krylov/operator.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"
#include "core/solver/report.h"

namespace factord {

// Solves (A + diag(shift)) x = b with `krylov` (CG, GMRES, SQMR, IDR or
// BiCGStab; any other value is InvalidArgument) on `expanded`, the full
// storage of `uploaded`, preconditioned by `m`. `shift`: empty (no shift)
// or n entries (FactorOptions::ShiftVector). x is the initial guess on
// entry. If the method
// converges on the expanded copy while the uploaded matrix's true residual
// is still above the tolerance (the products round differently), it iterates
// on from x while iterations remain (three rounds at most). Fills every field
// of `report` except solve_s. Errors: cancellation and deadline from `ctx`.
absl::Status SolvePreconditioned(const CsrMatrix& expanded,
                                 const CsrMatrix& uploaded,
                                 std::span<const double> shift,
                                 const Preconditioner& m, Krylov krylov,
                                 std::span<const double> b, std::span<double> x,
                                 const SolveOptions& options,
                                 const ExecContext& ctx, SolveReport* report);

}  // namespace factord

#endif  // FACTORD_KRYLOV_PRECONDITIONED_SOLVE_H_
