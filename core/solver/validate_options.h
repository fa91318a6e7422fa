// The ranges of the factorize and solve options, checked in one place.
//
// Every check returns InvalidArgument naming the option: the message is
// "<field> <why>" (e.g. "fill_factor = -1 is not a finite value >= 0") and
// the field name (a FactorOptions / SolveOptions member, which is also the
// proto field's name) is attached as a payload that InvalidOptionField
// reads, so that the server can report it as a field violation.
#ifndef FACTORD_SOLVER_VALIDATE_OPTIONS_H_
#define FACTORD_SOLVER_VALIDATE_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/solver/options.h"

namespace factord {

// InvalidArgument "<field> <why>" carrying `field`.
absl::Status InvalidOptionError(absl::string_view field, absl::string_view why);
// The field an InvalidOptionError names; nullopt for any other status.
std::optional<std::string> InvalidOptionField(const absl::Status& status);

// The ranges every method accepts, then, when options.method is not kAuto,
// what the method applies (the scalings it knows, whether it takes shifts:
// options.h) and the ranges of the method's family (below). `n` (the matrix
// order, or -1 when not known yet) bounds shift_count. Does not check
// diagonal_shift's size and values (the Factorize facade checks them
// against the matrix).
absl::Status ValidateFactorOptions(const FactorOptions& options,
                                   int64_t n = -1);

// The family ranges, for the family's own entry points too.
// block_ildlt (and jacobi_ldlt's block structure): fill_level >= 0.
absl::Status ValidateBlockIldltOptions(const FactorOptions& options);
// jacobi_ldlt: sweeps 1..10000, epsilon [0, 1), delta (0, 1].
absl::Status ValidateJacobiLdltOptions(const JacobiLdltOptions& options);
// ic and ilu: fill_level >= 0.
absl::Status ValidateIncompleteOptions(const FactorOptions& options);

// tolerance finite > 0, max_iterations >= 0, restart >= 1, idr_s >= 1;
// then, when `method` (that of the factorization solved with) is not
// kAuto, what it applies: the direct methods (ldlt, lu) take krylov auto or
// none and no Krylov-only option (options.h); the others need a Krylov
// method, and block_ildlt and jacobi_ldlt (indefinite preconditioners) one
// other than cg.
absl::Status ValidateSolveOptions(const SolveOptions& options,
                                  Method method = Method::kAuto);

}  // namespace factord

#endif  // FACTORD_SOLVER_VALIDATE_OPTIONS_H_
