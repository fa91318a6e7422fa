// ic and ilu (S4): level-based incomplete factorizations IC(k) / ILU(k) as
// Krylov preconditioners.
//
// Analysis (incomplete_symbolic.h): ordering (RCM by default, S4 §3; any
// ComputeOrdering choice otherwise), symbolic level-of-fill (S4 §2.1) on
// P A P^T, level sets of both triangles, supervariables (S4 §2.3). Reused
// when only the values change.
// Factorization (incomplete_numeric.h): the IPM shifts (shift_first /
// shift_rest / diagonal_shift) added to the diagonal, optional column-norm
// scaling of the shifted matrix (scaling = column_norm, S4 §3), IKJ on the
// pattern; for ic the factor is IC(k) in LDL^T form (S4 eq. 1). Breakdown
// restarts on A + alpha diag(A), reported in FactorReport.message and
// perturbed_pivots. The shifted matrix is the system: the Krylov method
// solves A + shifts, preconditioned by the factor of A + shifts.
// Solve (incomplete_preconditioner.h): PCG for ic, GMRES for ilu (Krylov
// auto) with triangular solves trisolve = exact | jacobi | block_jacobi and
// trisolve_sweeps sweeps (S4 eqs. 2-5); blocks of at most
// trisolve_block_size (12 by default, S4 §3.3).
#include <memory>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/timer.h"
#include "core/block/supervariables.h"
#include "core/incomplete/incomplete_numeric.h"
#include "core/incomplete/incomplete_preconditioner.h"
#include "core/incomplete/incomplete_symbolic.h"
#include "core/krylov/operator.h"
#include "core/krylov/preconditioned_solve.h"
#include "core/order/ordering.h"
#include "core/order/rcm.h"
#include "core/solver/methods.h"
#include "core/solver/validate_options.h"

namespace factord::internal {
namespace {

class IncompleteFactorization final : public Factorization {
 public:
  IncompleteFactorization(Method method, std::shared_ptr<const CsrMatrix> a,
                          std::vector<double> shift,
                          std::shared_ptr<const CsrMatrix> full,
                          std::unique_ptr<IncompletePreconditioner> m,
                          FactorReport report)
      : method_(method),
        a_(std::move(a)),
        shift_(std::move(shift)),
        full_(std::move(full)),
        m_(std::move(m)),
        report_(std::move(report)) {}
  const FactorReport& report() const override { return report_; }
  int64_t bytes() const override {
    return (full_ != a_ ? full_->bytes() : 0) + m_->bytes() +
           static_cast<int64_t>(shift_.size() * sizeof(double));
  }
  absl::Status Solve(std::span<const double> b, std::span<double> x,
                     const SolveOptions& options, const ExecContext& ctx,
                     SolveReport* report) const override {
    Timer timer;
    if (static_cast<int64_t>(b.size()) != full_->rows ||
        static_cast<int64_t>(x.size()) != full_->rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("right-hand side and solution need ", full_->rows,
                       " entries, got ", b.size(), " and ", x.size()));
    }
    Krylov krylov = options.krylov;
    if (krylov == Krylov::kAuto) {
      krylov = method_ == Method::kIc ? Krylov::kCg : Krylov::kGmres;
    }
    if (krylov == Krylov::kNone) {
      return absl::InvalidArgumentError(
          "ic/ilu are preconditioners and need a Krylov method");
    }
    if (absl::Status s = SolvePreconditioned(*full_, *a_, shift_, *m_, krylov,
                                             b, x, options, ctx, report);
        !s.ok()) {
      return s;
    }
    report->solve_s = timer.Seconds();
    return absl::OkStatus();
  }

