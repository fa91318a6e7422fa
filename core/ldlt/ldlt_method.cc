// Method ldlt: the complete multifrontal LDL^T for symmetric indefinite
// matrices (S1 taken to full fill, with S2 §V push-back of the pivots a
// front cannot supply), the direct path of an interior-point code.
//
// Analysis (pattern and options, reused unchanged when the values change):
// fill-reducing ordering (auto: AMD, or METIS nested dissection when
// CHOLMOD's rule finds AMD's order poor and METIS predicts fewer flops;
// core/order/ordering_choice.h; or as requested), etree,
// postorder, column counts, amalgamated fronts, the gather map, and the
// memory estimate. With Scaling::kMatching it is also value-dependent (S1
// §II, Duff & Pralet's compressed ordering, MUMPS ICNTL(12) = 2): the
// matching's 2x2 candidates on the values given to Analyze are ordered as
// one node each, eliminated consecutively and kept in one front, and later
// factorizations keep them whatever their values. Factorization: the IPM shifts
// added to the stored values, Ruiz (or, with Scaling::kMatching, the
// matching-based) scaling recomputed from them, the front tree factorized
// (threshold 1x1/2x2 pivoting inside each front, delays to the parent,
// perturbation only at a root), inertia counted from D. Solve: supernodal
// substitution (ldlt_solve.h; many right-hand sides as one matrix) and
// iterative refinement on the system factorized, the matrix as uploaded
// plus the IPM shifts (the regularized system the caller asked for), only
// while the solution misses its target and a step still helps; the
// residuals reported are that system's.
//
// Pivoting policy (core/dense/kernels/dense_ldlt.h): threshold u = 0.01 first;
// a front may delay up to a quarter of its own columns, beyond that it takes
// pivots down to a weak threshold 1e-10 (never below the zero-pivot
// tolerance 1e-13 max|S A S|), so that delays do not snowball into a dense
// root on ill-conditioned late IPM iterations; refinement absorbs the pivot
// growth. Such a weak pivot is taken only while its Schur update stays
// below kMaxWeakGrowth max|S A S|: a column that a child's weak pivot grew
// is not taken weakly again, so that growth does not compound up a chain of
// delaying fronts (it did, to |S| ~ 1e15 max|S A S| and a wrong inertia, on
// an Ipopt KKT matrix of CONT-050: tests/core/ldlt/
// ldlt_delayed_pivots_test.cc). A numerically zero column is a zero pivot in
// any front.
//
// Check: after the factorization, ||B x - L D L^T x|| / (||B|| ||x||) on
// one fixed x (ldlt_factor_check.h; about the cost of a solve). Beyond
// kMaxFactorResidual the factor is worse than the pivoting policy can make
// it and the inertia is reported unreliable (status stays kOk: the solve
// may still converge by refinement).
//
// Limits: the symbolic structure assumes no delays, so heavy delaying grows
// fronts beyond the estimate; fronts with more than 32 fully summed columns
// use the blocked kernel (dense_ldlt_blocked.h), but the forced elimination
// at a root is unblocked; perturbed pivots (numerically singular
// matrices) make the inertia unreliable and the status kPerturbed. Refinement
// runs against the shifted matrix, the system factorized, so it converges
// whatever the size of the shifts; a caller that wants the unshifted
// system's solution refines against that itself (the shifted factor as its
// preconditioner). The factor lives in slots sized by the analysis; only
// fronts that received delayed pivots allocate their own storage.
// block_ildlt (the incomplete variant) is routed to
// core/block_ildlt/block_ildlt_method.cc.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/timer.h"
#include "core/block_ildlt/block_ildlt_method.h"
#include "core/dense/pivot_params.h"
#include "core/ldlt/kernels/ldlt_kernels.h"
#include "core/ldlt/ldlt_analysis.h"
#include "core/ldlt/ldlt_factor_check.h"
#include "core/ldlt/ldlt_front.h"
#include "core/ldlt/ldlt_solve.h"
#include "core/ldlt/ldlt_symbolic.h"
#include "core/order/ordering.h"
#include "core/order/ordering_choice.h"
#include "core/order/scaling.h"
#include "core/solver/methods.h"
#include "core/solver/residual.h"

