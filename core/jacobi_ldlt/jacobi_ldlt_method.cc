// Method jacobi_ldlt (S2 §VI, Alg. 2): the block LDL^T computed by Jacobi
// (fixed-point) sweeps instead of a level-scheduled elimination, used as the
// preconditioner of SQMR.
// Analysis: block_ildlt's structure (ordering, cosine blocking, block level
// of fill; BuildBlockIldltStructure) plus the sweep plan (the slot pairs of
// every off-diagonal update). Factorization: Ruiz scaling and IPM shifts
// (ScatterScaledBlocks), options.sweeps sweeps with pivot threshold
// options.epsilon relaxed by options.delta (jacobi_ldlt_sweeps.h), the
// reconstruction error ||L D L^T - A||_inf / ||A||_inf of the scaled matrix
// over the whole product L D L^T (S2 Fig. 3; BlockProductError) after every
// sweep in FactorReport.sweep_errors. Solve: the factor wrapped as a
// BlockIldltFactor (same blocked triangular solves as block_ildlt) and
// SolvePreconditioned on A plus the shifts. No dropping: every block of the
// pattern is kept. Limits: the inertia counted from D is that of an incomplete,
// possibly unconverged and perturbed factor, so inertia_reliable is false; the
// outer push-back pivoting (S2 §V-A, jacobi_ldlt_pushback.h) is implemented but
// off (kJacobiLdltPushBack below), with no option to turn it on yet.
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/base/timer.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/block_ildlt/block_ildlt_method.h"
#include "core/jacobi_ldlt/jacobi_ldlt_pushback.h"
#include "core/jacobi_ldlt/jacobi_ldlt_sweeps.h"
#include "core/krylov/preconditioned_solve.h"
#include "core/solver/methods.h"
#include "core/solver/validate_options.h"

namespace factord::internal {
namespace {

class JacobiLdltAnalysis final : public Analysis {
 public:
  JacobiLdltAnalysis(std::shared_ptr<const BlockIldltStructure> structure,
                     std::shared_ptr<const JacobiLdltPlan> plan, int64_t nnz)
      : structure_(std::move(structure)), plan_(std::move(plan)), nnz_(nnz) {}
  Method method() const override { return Method::kJacobiLdlt; }
  int64_t bytes() const override {
    return structure_->bytes() + plan_->bytes();
  }
  int64_t factor_bytes_estimate() const override {
    // Two iterates, the scaled blocks and the expanded matrix.
    return 3 * structure_->factor_bytes_estimate() +
           (2 * nnz_) * int64_t{sizeof(double) + sizeof(int32_t)} +
           (structure_->n + 1) * int64_t{sizeof(int64_t)};
  }
  const std::shared_ptr<const BlockIldltStructure>& structure() const {
    return structure_;
  }
  const std::shared_ptr<const JacobiLdltPlan>& plan() const { return plan_; }
  int64_t nnz() const { return nnz_; }

