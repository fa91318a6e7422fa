// Method `lu`: direct sparse LU of a general matrix through UMFPACK
// (SuiteSparse 5, long-index API umfpack_dl_*), on the CPU.
//
// UMFPACK takes compressed columns. The CSR arrays of A are the CSC arrays of
// A^T, so they are handed over as they are and every solve asks for the
// transposed system (UMFPACK_At: (A^T)^T x = A x = b); UMFPACK's threshold
// partial pivoting then picks pivots within the rows of A. Only the column
// indices are widened to 64 bits, once, in the analysis. A symmetric-lower
// matrix is expanded to both triangles first.
//
// Analysis = the UMFPACK Symbolic object (ordering and symbolic structure,
// reused while only values change); Factorization = the Numeric object.
// Limits: no diagonal shifts (use ldlt); the inertia is not computed; a zero
// pivot, or an estimated reciprocal condition number below machine epsilon,
// makes the factorization `singular` (a status, not an error).
#include <umfpack.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/base/timer.h"
#include "core/matrix/validate.h"
#include "core/solver/methods.h"
#include "core/solver/residual.h"

namespace factord::internal {
namespace {

static_assert(std::is_same_v<SuiteSparse_long, int64_t>,
              "CsrMatrix::row_ptr is handed to UMFPACK without a copy");

struct SymbolicDeleter {
  void operator()(void* symbolic) const { umfpack_dl_free_symbolic(&symbolic); }
};
struct NumericDeleter {
  void operator()(void* numeric) const { umfpack_dl_free_numeric(&numeric); }
};
using SymbolicPtr = std::unique_ptr<void, SymbolicDeleter>;
using NumericPtr = std::unique_ptr<void, NumericDeleter>;

using Control = std::array<double, UMFPACK_CONTROL>;
using Info = std::array<double, UMFPACK_INFO>;

// UMFPACK's status codes as absl::Status (warnings are handled by callers).
absl::Status UmfpackError(int64_t code, absl::string_view stage) {
  const std::string what = absl::StrCat("UMFPACK ", stage, ": ");
  switch (code) {
    case UMFPACK_ERROR_out_of_memory:
      return absl::ResourceExhaustedError(absl::StrCat(what, "out of memory"));
    case UMFPACK_ERROR_invalid_matrix:
    case UMFPACK_ERROR_n_nonpositive:
    case UMFPACK_ERROR_different_pattern:
      return absl::InvalidArgumentError(
          absl::StrCat(what, "invalid matrix (status ", code, ")"));
    default:
      return absl::InternalError(absl::StrCat(what, "status ", code));
  }
}

absl::StatusOr<Control> MakeControl(const FactorOptions& options) {
  Control control;
  umfpack_dl_defaults(control.data());
  control[UMFPACK_PRL] = 0;  // no printing
  switch (options.ordering) {
    case Ordering::kAuto:
      break;  // UMFPACK's default: AMD/COLAMD, METIS when they do poorly
    case Ordering::kNatural:
      control[UMFPACK_ORDERING] = UMFPACK_ORDERING_NONE;
      break;
    case Ordering::kAmd:
      control[UMFPACK_ORDERING] = UMFPACK_ORDERING_AMD;
      break;
    case Ordering::kMetis:
      control[UMFPACK_ORDERING] = UMFPACK_ORDERING_METIS;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("method lu supports the orderings auto, natural, amd "
                       "and metis, not '",
                       OrderingName(options.ordering), "'"));
  }
  // UMFPACK scales rows itself (by row sums unless told otherwise).
  if (options.scaling == Scaling::kNone) {
    control[UMFPACK_SCALE] = UMFPACK_SCALE_NONE;
  }
  return control;
}

class LuAnalysis : public Analysis {
 public:
  Method method() const override { return Method::kLu; }
  int64_t bytes() const override { return bytes_; }
  int64_t factor_bytes_estimate() const override { return factor_estimate_; }

  int64_t n_ = 0;
  bool expand_ = false;  // symmetric-lower input, expanded before UMFPACK
  uint64_t pattern_hash_ = 0;
  std::vector<int64_t> ap_;  // CSC of A^T = CSR of A (expanded): n + 1
  std::vector<int64_t> ai_;  // column indices of A, 64-bit: nnz
  Control control_;
  SymbolicPtr symbolic_;
  int64_t bytes_ = 0;
  int64_t factor_estimate_ = 0;
  mutable std::atomic<int64_t> factorizations_{0};
};

class LuFactorization : public Factorization {
 public:
  const FactorReport& report() const override { return report_; }
  int64_t bytes() const override { return bytes_; }
  absl::Status Solve(std::span<const double> b, std::span<double> x,
                     const SolveOptions& options, const ExecContext& ctx,
                     SolveReport* report) const override;