namespace factord::internal {
namespace {

// Refinement stops when a step no longer helps or after this many steps.
constexpr int kMaxRefinementSteps = 10;
// Refinement is needed while the normwise backward error exceeds this. The
// residual b - A x is itself computed with a rounding error of a few eps
// (|A||x| + |b|) (Higham, ASNA 2nd ed., §12.2: fixed-precision refinement
// reaches a backward error of order eps and no further), so a backward
// error of 4 eps is backward stable and a step below it only reshuffles
// roundoff; above it, a step fixes pivot growth and perturbed pivots.
// Measured on the shared KKT set (156 systems, tolerance
// 1e-10): every step this target called for was kept (the backward error
// fell from up to 1e-12 to below 1e-16), one of them from 6.4 eps; 3D
// Poisson 32^3 and 48^3 end their first substitution at 1.4 to 3.2 eps.
constexpr double kTargetBackwardError =
    4 * std::numeric_limits<double>::epsilon();
// Bound on a weak pivot's Schur update, relative to max|S A S| (see the
// pivoting policy above). Measured on the ldlt tests and the shared KKT
// set: no weak pivot there exceeds it (the factors are unchanged), while
// CONT-050's chain needs it below about 1e12; 1e9 leaves a factor residual
// of 4e-7 there.
constexpr double kMaxWeakGrowth = 1e9;
// A factor residual above this (about eps times the largest growth the
// policy allows, with room for accumulation) means the factor cannot be
// trusted: measured at most 1.1e-8 on the ldlt tests and the shared KKT
// set, 4e-7 on CONT-050 with the bound, 0.7 to 1.5 without it.
constexpr double kMaxFactorResidual = 1e-5;

// a.values with the IPM shifts added to the stored diagonal entries, or
// empty when there are no shifts (then a.values are the values).
std::vector<double> ShiftedValues(const CsrMatrix& a,
                                  const FactorOptions& options) {
  std::vector<double> values;
  if (!options.HasShift()) return values;
  values = a.values;
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (a.col_idx[k] == i) values[k] += options.ShiftOf(i);
    }
  }
  return values;
}

// The matching's 2x2 candidates on the values of the matrix given to
// Analyze (shifted as its first factorization will be), or none when it
// carries no (finite) values: S1 §II, Duff & Pralet's compressed ordering.
// Every candidate is imposed. Keeping only pairs whose scaled diagonals are
// both below the pivot threshold (neither passes a 1x1 test up front) was
// measured and rejected: on the ldlt KKT test set it keeps 21227 of the
// 21411 delayed pivots (all candidates: 4358), because a pair also helps
// by eliminating a constraint right after its variable, 1x1 after 1x1.
std::vector<std::pair<int32_t, int32_t>> AnalysisPairs(
    const CsrMatrix& a, const FactorOptions& options) {
  if (options.scaling != Scaling::kMatching || !options.impose_matching_pairs ||
      static_cast<int64_t>(a.values.size()) != a.nnz()) {
    return {};
  }
  const std::vector<double> shifted = ShiftedValues(a, options);
  std::span<const double> values = shifted.empty()
                                       ? std::span<const double>(a.values)
                                       : std::span<const double>(shifted);
  for (double v : values) {
    if (!std::isfinite(v)) return {};
  }
  return ComputeMatchingScaling(a, values).two_by_two;
}

class LdltFactorization final : public Factorization {
 public:
  LdltFactorization(std::shared_ptr<const CsrMatrix> a,
                    std::vector<double> shift,
                    std::shared_ptr<const LdltAnalysis> analysis,
                    std::vector<double> scaling, FrontFactors fronts,
                    FactorReport report)
      : a_(std::move(a)),
        shift_(std::move(shift)),
        analysis_(std::move(analysis)),
        scaling_(std::move(scaling)),
        fronts_(std::move(fronts)),
        report_(std::move(report)) {}