 private:
  Method method_;
  std::shared_ptr<const CsrMatrix> a_;
  std::vector<double> shift_;  // ShiftVector of the options; empty: none
  std::shared_ptr<const CsrMatrix> full_;
  std::unique_ptr<IncompletePreconditioner> m_;
  FactorReport report_;
};

// P A P^T (`permuted`, perm[new] = old) with options.ShiftOf(perm[k]) added
// to diagonal entry k, inserted where the matrix stores none: the pattern
// of the factor always holds the diagonal.
CsrMatrix WithShifts(const CsrMatrix& permuted,
                     const std::vector<int32_t>& perm,
                     const FactorOptions& options) {
  CsrMatrix out;
  out.rows = out.cols = permuted.rows;
  out.structure = permuted.structure;
  out.row_ptr.assign(1, 0);
  out.col_idx.reserve(permuted.col_idx.size() + permuted.rows);
  out.values.reserve(permuted.values.size() + permuted.rows);
  for (int64_t k = 0; k < permuted.rows; ++k) {
    const double shift = options.ShiftOf(perm[k]);
    bool placed = false;
    for (int64_t p = permuted.row_ptr[k]; p < permuted.row_ptr[k + 1]; ++p) {
      const int32_t j = permuted.col_idx[p];
      if (!placed && j >= k) {
        placed = true;
        out.col_idx.push_back(static_cast<int32_t>(k));
        out.values.push_back(shift + (j == k ? permuted.values[p] : 0.0));
        if (j == k) continue;
      }
      out.col_idx.push_back(j);
      out.values.push_back(permuted.values[p]);
    }
    if (!placed) {
      out.col_idx.push_back(static_cast<int32_t>(k));
      out.values.push_back(shift);
    }
    out.row_ptr.push_back(static_cast<int64_t>(out.col_idx.size()));
  }
  return out;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeIncomplete(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx) {
  Timer timer;
  if (a.rows != a.cols) {
    return absl::InvalidArgumentError("ic/ilu need a square matrix");
  }
  if (options.method == Method::kIc && !IsSymmetric(a.structure)) {
    return absl::InvalidArgumentError(
        "ic needs a symmetric (lower) matrix; use ilu");
  }
  if (absl::Status s = ValidateIncompleteOptions(options); !s.ok()) return s;
  const CsrMatrix expanded = IsSymmetric(a.structure) ? ExpandSymmetric(a) : a;
  std::vector<int32_t> perm;
  if (options.ordering == Ordering::kAuto) {
    perm = ReverseCuthillMcKee(expanded);
  } else {
    absl::StatusOr<std::vector<int32_t>> ordering =
        ComputeOrdering(expanded, options.ordering);
    if (!ordering.ok()) return ordering.status();
    perm = *std::move(ordering);
  }
  absl::StatusOr<IncompletePattern> pattern =
      SymbolicIlu(PermuteSymmetric(expanded, perm), options.fill_level, ctx);
  if (!pattern.ok()) return pattern.status();
  // S4 §2.3: supervariables after the ordering, for block-Jacobi solves.
  std::vector<int64_t> sv_ptr = FindSupervariables(expanded, perm);
  auto analysis = std::make_shared<IncompleteAnalysis>(
      options.method, *std::move(pattern), std::move(perm), std::move(sv_ptr));
  analysis->analyze_s = timer.Seconds();
  return analysis;
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeIncomplete(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx) {
  auto pattern = std::dynamic_pointer_cast<const IncompleteAnalysis>(analysis);
  if (a == nullptr || pattern == nullptr || pattern->n() != a->rows ||
      pattern->method() != options.method) {
    return absl::InvalidArgumentError(
        "FactorizeIncomplete needs an ic/ilu analysis of this matrix");
  }
  if (absl::Status s = ValidateIncompleteOptions(options); !s.ok()) return s;
  FactorReport report;
  report.analyze_s = analysis->analyze_s;
  Timer timer;
  std::shared_ptr<const CsrMatrix> full =
      IsSymmetric(a->structure)
          ? std::make_shared<const CsrMatrix>(ExpandSymmetric(*a))
          : a;
  CsrMatrix permuted = PermuteSymmetric(*full, pattern->perm());
  if (options.HasShift()) {
    permuted = WithShifts(permuted, pattern->perm(), options);
  }
  std::vector<double> scale;
  if (options.scaling == Scaling::kColumnNorm) {  // S4 §3
    scale = ColumnNormScaling(permuted);
    ScaleSymmetric(scale, &permuted);
  }
  absl::StatusOr<IncompleteValues> values = FactorIncompleteValues(
      pattern->pattern(), permuted, options.method == Method::kIc, ctx);
  if (!values.ok()) return values.status();
  report.perturbed_pivots = values->breakdowns;
  if (values->alpha > 0 || values->breakdowns > 0) {
    report.message = absl::StrCat(
        "incomplete factorization broke down; factored A + ", values->alpha,
        " diag(A)",
        values->breakdowns > 0 ? absl::StrCat(", ", values->breakdowns,
                                              " pivots still replaced by "
                                              "max(|a_ii|, 1e-8 max|a_jj|)")
                               : std::string());
  }
  report.nnz_factor = static_cast<int64_t>(values->lu.size());
  const IncompleteSolveOptions solve{.trisolve = options.trisolve,
                                     .sweeps = options.trisolve_sweeps,
                                     .block_size = options.trisolve_block_size};
  absl::StatusOr<std::unique_ptr<IncompletePreconditioner>> m =
      IncompletePreconditioner::Create(pattern, std::move(values->lu),
                                       std::move(scale), solve, ctx);
  if (!m.ok()) return m.status();
  if (options.trisolve == TriangularSolve::kBlockJacobi) {
    report.blocks = (*m)->blocks();
    report.singular_blocks = (*m)->singular_blocks();
    if (report.singular_blocks > 0) {
      absl::StrAppend(&report.message, report.message.empty() ? "" : "; ",
                      report.singular_blocks,
                      " diagonal blocks of L or U are singular (their "
                      "diagonal's inverse is used)");
    }
  }
  report.factorize_s = timer.Seconds();
  report.factor_bytes = (full != a ? full->bytes() : 0) + (*m)->bytes();
  const int64_t n = a->rows;
  return std::make_shared<IncompleteFactorization>(
      options.method, std::move(a), options.ShiftVector(n), std::move(full),
      *std::move(m), std::move(report));
}

}  // namespace factord::internal
