// Method block_ildlt (S1): analysis = BlockIldltStructure (ordering,
// blocking, block level-of-fill; pattern only, reused when values change);
// factorization = BlockIldltFactor (Ruiz scaling, shifts, numeric block
// ILDL^T); solve = a Krylov method on the matrix as uploaded (expanded once)
// plus the shifts, the system the factor approximates, with the factor as
// preconditioner: SQMR when krylov is auto (S1 §IV-C), any other method of
// the family on request. Converged is decided on the true residual of that
// system (solver/residual.h).
// The inertia of an incomplete factor says nothing reliable about A's:
// inertia_reliable is always false, and the inertia is left empty.
#include "core/block_ildlt/block_ildlt_method.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/timer.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/krylov/preconditioned_solve.h"

namespace factord::internal {
namespace {

class BlockIldltAnalysis final : public Analysis {
 public:
  BlockIldltAnalysis(std::shared_ptr<const BlockIldltStructure> structure,
                     int64_t nnz)
      : structure_(std::move(structure)), nnz_(nnz) {}
  Method method() const override { return Method::kBlockIldlt; }
  int64_t bytes() const override { return structure_->bytes(); }
  int64_t factor_bytes_estimate() const override {
    // The factor plus the expanded matrix the Krylov method multiplies by.
    return structure_->factor_bytes_estimate() +
           (2 * nnz_) * int64_t{sizeof(double) + sizeof(int32_t)} +
           (structure_->n + 1) * int64_t{sizeof(int64_t)};
  }
  const std::shared_ptr<const BlockIldltStructure>& structure() const {
    return structure_;
  }
  int64_t nnz() const { return nnz_; }

 private:
  std::shared_ptr<const BlockIldltStructure> structure_;
  int64_t nnz_;
};

class BlockPreconditionerFactorization final : public Factorization {
 public:
  BlockPreconditionerFactorization(Method method,
                                   std::shared_ptr<const CsrMatrix> uploaded,
                                   std::vector<double> shift, CsrMatrix full,
                                   std::unique_ptr<BlockIldltFactor> factor,
                                   FactorReport report)
      : method_(method),
        uploaded_(std::move(uploaded)),
        shift_(std::move(shift)),
        full_(std::move(full)),
        factor_(std::move(factor)),
        report_(std::move(report)) {}

  const FactorReport& report() const override { return report_; }
  int64_t bytes() const override {
    return full_.bytes() + factor_->bytes() +
           static_cast<int64_t>(shift_.size() * sizeof(double));
  }

  absl::Status Solve(std::span<const double> b, std::span<double> x,
                     const SolveOptions& options, const ExecContext& ctx,
                     SolveReport* report) const override;