  const FactorReport& report() const override { return report_; }
  int64_t bytes() const override {
    return static_cast<int64_t>((scaling_.size() + shift_.size()) *
                                sizeof(double)) +
           fronts_.bytes();
  }

  // x <- A_f^{-1} x with the factorized (shifted) matrix for nrhs columns
  // (n x nrhs, column-major), all substituted as one matrix. y and work
  // are scratch.
  void ApplyInverse(std::span<double> x, int nrhs, std::vector<double>* y,
                    std::vector<double>* work) const {
    const LdltSymbolic& sym = analysis_->symbolic();
    const int64_t n = sym.n;
    y->resize(n * nrhs);
    for (int c = 0; c < nrhs; ++c) {
      const double* xc = x.data() + c * n;
      double* yc = y->data() + c * n;
      for (int64_t k = 0; k < n; ++k) {
        const int32_t i = sym.perm[k];
        yc[k] = xc[i] * scaling_[i];
      }
    }
    SolveWithFronts(fronts_.fronts, n, nrhs, y->data(), n, work);
    for (int c = 0; c < nrhs; ++c) {
      double* xc = x.data() + c * n;
      const double* yc = y->data() + c * n;
      for (int64_t k = 0; k < n; ++k) {
        const int32_t i = sym.perm[k];
        xc[i] = yc[k] * scaling_[i];
      }
    }
  }