  std::shared_ptr<const CsrMatrix> a_;
  std::shared_ptr<const LuAnalysis> analysis_;
  std::vector<double> expanded_values_;  // empty for a general matrix
  NumericPtr numeric_;
  FactorReport report_;
  int64_t bytes_ = 0;

  const double* values() const {
    return analysis_->expand_ ? expanded_values_.data() : a_->values.data();
  }
  // x = A^{-1} b with UMFPACK, `refinement_steps` of its own refinement.
  absl::Status UmfpackSolve(std::span<const double> b, std::span<double> x,
                            int refinement_steps, int* steps_taken) const {
    Control control = analysis_->control_;
    control[UMFPACK_IRSTEP] = refinement_steps;
    Info info;
    const int64_t status = umfpack_dl_solve(
        UMFPACK_At, analysis_->ap_.data(), analysis_->ai_.data(), values(),
        x.data(), b.data(), numeric_.get(), control.data(), info.data());
    if (status < 0) return UmfpackError(status, "solve");
    if (steps_taken != nullptr) {
      *steps_taken = std::max(0, static_cast<int>(info[UMFPACK_IR_TAKEN]));
    }
    return absl::OkStatus();
  }
};

absl::Status LuFactorization::Solve(std::span<const double> b,
                                    std::span<double> x,
                                    const SolveOptions& options,
                                    const ExecContext& ctx,
                                    SolveReport* report) const {
  const int64_t n = analysis_->n_;
  if (static_cast<int64_t>(b.size()) != n ||
      static_cast<int64_t>(x.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat("b and x must have ", n,
                                                   " entries, got ", b.size(),
                                                   " and ", x.size()));
  }
  absl::Status status = ctx.CheckCancelled();
  if (!status.ok()) return status;
  Timer timer;
  *report = SolveReport();
  // The direct solve ignores the initial guess. UMFPACK's refinement
  // (2 steps, its default) stops on its sparse backward error.
  int steps = 0;
  status = UmfpackSolve(b, x, 2, &steps);
  if (!status.ok()) return status;
  ResidualNorms norms = ComputeResidualNorms(*a_, b, x);
  // Classical refinement on the true residual while it keeps halving.
  const int max_steps = std::min(options.max_iterations, 10);
  std::vector<double> r(n), d(n), x_new(n);
  for (int step = 0;
       step < max_steps && norms.relative_residual > options.tolerance &&
       std::isfinite(norms.relative_residual);
       ++step) {
    status = ctx.CheckCancelled();
    if (!status.ok()) return status;
    // r = b - A x;  A d = r;  x_new = x + d
    MultiplyUploaded(*a_, x, r);
    for (int64_t i = 0; i < n; ++i) r[i] = b[i] - r[i];
    status = UmfpackSolve(r, d, 0, nullptr);
    if (!status.ok()) return status;
    for (int64_t i = 0; i < n; ++i) x_new[i] = x[i] + d[i];
    const ResidualNorms new_norms = ComputeResidualNorms(*a_, b, x_new);
    if (!(new_norms.relative_residual < norms.relative_residual)) break;
    std::copy(x_new.begin(), x_new.end(), x.begin());
    ++steps;
    const bool halved =
        new_norms.relative_residual <= 0.5 * norms.relative_residual;
    norms = new_norms;
    if (!halved) break;
  }
  report->relative_residual = norms.relative_residual;
  report->backward_error = norms.backward_error;
  report->iterations = steps;
  const bool converged = norms.relative_residual <= options.tolerance;
  if (converged) {
    report->status = SolveStatus::kConverged;
    if (report_.status == FactorStatus::kSingular) {
      report->message =
          "the matrix is singular; this solution has a small "
          "residual (a consistent right-hand side)";
    }
  } else if (report_.status == FactorStatus::kSingular) {
    report->status = SolveStatus::kSingular;
    report->message = report_.message;
  } else {
    report->status = SolveStatus::kNotConverged;
    report->message = absl::StrFormat(
        "relative residual %.3g above the tolerance %.3g after %d refinement "
        "steps",
        norms.relative_residual, options.tolerance, steps);
  }
  report->solve_s = timer.Seconds();
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeLu(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx) {
  Timer timer;
  absl::Status status = ValidateCsr(a);
  if (!status.ok()) return status;
  if (a.rows != a.cols || a.rows < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("method lu needs a square matrix with n >= 1, got ",
                     a.rows, " x ", a.cols));
  }
  absl::StatusOr<Control> control = MakeControl(options);
  if (!control.ok()) return control.status();
  status = ctx.CheckCancelled();
  if (!status.ok()) return status;

  auto analysis = std::make_shared<LuAnalysis>();
  analysis->n_ = a.rows;
  analysis->expand_ = IsSymmetric(a.structure);
  analysis->pattern_hash_ = PatternHash(a);
  analysis->control_ = *control;
  const CsrMatrix* full = &a;
  CsrMatrix expanded;
  if (analysis->expand_) {
    expanded = ExpandSymmetric(a);
    full = &expanded;
  }
  analysis->ap_ = full->row_ptr;
  analysis->ai_.assign(full->col_idx.begin(), full->col_idx.end());

  void* symbolic = nullptr;
  Info info;
  // The first values guide the ordering strategy (diagonal preference);
  // the Symbolic object stays valid for any values on this pattern.
  const int64_t code = umfpack_dl_symbolic(
      analysis->n_, analysis->n_, analysis->ap_.data(), analysis->ai_.data(),
      full->values.data(), &symbolic, analysis->control_.data(), info.data());
  analysis->symbolic_.reset(symbolic);
  if (code != UMFPACK_OK) return UmfpackError(code, "symbolic analysis");
  const double unit = info[UMFPACK_SIZE_OF_UNIT];
  analysis->bytes_ =
      static_cast<int64_t>(info[UMFPACK_SYMBOLIC_SIZE] * unit) +
      static_cast<int64_t>((analysis->ap_.size() + analysis->ai_.size()) *
                           sizeof(int64_t));
  analysis->factor_estimate_ =
      static_cast<int64_t>(info[UMFPACK_PEAK_MEMORY_ESTIMATE] * unit);
  analysis->analyze_s = timer.Seconds();
  return analysis;
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeLu(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx) {
  auto lu = std::dynamic_pointer_cast<const LuAnalysis>(analysis);
  if (a == nullptr || lu == nullptr) {
    return absl::InvalidArgumentError(
        "FactorizeLu needs a matrix and an analysis made by AnalyzeLu");
  }
  absl::Status status = ValidateCsr(*a);
  if (!status.ok()) return status;
  if (a->rows != lu->n_ || PatternHash(*a) != lu->pattern_hash_) {
    return absl::InvalidArgumentError(
        "the matrix does not have the pattern the lu analysis was made for");
  }
  status = ctx.CheckCancelled();
  if (!status.ok()) return status;

  auto factorization = std::make_shared<LuFactorization>();
  FactorReport& report = factorization->report_;
  report.analysis_reused = lu->factorizations_.fetch_add(1) > 0;
  report.analyze_s = report.analysis_reused ? 0.0 : lu->analyze_s;
  Timer timer;
  if (lu->expand_) {
    factorization->expanded_values_ = ExpandSymmetric(*a).values;
  }
  report.preprocess_s = timer.Seconds();
  factorization->a_ = std::move(a);
  factorization->analysis_ = lu;

  timer.Reset();
  void* numeric = nullptr;
  Info info;
  const int64_t code = umfpack_dl_numeric(
      lu->ap_.data(), lu->ai_.data(), factorization->values(),
      lu->symbolic_.get(), &numeric, lu->control_.data(), info.data());
  factorization->numeric_.reset(numeric);
  if (code < 0) return UmfpackError(code, "numeric factorization");
  report.factorize_s = timer.Seconds();

  const int64_t n = lu->n_;
  const double rcond = info[UMFPACK_RCOND];
  const auto zero_pivots = n - static_cast<int64_t>(info[UMFPACK_UDIAG_NZ]);
  if (code == UMFPACK_WARNING_singular_matrix) {
    report.status = FactorStatus::kSingular;
    report.message = absl::StrCat("singular: ", zero_pivots, " of ", n,
                                  " pivots are zero (UMFPACK)");
  } else if (!(rcond >= std::numeric_limits<double>::epsilon())) {
    report.status = FactorStatus::kSingular;
    report.message = absl::StrFormat(
        "numerically singular: UMFPACK's reciprocal condition estimate "
        "min|u_ii|/max|u_ii| = %.3g is below machine epsilon",
        rcond);
  } else {
    report.message =
        absl::StrFormat("UMFPACK reciprocal condition estimate %.3g", rcond);
  }
  SuiteSparse_long lnz = 0, unz = 0, n_row = 0, n_col = 0, udiag = 0;
  umfpack_dl_get_lunz(&lnz, &unz, &n_row, &n_col, &udiag, numeric);
  // L's unit diagonal is counted once, with U's.
  report.nnz_factor = lnz + unz - n;
  report.factor_bytes = static_cast<int64_t>(info[UMFPACK_NUMERIC_SIZE] *
                                             info[UMFPACK_SIZE_OF_UNIT]);
  report.inertia_reliable = false;
  factorization->bytes_ =
      report.factor_bytes +
      static_cast<int64_t>(factorization->expanded_values_.size() *
                           sizeof(double));
  return factorization;
}

}  // namespace factord::internal
