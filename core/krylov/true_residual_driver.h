// The loop every Krylov method of factord runs in: convergence is decided on
// the true residual b - A x, never on the method's recursive residual alone.
//
// A method supplies a "cycle": starting from x and its true residual r it
// iterates until its own residual estimate reaches the target, it breaks
// down, or its iteration budget is spent (GMRES(m) also ends a cycle after m
// iterations). The driver then recomputes r = b - A x: converged if
// ||r|| <= tol ||b||; otherwise it restarts the method from x (a recursive
// residual that drifted from the true one is thus corrected), until the
// iteration limit. Three restarts in a row after a cycle whose estimate
// claimed convergence, each failing to halve the true residual, stop the
// solve as not converged (the attainable accuracy is reached); a GMRES restart
// after m iterations is not such a restart. x is saved at the start of each
// cycle and restored if the cycle left a non-finite residual, so x is never
// NaN.
#ifndef FACTORD_KRYLOV_TRUE_RESIDUAL_DRIVER_H_
#define FACTORD_KRYLOV_TRUE_RESIDUAL_DRIVER_H_

#include <cmath>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/krylov/operator.h"

namespace factord::internal {

struct CycleOutcome {
  int iterations = 0;      // products with A performed
  bool breakdown = false;  // the method cannot go on from here
  // The cycle stopped because its own residual estimate reached the target.
  bool estimate_converged = false;
  std::string message;  // the breakdown quantity, when breakdown
};

// x: the iterate (updated in place, left finite); r: its true residual
// b - A x with norm r_norm (read only); budget >= 1 iterations at most;
// target: the absolute residual norm to reach.
using KrylovCycle = std::function<absl::StatusOr<CycleOutcome>(
    std::span<double> x, std::span<const double> r, double r_norm, int budget,
    double target)>;

// Runs `cycle` under the contract of core/krylov/operator.h. `method`
// names the method in messages. Checks sizes (INVALID_ARGUMENT) and
// cancellation between cycles (cycles check it every iteration).
absl::StatusOr<KrylovResult> RunWithTrueResidual(
    absl::string_view method, const LinearOperator& a, const Preconditioner& m,
    std::span<const double> b, std::span<double> x,
    const KrylovOptions& options, const ExecContext& ctx,
    const KrylovCycle& cycle);

// True when every value is finite (a guard before updating x).
inline bool AllFinite(std::initializer_list<double> values) {
  for (double v : values) {
    if (!std::isfinite(v)) return false;
  }
  return true;
}

}  // namespace factord::internal

#endif  // FACTORD_KRYLOV_TRUE_RESIDUAL_DRIVER_H_
