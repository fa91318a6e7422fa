// The linear-algebra seam of the interior-point method: a solver for the
// regularized augmented (KKT) system
//
//   K = [ -(Q + D + delta_p I)   A^T       ]   (N primal rows first)
//       [  A                     delta_d I ]   (then m constraint rows)
//
// stored as a symmetric matrix by its lower triangle in CSR. K is
// quasi-definite, so its inertia is (positive m, negative N, zero 0).
//
// The IPM calls FactorizeAndSolve once per iteration with the new values
// and the predictor's right-hand side (the first call also fixes the
// pattern), again with no values when the inertia or the factor status is
// wrong (raised diagonal shifts, values not re-sent), then Solve for the
// corrector, whose right-hand side needs the predictor's solution.
// FactorizeAndSolve is SetValues + Factorize + Solve by default; a remote
// solver does it in one round trip. Implementations: RemoteKktSolver
// (through factord) and, in tests, a dense LAPACK one.
#ifndef FACTORD_CLIENT_IPM_KKT_SOLVER_H_
#define FACTORD_CLIENT_IPM_KKT_SOLVER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace factord::ipm {

// Symmetric matrix by its lower triangle (col <= row) in CSR: row i holds
// entries [row_start[i], row_start[i+1]) with ascending columns; every row
// holds its diagonal. row_start has dim + 1 entries.
struct SymmetricLowerCsr {
  int64_t dim = 0;
  std::vector<int64_t> row_start{0};
  std::vector<int> col_index;
  std::vector<double> values;

  int64_t nnz() const { return static_cast<int64_t>(col_index.size()); }
};

// Added to the diagonal at factorization time only: shift_first to the first
// shift_count entries, shift_rest to the others (the uploaded values and the
// residuals of refinement are unchanged).
struct DiagonalShift {
  double shift_first = 0;
  double shift_rest = 0;
  int64_t shift_count = 0;
};

struct KktFactorReport {
  bool ok = true;              // factor status ok (not singular/perturbed)
  bool inertia_known = false;  // the method reports a reliable inertia
  int64_t positive = 0, negative = 0, zero = 0;
  bool analysis_reused = false;
  double factorize_s = 0;  // as measured by the solver
  std::string message;
};

struct KktSolveReport {
  double solve_s = 0;
  double max_relative_residual = 0;  // over the right-hand sides
};

struct KktStepReport {
  KktFactorReport factor;
  KktSolveReport solve;
};

class KktSolver {
 public:
  virtual ~KktSolver() = default;

  // Sets the values of K. The first call fixes the pattern; later calls must
  // pass the same pattern (only values are sent). `kkt` is not kept.
  virtual absl::Status SetValues(const SymmetricLowerCsr& kkt) = 0;

  // Factorizes the current values plus `shift`.
  virtual absl::StatusOr<KktFactorReport> Factorize(
      const DiagonalShift& shift) = 0;

  // Solves K x = b for each b in `rhs` (each of size dim), replacing it by x.
  virtual absl::StatusOr<KktSolveReport> Solve(
      std::vector<std::vector<double>>& rhs) = 0;

  // One iteration's factorization and first solves: sets the values of K
  // to `kkt` (nullptr: keeps the values set last; the first call must give
  // them), factorizes them plus `shift`, and solves K x = b for each b in
  // `rhs` (each of size dim), replacing it by x. The solves are done
  // whatever the factor report says: the caller judges the report and
  // discards x when it refactorizes. `kkt` is not kept.
  virtual absl::StatusOr<KktStepReport> FactorizeAndSolve(
      const SymmetricLowerCsr* kkt, const DiagonalShift& shift,
      std::vector<std::vector<double>>& rhs) {
    if (kkt != nullptr) {
      if (absl::Status s = SetValues(*kkt); !s.ok()) return s;
    }
    KktStepReport report;
    absl::StatusOr<KktFactorReport> factor = Factorize(shift);
    if (!factor.ok()) return factor.status();
    report.factor = *std::move(factor);
    absl::StatusOr<KktSolveReport> solve = Solve(rhs);
    if (!solve.ok()) return solve.status();
    report.solve = *solve;
    return report;
  }

  // Bytes this solver has sent so far (requests: pattern, values, rhs).
  virtual int64_t bytes_sent() const = 0;
  // Requests this solver has made so far (for a remote solver, round trips
  // to the server; 0 when it does not count them).
  virtual int64_t round_trips() const { return 0; }
};

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_KKT_SOLVER_H_