  // r = b - A_f x0 for one column; x0 = 0 needs no product.
  void InitialResidual(std::span<const double> b, std::span<const double> x0,
                       std::span<double> r) const {
    if (std::all_of(x0.begin(), x0.end(), [](double v) { return v == 0; })) {
      std::copy(b.begin(), b.end(), r.begin());
      return;
    }
    MultiplyShifted(*a_, shift_, x0, r);
    for (size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
  }

  // Refinement of nrhs columns (n x nrhs, column-major) after their first
  // substitution, on A_f = A + diag(shift_), the system factorized. A
  // column takes a step x += A_f^{-1} (b - A_f x) only while it misses the
  // target (backward error
  // above kTargetBackwardError, or relative residual above
  // options.tolerance), and keeps it only while it helps: it at least
  // halves the relative residual, or keeps it and halves the backward
  // error; a step that does not help is undone and ends the column's
  // refinement. The columns stepping in the same round are substituted as
  // one matrix. One product with A_f per column and step, the norms computed
  // from its residual. Fills the norms, iterations (steps kept), status and
  // message of reports[0, nrhs).
  absl::Status Refine(std::span<const double> b, std::span<double> x, int nrhs,
                      const SolveOptions& options, const ExecContext& ctx,
                      SolveReport* reports) const {
    const int64_t n = a_->rows;
    const double norm_a = InfinityNorm(*a_, shift_);
    // r: the residuals of the columns stepping next, packed in their order;
    // kept: their x before the step.
    std::vector<double> r(n * nrhs), kept(n * nrhs), y, work;
    std::vector<ResidualNorms> best(nrhs);
    std::vector<int> steps(nrhs, 0), active, next;
    // r_slot = b_c - A_f x_c, and its norms
    auto residual = [&](int c, int slot) {
      std::span<const double> bc = b.subspan(c * n, n);
      std::span<const double> xc = x.subspan(c * n, n);
      std::span<double> rs = std::span<double>(r).subspan(slot * n, n);
      MultiplyShifted(*a_, shift_, xc, rs);
      for (int64_t i = 0; i < n; ++i) rs[i] = bc[i] - rs[i];
      return ResidualNormsOf(bc, xc, rs, norm_a);
    };
    auto needs_step = [&](const ResidualNorms& norms) {
      return std::isfinite(norms.backward_error) &&
             (norms.backward_error > kTargetBackwardError ||
              norms.relative_residual > options.tolerance);
    };
    for (int c = 0; c < nrhs; ++c) {
      best[c] = residual(c, static_cast<int>(active.size()));
      if (needs_step(best[c])) active.push_back(c);
    }
    for (int it = 1; it <= kMaxRefinementSteps && !active.empty(); ++it) {
      if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
      const int stepping = static_cast<int>(active.size());
      for (int j = 0; j < stepping; ++j) {
        std::copy_n(x.data() + active[j] * n, n, kept.data() + j * n);
      }
      // R = A_f^{-1} R for the stepping columns at once
      ApplyInverse(std::span<double>(r).first(n * stepping), stepping, &y,
                   &work);
      next.clear();
      for (int j = 0; j < stepping; ++j) {
        const int c = active[j];
        double* xc = x.data() + c * n;
        for (int64_t i = 0; i < n; ++i) xc[i] += r[j * n + i];
        // Slot next.size() <= j: the residuals of slots up to j are used.
        const ResidualNorms norms = residual(c, static_cast<int>(next.size()));
        const bool better =
            norms.relative_residual < 0.5 * best[c].relative_residual ||
            (norms.relative_residual <= best[c].relative_residual &&
             norms.backward_error < 0.5 * best[c].backward_error);
        if (!better) {
          std::copy_n(kept.data() + j * n, n, xc);
          continue;
        }
        best[c] = norms;
        steps[c] = it;
        if (needs_step(norms)) next.push_back(c);
      }
      active.swap(next);
    }
    for (int c = 0; c < nrhs; ++c) {
      SolveReport& report = reports[c];
      report.relative_residual = best[c].relative_residual;
      report.backward_error = best[c].backward_error;
      report.iterations = steps[c];
      if (std::isfinite(best[c].relative_residual) &&
          best[c].relative_residual <= options.tolerance) {
        report.status = SolveStatus::kConverged;
      } else if (report_.status != FactorStatus::kOk) {
        report.status = SolveStatus::kSingular;
        report.message = "the factorization was perturbed (singular matrix)";
      } else {
        report.status = SolveStatus::kNotConverged;
      }
    }
    return absl::OkStatus();
  }

  // X = X0 + A_f^{-1} (B - A_f X0) for all columns as one matrix, then
  // Refine. b and x have n * nrhs entries (checked by the caller); reports
  // has nrhs entries, each given the call's timings.
  absl::Status SolveColumns(std::span<const double> b, std::span<double> x,
                            int nrhs, const SolveOptions& options,
                            const ExecContext& ctx,
                            SolveReport* reports) const {
    Timer timer;
    if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
    const int64_t n = a_->rows;
    std::vector<double> r(n * nrhs), y, work;
    for (int c = 0; c < nrhs; ++c) {
      InitialResidual(b.subspan(c * n, n), x.subspan(c * n, n),
                      std::span<double>(r).subspan(c * n, n));
    }
    ApplyInverse(r, nrhs, &y, &work);
    for (int64_t i = 0; i < n * nrhs; ++i) x[i] += r[i];
    const double substitution_s = timer.Seconds();
    Timer refinement;
    if (absl::Status s = Refine(b, x, nrhs, options, ctx, reports); !s.ok()) {
      return s;
    }
    const double refinement_s = refinement.Seconds();
    const double solve_s = timer.Seconds();
    for (int c = 0; c < nrhs; ++c) {
      reports[c].substitution_s = substitution_s;
      reports[c].refinement_s = refinement_s;
      reports[c].solve_s = solve_s;
    }
    return absl::OkStatus();
  }

  absl::Status Solve(std::span<const double> b, std::span<double> x,
                     const SolveOptions& options, const ExecContext& ctx,
                     SolveReport* report) const override {
    const int64_t n = a_->rows;
    if (static_cast<int64_t>(b.size()) != n ||
        static_cast<int64_t>(x.size()) != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "b and x need ", n, " entries, got ", b.size(), " and ", x.size()));
    }
    return SolveColumns(b, x, 1, options, ctx, report);
  }

  // All columns' substitutions, first and refinement steps, run as one
  // matrix (BLAS 3 on the fronts); see Refine. Timings as documented in
  // Factorization::SolveMany.
  absl::Status SolveMany(std::span<const double> b, std::span<double> x,
                         int nrhs, const SolveOptions& options,
                         const ExecContext& ctx,
                         std::vector<SolveReport>* reports) const override {
    const int64_t n = a_->rows;
    if (nrhs < 0 || static_cast<int64_t>(b.size()) != n * nrhs ||
        static_cast<int64_t>(x.size()) != n * nrhs) {
      return absl::InvalidArgumentError(
          absl::StrCat("b and x need ", n, " x ", nrhs, " entries, got ",
                       b.size(), " and ", x.size()));
    }
    reports->assign(nrhs, SolveReport{});
    return SolveColumns(b, x, nrhs, options, ctx, reports->data());
  }

 private:
  std::shared_ptr<const CsrMatrix> a_;
  std::vector<double> shift_;  // ShiftVector of the options; empty: none
  std::shared_ptr<const LdltAnalysis> analysis_;
  std::vector<double> scaling_;
  FrontFactors fronts_;
  FactorReport report_;
};