 private:
  std::shared_ptr<const BlockIldltStructure> structure_;
  std::shared_ptr<const JacobiLdltPlan> plan_;
  int64_t nnz_;
};

// Outer push-back pivoting after the first sweep (S2 §V-A, §VI) is off:
// on the KKT set it made the error and the SQMR iterations worse far more
// often than better (docs/s2_jacobi_ldlt.md); the first sweep's Schur
// complements (D = I guess) flag blocks whose pivots are not small later.
// bench/s2_jacobi_ldlt --push_back measures it.
constexpr bool kJacobiLdltPushBack = false;

// Inertia of D (1x1 by sign; a 2x2 with det < 0 is one of each).
Inertia InertiaOfD(const BlockLdltIterate& f) {
  Inertia in;
  const int64_t n = static_cast<int64_t>(f.d_diag.size());
  for (int64_t k = 0; k < n; ++k) {
    if (f.pivot_size[k] == 2) {
      const double a = f.d_diag[k], b = f.d_off[k], c = f.d_diag[k + 1];
      const double det = a * c - b * b;
      if (det < 0) {
        ++in.positive;
        ++in.negative;
      } else if (det > 0) {
        (a + c > 0 ? in.positive : in.negative) += 2;
      } else {
        ++in.zero;
        (a + c >= 0 ? in.positive : in.negative) += 1;
      }
      ++k;
    } else if (f.d_diag[k] > 0) {
      ++in.positive;
    } else if (f.d_diag[k] < 0) {
      ++in.negative;
    } else {
      ++in.zero;
    }
  }
  return in;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeJacobiLdlt(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx) {
  Timer timer;
  if (absl::Status s = ValidateJacobiLdltOptions(options); !s.ok()) return s;
  auto structure = BuildBlockIldltStructure(a, options);
  if (!structure.ok()) return structure.status();
  if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
  auto plan =
      std::make_shared<const JacobiLdltPlan>(BuildJacobiLdltPlan(*structure));
  auto analysis = std::make_shared<JacobiLdltAnalysis>(
      std::make_shared<const BlockIldltStructure>(*std::move(structure)),
      std::move(plan), a.nnz());
  analysis->analyze_s = timer.Seconds();
  return analysis;
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeJacobiLdlt(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis_base, const FactorOptions& options,
    const ExecContext& ctx) {
  auto analysis =
      std::dynamic_pointer_cast<const JacobiLdltAnalysis>(analysis_base);
  if (analysis == nullptr || a == nullptr || a->nnz() != analysis->nnz()) {
    return absl::InvalidArgumentError(
        "jacobi_ldlt factorize needs a jacobi_ldlt analysis of this pattern");
  }
  if (absl::Status s = ValidateJacobiLdltOptions(options); !s.ok()) return s;
  FactorReport report;
  report.analyze_s = analysis->analyze_s;
  Timer timer;
  CsrMatrix full = ExpandSymmetric(*a);
  report.preprocess_s = timer.Seconds();
  timer.Reset();
  JacobiSweepOptions sweep;
  sweep.sweeps = options.sweeps;
  sweep.epsilon = options.epsilon;
  sweep.delta = options.delta;
  sweep.pivoting = options.pivoting;
  sweep.pivot_threshold = options.pivot_threshold;
  auto run = RunJacobiLdlt(*a, options, analysis->structure(), analysis->plan(),
                           sweep, kJacobiLdltPushBack, ctx);
  if (!run.ok()) return run.status();
  const BlockIldltStructure& s = *run->structure;
  const BlockLdltIterate& it = run->iterate;
  report.sweep_errors = run->sweep_errors;
  report.factorize_s = timer.Seconds();
  report.inertia = InertiaOfD(it);
  report.inertia_reliable = false;  // incomplete, iterated, perturbed
  report.perturbed_pivots = it.perturbed_pivots;
  report.two_by_two_pivots = it.two_by_two_pivots;
  report.delayed_pivots = run->push_back.pushed_rows;
  report.status =
      it.perturbed_pivots > 0 ? FactorStatus::kPerturbed : FactorStatus::kOk;
  report.blocks = s.num_blocks();
  BlockIldltStats stats;
  for (int64_t j = 0; j < s.num_blocks(); ++j) {
    const int64_t bj = s.block_size(j);
    stats.nnz_factor += bj * (bj + 1) / 2;
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      stats.nnz_factor += bj * s.block_size(s.row_block[t]);
    }
  }
  stats.nnz_factor += it.two_by_two_pivots;
  stats.perturbed_pivots = it.perturbed_pivots;
  stats.two_by_two_pivots = it.two_by_two_pivots;
  report.nnz_factor = stats.nnz_factor;
  const double last_error =
      report.sweep_errors.empty() ? 0.0 : report.sweep_errors.back();
  report.message = absl::StrCat(
      "jacobi_ldlt: ", options.sweeps, " sweeps, epsilon ", options.epsilon,
      " delta ", options.delta, ", blocks ", s.num_blocks(), ", block slots ",
      s.num_slots(), " at fill level ", s.fill_level_used, ", level sets ",
      s.num_levels, ", ||LDL^T - A||_inf/||A||_inf of the scaled matrix ",
      last_error, ", blocks pushed back ", run->push_back.pushed_blocks,
      it.perturbed_pivots > 0
          ? absl::StrCat(", ", it.perturbed_pivots, " pivots perturbed")
          : "");
  auto factor = BlockIldltFactor::FromParts(
      run->structure, std::move(run->scaling), std::move(run->iterate.values),
      std::move(run->iterate.pivot_order), std::move(run->iterate.pivot_size),
      std::move(run->iterate.d_diag), std::move(run->iterate.d_off), stats);
  report.factor_bytes = full.bytes() + factor->bytes();
  const int64_t n = a->rows;
  return MakeBlockPreconditionerFactorization(
      Method::kJacobiLdlt, std::move(a), options.ShiftVector(n),
      std::move(full), std::move(factor), std::move(report));
}

}  // namespace factord::internal