 private:
  Method method_;
  std::shared_ptr<const CsrMatrix> uploaded_;
  std::vector<double> shift_;  // ShiftVector of the options; empty: none
  CsrMatrix full_;
  std::unique_ptr<BlockIldltFactor> factor_;
  FactorReport report_;
};

absl::Status BlockPreconditionerFactorization::Solve(
    std::span<const double> b, std::span<double> x, const SolveOptions& options,
    const ExecContext& ctx, SolveReport* report) const {
  Timer timer;
  const int64_t n = full_.rows;
  if (static_cast<int64_t>(b.size()) != n ||
      static_cast<int64_t>(x.size()) != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("right-hand side and solution need ", n, " entries, got ",
                     b.size(), " and ", x.size()));
  }
  const Krylov krylov =
      options.krylov == Krylov::kAuto ? Krylov::kSqmr : options.krylov;
  if (krylov == Krylov::kCg || krylov == Krylov::kNone) {
    return absl::InvalidArgumentError(absl::StrCat(
        MethodName(method_),
        " is a preconditioner for sqmr, gmres, idr or bicgstab, not krylov '",
        KrylovName(krylov), "'"));
  }
  if (absl::Status s = SolvePreconditioned(full_, *uploaded_, shift_, *factor_,
                                           krylov, b, x, options, ctx, report);
      !s.ok()) {
    return s;
  }
  report->solve_s = timer.Seconds();
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeBlockIldlt(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx) {
  Timer timer;
  auto structure = BuildBlockIldltStructure(a, options);
  if (!structure.ok()) return structure.status();
  if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
  auto analysis = std::make_shared<BlockIldltAnalysis>(
      std::make_shared<const BlockIldltStructure>(*std::move(structure)),
      a.nnz());
  analysis->analyze_s = timer.Seconds();
  return analysis;
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeBlockIldlt(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis_base, const FactorOptions& options,
    const ExecContext& ctx) {
  auto analysis =
      std::dynamic_pointer_cast<const BlockIldltAnalysis>(analysis_base);
  if (analysis == nullptr || a == nullptr || a->nnz() != analysis->nnz()) {
    return absl::InvalidArgumentError(
        "block_ildlt factorize needs a block_ildlt analysis of this pattern");
  }
  FactorReport report;
  report.analyze_s = analysis->analyze_s;
  Timer timer;
  CsrMatrix full = ExpandSymmetric(*a);
  report.preprocess_s = timer.Seconds();
  timer.Reset();
  auto factor =
      BlockIldltFactor::Create(*a, analysis->structure(), options, ctx);
  if (!factor.ok()) return factor.status();
  const BlockIldltStats& stats = (*factor)->stats();
  const BlockIldltStructure& s = *analysis->structure();
  report.factorize_s = timer.Seconds();
  report.status =
      stats.perturbed_pivots > 0 ? FactorStatus::kPerturbed : FactorStatus::kOk;
  report.inertia_reliable = false;  // an incomplete factor's D is not A's
  report.perturbed_pivots = stats.perturbed_pivots;
  report.two_by_two_pivots = stats.two_by_two_pivots;
  report.nnz_factor = stats.nnz_factor;
  report.blocks = s.num_blocks();
  report.factor_bytes = full.bytes() + (*factor)->bytes();
  const BlockFormats formats = DecideBlockFormats(s, options.fill_factor);
  report.message = absl::StrCat(
      "blocks ", s.num_blocks(), " (mean size ",
      s.num_blocks() > 0 ? static_cast<double>(s.n) / s.num_blocks() : 0.0,
      "), block slots ", s.num_slots(), " at fill level ", s.fill_level_used,
      ", level sets ", s.num_levels, ", dropped entries ",
      stats.dropped_entries, ", dropped blocks ", stats.dropped_blocks,
      ", hybrid format (S1 §IV-A): ", formats.dense_blocks, " dense / ",
      formats.sparse_blocks, " sparse blocks, ", formats.bytes,
      " bytes (all dense: ", formats.all_dense_bytes, ")",
      stats.perturbed_pivots > 0
          ? absl::StrCat(", ", stats.perturbed_pivots, " pivots perturbed")
          : "",
      stats.not_finite_columns > 0
          ? absl::StrCat(", ", stats.not_finite_columns,
                         " block columns not finite (first: block column ",
                         stats.first_not_finite_column, ")")
          : "");
  const int64_t n = a->rows;
  return MakeBlockPreconditionerFactorization(
      Method::kBlockIldlt, std::move(a), options.ShiftVector(n),
      std::move(full), *std::move(factor), std::move(report));
}

std::shared_ptr<const Factorization> MakeBlockPreconditionerFactorization(
    Method method, std::shared_ptr<const CsrMatrix> uploaded,
    std::vector<double> shift, CsrMatrix full,
    std::unique_ptr<BlockIldltFactor> factor, FactorReport report) {
  return std::make_shared<BlockPreconditionerFactorization>(
      method, std::move(uploaded), std::move(shift), std::move(full),
      std::move(factor), std::move(report));
}

}  // namespace factord::internal