// Backend dispatch of the front tree's factorization
// (core/ldlt/kernels/ldlt_kernels.h). kCuda runs the cpu fronts: ldlt has
// no device kernels.
absl::Status FactorizeFrontTree(const ExecContext& ctx, const LdltSymbolic& sym,
                                std::span<const double> values,
                                const kernels::DenseLdltParams& params,
                                FrontFactors* factors,
                                std::vector<FrontCounts>* counts) {
  switch (ctx.backend) {
    case Backend::kReference:
      return kernels::reference::FactorizeFrontTree(ctx, sym, values, params,
                                                    factors, counts);
    case Backend::kCpu:
    case Backend::kCuda:
      break;
  }
  return kernels::cpu::FactorizeFrontTree(ctx, sym, values, params, factors,
                                          counts);
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeLdlt(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx) {
  Timer timer;
  if (options.method == Method::kBlockIldlt) {
    return AnalyzeBlockIldlt(a, options, ctx);
  }
  if (!IsSymmetric(a.structure) || a.rows != a.cols) {
    return absl::InvalidArgumentError(
        "ldlt needs a square symmetric (lower-stored) matrix; use lu for a "
        "general one");
  }
  // Value-dependent analysis (S1 §II): with the matching-based scaling, its
  // 2x2 candidates are ordered as single nodes and eliminated consecutively
  // in one front; later factorizations reuse them with their new values.
  std::vector<std::pair<int32_t, int32_t>> pairs = AnalysisPairs(a, options);
  // ordering=auto: AMD, or METIS when AMD's fill is high and METIS predicts
  // fewer flops (CHOLMOD's default strategy, core/order/ordering_choice.h).
  auto choice = ChooseLdltOrdering(a, pairs, options.ordering);
  if (!choice.ok()) return choice.status();
  auto sym = BuildLdltSymbolic(a, choice->perm, pairs);
  if (!sym.ok()) return sym.status();
  if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
  auto analysis = std::make_shared<LdltAnalysis>(
      options.method, a.nnz(), *std::move(sym), std::move(pairs));
  analysis->set_ordering(std::string(OrderingName(choice->ordering)),
                         std::move(choice->note));
  analysis->analyze_s = timer.Seconds();
  return analysis;
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeLdlt(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis_base, const FactorOptions& options,
    const ExecContext& ctx) {
  if (options.method == Method::kBlockIldlt) {
    return FactorizeBlockIldlt(std::move(a), std::move(analysis_base), options,
                               ctx);
  }
  auto analysis = std::dynamic_pointer_cast<const LdltAnalysis>(analysis_base);
  if (analysis == nullptr || a == nullptr) {
    return absl::InvalidArgumentError("ldlt factorize needs an ldlt analysis");
  }
  const LdltSymbolic& sym = analysis->symbolic();
  if (a->rows != sym.n || a->nnz() != analysis->nnz() ||
      static_cast<int64_t>(a->values.size()) != a->nnz()) {
    return absl::InvalidArgumentError(
        "the matrix does not have the pattern the analysis was made for");
  }
  const int64_t n = sym.n;
  FactorReport report;
  Timer timer;

  // IPM regularization on the stored values.
  auto shift_of = [&](int64_t i) { return options.ShiftOf(i); };
  const std::vector<double> values = ShiftedValues(*a, options);
  std::span<const double> stored = values.empty()
                                       ? std::span<const double>(a->values)
                                       : std::span<const double>(values);
  for (double v : stored) {
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError("the matrix has a non-finite value");
    }
  }
  // Ruiz by default; the matching-based scaling of S1 §II on request,
  // recomputed from these values. Its 2x2 candidates are imposed by the
  // analysis (from the values it saw, kept in one front); the threshold
  // pivoting inside a front then finds the pair as its largest entry.
  std::vector<double> scaling;
  std::string scaling_note;
  if (options.scaling == Scaling::kNone) {
    scaling.assign(n, 1.0);
  } else if (options.scaling == Scaling::kMatching) {
    MatchingScaling matching = ComputeMatchingScaling(*a, stored);
    scaling = std::move(matching.scaling);
    scaling_note = absl::StrCat(
        ", matching scaling: ", matching.two_by_two.size(), " 2x2 candidates",
        ", ", analysis->pairs().size(), " imposed by the analysis (",
        sym.pair_first.size(), " kept in one front)");
    if (matching.structurally_singular()) {
      absl::StrAppend(&scaling_note, ", structurally singular (rank ",
                      matching.matched, " of ", n, ")");
    }
  } else {
    scaling = RuizScaling(*a, stored);
  }
  // Permuted, scaled values in the order of the symbolic column structure
  // (the scaling permuted first, so that the loop reads it in order).
  std::vector<double> permuted_scaling(n);
  for (int64_t k = 0; k < n; ++k) permuted_scaling[k] = scaling[sym.perm[k]];
  std::vector<double> gathered(sym.col_rows.size());
  double max_abs = 0;
  for (int64_t c = 0; c < n; ++c) {
    const double sc = permuted_scaling[c];
    for (int64_t e = sym.col_ptr[c]; e < sym.col_ptr[c + 1]; ++e) {
      const double v =
          sym.col_src[e] >= 0
              ? stored[sym.col_src[e]]
              : (e == sym.col_ptr[c] ? shift_of(sym.perm[c]) : 0.0);
      gathered[e] = v * permuted_scaling[sym.col_rows[e]] * sc;
      max_abs = std::max(max_abs, std::abs(gathered[e]));
    }
  }
  report.preprocess_s = timer.Seconds();
  timer.Reset();

  kernels::DenseLdltParams params =
      DensePivotParams(options.pivoting, options.pivot_threshold, max_abs);
  params.max_weak_update = kMaxWeakGrowth * (max_abs > 0 ? max_abs : 1.0);
  FrontFactors fronts;
  std::vector<FrontCounts> counts;
  absl::Status status =
      FactorizeFrontTree(ctx, sym, gathered, params, &fronts, &counts);
  if (!status.ok()) return status;

  // Inertia from D (Sylvester: S A S and P^T (.) P are congruent to A).
  Inertia inertia;
  int64_t nnz_l = 0, max_front = 0;
  // Flops of a front with ld rows and q pivots: pivot t updates the lower
  // triangle of the c = ld - t - 1 rows below it, c (c + 1) / 2 multiplies
  // and as many adds; summed, (x - 1) x (x + 1) / 3 between c = ld - q and
  // ld - 1 (a dense Cholesky of order n: about n^3 / 3).
  auto flops_below = [](double x) { return (x - 1) * x * (x + 1) / 3; };
  double flops = 0;
  int64_t largest = -1;  // the front with the most rows (the first of them)
  for (size_t f = 0; f < fronts.fronts.size(); ++f) {
    const FrontFactor& fr = fronts.fronts[f];
    const double ld = static_cast<double>(fr.rows.size());
    flops += flops_below(ld) - flops_below(ld - fr.q);
    if (largest < 0 || fr.rows.size() > fronts.fronts[largest].rows.size()) {
      largest = static_cast<int64_t>(f);
    }
    nnz_l += static_cast<int64_t>(fr.rows.size()) * fr.q -
             static_cast<int64_t>(fr.q) * (fr.q - 1) / 2;
    for (int t = 0; t < fr.q; ++t) {
      if (fr.pivot_size[t] == 2) {
        const double a11 = fr.d_diag[t], a21 = fr.d_off[t],
                     a22 = fr.d_diag[t + 1];
        const double det = a11 * a22 - a21 * a21;
        if (det < 0) {
          ++inertia.positive;
          ++inertia.negative;
        } else if (a11 + a22 > 0) {
          inertia.positive += 2;
        } else {
          inertia.negative += 2;
        }
        ++t;
      } else if (fr.pivot_size[t] == -1) {
        ++inertia.zero;
      } else if (fr.d_diag[t] > 0) {
        ++inertia.positive;
      } else {
        ++inertia.negative;
      }
    }
  }
  int64_t weak_pivots = 0;
  for (const FrontCounts& c : counts) {
    report.delayed_pivots += c.delayed;
    report.two_by_two_pivots += c.two_by_two;
    report.perturbed_pivots += c.perturbed;
    weak_pivots += c.weak;
    max_front = std::max(max_front, c.max_front);
  }
  report.inertia = inertia;
  // ||B x - L D L^T x|| / (||B|| ||x||): a factor that lost its digits must
  // not claim an exact inertia. Growth compounds only through pivots taken
  // below the threshold (the weak pass, a forced root, every pivot of
  // static pivoting, which applies no threshold) or perturbed ones; with
  // every pivot at |L| <= 1/u the check (about a solve's cost) is skipped,
  // as MA57 and MUMPS rely on the threshold alone.
  const bool check_factor = weak_pivots > 0 || report.perturbed_pivots > 0 ||
                            options.pivoting == Pivoting::kStatic;
  const double factor_residual =
      check_factor ? LdltFactorResidual(sym, gathered, fronts.fronts) : 0.0;
  const bool factor_trusted = factor_residual <= kMaxFactorResidual;
  report.inertia_reliable = report.perturbed_pivots == 0 && factor_trusted;
  report.status = report.perturbed_pivots == 0 ? FactorStatus::kOk
                                               : FactorStatus::kPerturbed;
  report.nnz_factor = nnz_l;
  report.factor_flops = flops;
  if (largest >= 0) {
    const FrontFactor& fr = fronts.fronts[largest];
    const double ld = static_cast<double>(fr.rows.size());
    report.largest_front = static_cast<int64_t>(fr.rows.size());
    report.largest_front_flops = flops_below(ld) - flops_below(ld - fr.q);
    report.largest_front_s = counts[largest].seconds;
  }
  report.factor_bytes = n * int64_t{sizeof(double)};
  report.factor_bytes += fronts.bytes();
  report.blocks = sym.num_fronts();
  report.analysis_reused = false;
  report.analyze_s = analysis->analyze_s;
  report.ordering = analysis->ordering();
  report.ordering_note = analysis->ordering_note();
  report.factorize_s = timer.Seconds();
  report.message = absl::StrCat(
      "fronts ", sym.num_fronts(), ", largest front ", max_front,
      report.perturbed_pivots > 0
          ? absl::StrCat(", ", report.perturbed_pivots,
                         " pivots perturbed (numerically singular)")
          : "",
      factor_trusted ? ""
                     : absl::StrCat(", factor residual ", factor_residual,
                                    " (pivot growth): inertia unreliable"),
      scaling_note);
  auto factorization = std::make_shared<LdltFactorization>(
      std::move(a), options.ShiftVector(n), std::move(analysis),
      std::move(scaling), std::move(fronts), std::move(report));
  return factorization;
}

}  // namespace factord::internal
