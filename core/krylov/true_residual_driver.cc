// The true-residual loop around every Krylov method (see the header).
#include "core/krylov/true_residual_driver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/linalg/blas.h"

namespace factord::internal {
namespace {

// r = b - A x; returns ||r||_2.
double TrueResidual(const LinearOperator& a, std::span<const double> b,
                    std::span<const double> x, std::span<double> r,
                    const ExecContext& ctx) {
  a.Apply(ctx, x, r);
  linalg::Axpby(ctx, 1.0, b, -1.0, r);
  return linalg::Norm2(ctx, r);
}

}  // namespace

absl::StatusOr<KrylovResult> RunWithTrueResidual(
    absl::string_view method, const LinearOperator& a, const Preconditioner& m,
    std::span<const double> b, std::span<double> x,
    const KrylovOptions& options, const ExecContext& ctx,
    const KrylovCycle& cycle) {
  const int64_t n = a.size();
  if (m.size() != n || static_cast<int64_t>(b.size()) != n ||
      static_cast<int64_t>(x.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        method, ": sizes differ (operator ", n, ", preconditioner ", m.size(),
        ", b ", b.size(), ", x ", x.size(), ")"));
  }
  if (!(options.tolerance >= 0) || options.max_iterations < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(method,
                     ": tolerance must be >= 0 and max_iterations "
                     ">= 0"));
  }
  KrylovResult result;
  const double b_norm = linalg::Norm2(ctx, b);
  if (!std::isfinite(b_norm)) {
    return absl::InvalidArgumentError(
        absl::StrCat(method, ": right-hand side is not finite"));
  }
  for (double v : x) {
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError(
          absl::StrCat(method, ": initial guess is not finite"));
    }
  }
  if (b_norm == 0) {  // the solution is x = 0
    std::fill(x.begin(), x.end(), 0.0);
    result.status = SolveStatus::kConverged;
    result.message = "zero right-hand side";
    return result;
  }
  const double target = options.tolerance * b_norm;
  std::vector<double> r(n), saved_x(x.begin(), x.end());
  double r_norm = TrueResidual(a, b, x, r, ctx);
  double last_false_convergence = std::numeric_limits<double>::infinity();
  int stalled_restarts = 0;
  while (true) {
    if (!std::isfinite(r_norm)) {  // keep the last finite iterate
      std::copy(saved_x.begin(), saved_x.end(), x.begin());
      r_norm = TrueResidual(a, b, x, r, ctx);
      result.status = SolveStatus::kBreakdown;
      result.message = absl::StrCat(method, ": residual became non-finite");
      break;
    }
    if (r_norm <= target) {
      result.status = SolveStatus::kConverged;
      break;
    }
    if (result.iterations >= options.max_iterations) {
      result.status = SolveStatus::kNotConverged;
      result.message = absl::StrCat(method, ": iteration limit ",
                                    options.max_iterations, " reached");
      break;
    }
    if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
    std::copy(x.begin(), x.end(), saved_x.begin());
    const int budget = options.max_iterations - result.iterations;
    absl::StatusOr<CycleOutcome> outcome = cycle(x, r, r_norm, budget, target);
    if (!outcome.ok()) return outcome.status();
    if (outcome->iterations <= 0 && !outcome->breakdown) {
      outcome->breakdown = true;  // a cycle that cannot move must not loop
      outcome->message = "no progress in a cycle";
    }
    result.iterations += outcome->iterations;
    r_norm = TrueResidual(a, b, x, r, ctx);
    if (outcome->breakdown) {
      if (!std::isfinite(r_norm)) continue;  // handled at the loop head
      if (r_norm <= target) {
        result.status = SolveStatus::kConverged;
      } else {
        result.status = SolveStatus::kBreakdown;
        result.message = absl::StrCat(method, ": ", outcome->message);
      }
      break;
    }
    if (r_norm > target && outcome->estimate_converged) {
      // The estimate claimed convergence but the true residual disagrees:
      // restart from the true residual, and stop when that no longer helps.
      ++result.restarts;
      stalled_restarts =
          (r_norm > 0.5 * last_false_convergence) ? stalled_restarts + 1 : 0;
      last_false_convergence = std::min(last_false_convergence, r_norm);
      if (stalled_restarts >= 3) {
        result.status = SolveStatus::kNotConverged;
        result.message = absl::StrFormat(
            "%s: stagnated at true relative residual %.3e after %d restarts",
            method, r_norm / b_norm, result.restarts);
        break;
      }
    } else if (r_norm > target) {
      ++result.restarts;
    }
  }
  result.relative_residual = r_norm / b_norm;
  return result;
}

}  // namespace factord::internal
