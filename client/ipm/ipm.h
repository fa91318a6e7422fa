// Primal-dual interior-point method (Mehrotra predictor-corrector) for LPs
// and convex QPs, on the StandardForm of a problem. Every linear solve goes
// through a KktSolver on the regularized quasi-definite augmented system
// (kkt_solver.h): per iteration one FactorizeAndSolve with the new values
// and the predictor's right-hand side (repeated without values only when the
// inertia is wrong), then one Solve for the corrector.
//
// Method (Mehrotra 1992; Wright, "Primal-Dual Interior-Point Methods", 1997,
// ch. 10-11; Gertz & Wright, OOQP, for QPs): starting point by Mehrotra's
// heuristic (minimum-norm x, least-squares y, shifted into the interior);
// affine-scaling predictor, centring sigma = (mu_aff/mu)^3, corrector with
// the second-order term; step lengths by fraction to the boundary (separate
// primal and dual steps for LPs, one common step for QPs). Regularization
// delta_p, delta_d is applied as Factorize shifts (or in the values); when the
// factorization reports an inertia other than (m, N, 0) or a bad status, the
// shifts are raised (x10) and the matrix refactorized, as Ipopt does with
// MUMPS. Stopping: relative primal and dual infeasibility and relative gap <=
// tol (1e-8), measured on the unscaled problem. Infeasibility/unboundedness
// detection is best-effort only: diverging iterates end the run.
#ifndef FACTORD_CLIENT_IPM_IPM_H_
#define FACTORD_CLIENT_IPM_IPM_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/ipm/kkt_solver.h"
#include "client/ipm/qp_problem.h"
#include "client/ipm/standard_form.h"

namespace factord::ipm {

struct IpmOptions {
  int max_iterations = 200;
  double tolerance = 1e-8;
  // delta_p, delta_d on the scaled problem. Small, because the primal term
  // acts as a proximal step limit (|dx| <~ r_d / delta_p): netlib finnis
  // needs 118 iterations at 1e-9, 25 at 1e-12; YAO does not converge in 200
  // at 1e-10 and takes 80 at 1e-12. ldlt pivots, so quasi-definiteness is
  // not needed for stability.
  double primal_regularization = 1e-12;
  double dual_regularization = 1e-12;
  // Where delta_p, delta_d go. true: in the Factorize shifts, so the
  // uploaded values stay the unregularized K and only the shifts change
  // between regularized attempts (the server solves K + shifts). false: in
  // the uploaded values (for methods that take no shifts, lu).
  bool regularization_in_shifts = true;
  double step_fraction = 0.995;  // fraction to the boundary
  double max_shift = 1e6;        // give up raising shifts above this
};

struct IterationLog {
  int iteration = 0;
  double primal_infeasibility = 0;  // relative
  double dual_infeasibility = 0;    // relative
  double gap = 0;                   // relative
  double mu = 0;
  double objective = 0;  // primal, in the file's sense
  double step_primal = 0, step_dual = 0;
  double factorize_s = 0;  // summed over refactorizations
  double solve_s = 0;
  int factorizations = 0;        // > 1 when the shifts were raised
  double shift = 0;              // the regularization shift used
  bool analysis_reused = false;  // of the last factorization
  bool inertia_known = false;
  int64_t bytes_sent = 0;   // by the KktSolver in this iteration
  int64_t round_trips = 0;  // requests of the KktSolver in this iteration
};

enum class IpmStatus {
  kOptimal,
  kMaxIterations,
  kInfeasibleOrUnbounded,  // diverging iterates (best effort)
  kNumericalFailure,       // factorization could not be repaired, NaN, stall
};
const char* IpmStatusName(IpmStatus s);

struct IpmResult {
  IpmStatus status = IpmStatus::kMaxIterations;
  double objective = 0;  // at x, in the file's sense
  int iterations = 0;
  std::vector<double> x;  // original columns, size n
  std::string message;
  int64_t kkt_dim = 0;            // N + m of the augmented system
  int64_t kkt_nnz = 0;            // stored entries (lower triangle)
  double objective_constant = 0;  // from the file, included in objective
};

// Solves `problem` with `kkt` (not owned; used only during the call).
// `on_iteration` (may be empty) is called after each iteration. Errors are
// transport or input errors (a KktSolver call failed, bad bounds); numerical
// outcomes are in IpmResult::status.
absl::StatusOr<IpmResult> SolveQp(
    const QpProblem& problem, KktSolver& kkt, const IpmOptions& options,
    const std::function<void(const IterationLog&)>& on_iteration = {});

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_IPM_H_
