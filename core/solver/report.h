// What a factorization and a solve report. Numerical outcomes (singular,
// perturbed, not converged) are data here, not errors.
#ifndef FACTORD_SOLVER_REPORT_H_
#define FACTORD_SOLVER_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace factord {

enum class FactorStatus { kOk, kSingular, kPerturbed };
enum class SolveStatus { kConverged, kNotConverged, kBreakdown, kSingular };

absl::string_view FactorStatusName(FactorStatus s);
absl::string_view SolveStatusName(SolveStatus s);

struct Inertia {
  int64_t positive = 0;
  int64_t negative = 0;
  int64_t zero = 0;
};

struct FactorReport {
  FactorStatus status = FactorStatus::kOk;
  Inertia inertia;
  bool inertia_reliable = false;  // true only when the method yields it
  int64_t perturbed_pivots = 0;
  int64_t two_by_two_pivots = 0;
  int64_t delayed_pivots = 0;
  int64_t singular_blocks = 0;
  int64_t nnz_factor = 0;
  int64_t factor_bytes = 0;
  int64_t blocks = 0;
  // Floating-point operations of the numeric phase (multiply and add
  // counted apart, LAPACK's convention: a dense Cholesky of order n is
  // about n^3/3), counted from the factor's structure; 0 when the method
  // does not count them.
  double factor_flops = 0;
  // The largest front (rows) of a multifrontal method, the flops of its
  // elimination and the wall time of its numeric work (0 when not timed).
  int64_t largest_front = 0;
  double largest_front_flops = 0;
  double largest_front_s = 0;
  // The fill-reducing ordering the analysis used (for ordering=auto: the
  // one chosen), and what its choice was based on.
  std::string ordering;
  std::string ordering_note;
  bool analysis_reused = false;
  // jacobi_ldlt (S2): ||L D L^T - A||_inf / ||A||_inf after each sweep.
  std::vector<double> sweep_errors;
  double preprocess_s = 0;
  double analyze_s = 0;
  double factorize_s = 0;
  std::string message;  // human-readable detail, e.g. the first singular block
};

struct SolveReport {
  SolveStatus status = SolveStatus::kConverged;
  // Both on the system factorized: the matrix as uploaded plus the IPM
  // shifts (FactorOptions::ShiftVector), unscaled, expanded.
  double relative_residual = 0;  // ||b - Ax||_2 / ||b||_2
  double backward_error =
      0;               // ||b-Ax||_inf / (||A||_inf ||x||_inf + ||b||_inf)
  int iterations = 0;  // refinement steps kept
  double solve_s = 0;  // everything: substitution, refinement, residuals
  // Of solve_s: the first substitution (permutation, scaling, L, D, L^T)
  // and the refinement steps after it (their substitutions, products with
  // A and residual norms). 0 when the method does not split them.
  double substitution_s = 0;
  double refinement_s = 0;
  std::string message;
};

}  // namespace factord

#endif  // FACTORD_SOLVER_REPORT_H_
