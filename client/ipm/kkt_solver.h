// The linear-algebra seam of the interior-point method: a solver for the
// regularized augmented (KKT) system
//
//   K = [ -(Q + D + delta_p I)   A^T       ]   (N primal rows first)
//       [  A                     delta_d I ]   (then m constraint rows)
//
// stored as a symmetric matrix by its lower triangle in CSR. K is
// quasi-definite, so its inertia is (positive m, negative N, zero 0).
//
// The IPM calls SetValues once per iteration (the first call also fixes the
// pattern), then Factorize one or more times (raising the diagonal shifts
// when the inertia or the factor status is wrong, without re-sending
// values), then Solve for the predictor and the corrector. Implementations:
// RemoteKktSolver (through factord) and, in tests, a dense LAPACK one.
#ifndef FACTORD_CLIENT_IPM_KKT_SOLVER_H_
#define FACTORD_CLIENT_IPM_KKT_SOLVER_H_

#include <cstdint>
#include <string>
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

  // Bytes this solver has sent so far (requests: pattern, values, rhs).
  virtual int64_t bytes_sent() const = 0;
};

}  // namespace factord::ipm

#endif  // FACTORD_CLIENT_IPM_KKT_SOLVER_H_
