// The iterative method family: methods none, jacobi and block_jacobi (S3)
// with a Krylov solver.
//
// Analysis (pattern only, reusable when values change): for block_jacobi the
// RCM ordering and its supervariables (S4 §2.3).
// Factorization: the matrix expanded once to general CSR (shared with the
// uploaded one when it already is general) and the preconditioner built from
// the values; for block_jacobi the supervariables are merged into blocks of
// at most max_block_size by coupling strength (S4 §2.5, see
// core/block_jacobi/block_jacobi.h for why), then extracted and inverted (S3).
// Solve: CG for spd_lower, SQMR for symmetric_lower, GMRES(m) for general when
// the Krylov method is auto; an explicit choice is honoured.
//
// Scaling: Jacobi and block-Jacobi are invariant under symmetric diagonal
// scaling (the blocks of D A D are D_b A_bb D_b), so FactorOptions.scaling
// does not change the preconditioned iteration and is not applied.
// Shifts (shift_first/shift_rest, diagonal_shift) change the system: the
// preconditioner is built from A + shifts and the Krylov method solves
// (A + shifts) x = b, as every method that takes shifts does.
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/timer.h"
#include "core/block_jacobi/block_jacobi.h"
#include "core/jacobi/jacobi.h"
#include "core/krylov/operator.h"
#include "core/krylov/preconditioned_solve.h"
#include "core/solver/methods.h"

namespace factord::internal {
namespace {

class IterativeAnalysis final : public Analysis {
 public:
  IterativeAnalysis(Method method, int64_t n, int64_t nnz_full,
                    std::shared_ptr<const SupervariableOrder> supervariables)
      : method_(method),
        n_(n),
        nnz_full_(nnz_full),
        supervariables_(std::move(supervariables)) {}

  Method method() const override { return method_; }
  int64_t bytes() const override {
    return supervariables_ ? supervariables_->bytes() : 0;
  }
  int64_t factor_bytes_estimate() const override {
    // The expanded matrix plus the preconditioner's values.
    int64_t bytes = nnz_full_ * (sizeof(double) + sizeof(int32_t)) +
                    (n_ + 1) * sizeof(int64_t);
    if (method_ == Method::kJacobi) bytes += n_ * sizeof(double);
    if (supervariables_) {  // at most 32 x 32 values per 32 rows
      bytes += n_ * 32 * sizeof(double) + 5 * n_ * sizeof(int64_t);
    }
    return bytes;
  }
  int64_t n() const { return n_; }
  const std::shared_ptr<const SupervariableOrder>& supervariables() const {
    return supervariables_;
  }

 private:
  Method method_;
  int64_t n_;
  int64_t nnz_full_;
  std::shared_ptr<const SupervariableOrder> supervariables_;
};

class IterativeFactorization final : public Factorization {
 public:
  IterativeFactorization(Method method,
                         std::shared_ptr<const CsrMatrix> uploaded,
                         std::vector<double> shift,
                         std::shared_ptr<const CsrMatrix> full,
                         std::unique_ptr<Preconditioner> preconditioner,
                         int64_t preconditioner_bytes, FactorReport report)
      : method_(method),
        uploaded_(std::move(uploaded)),
        shift_(std::move(shift)),
        full_(std::move(full)),
        preconditioner_(std::move(preconditioner)),
        preconditioner_bytes_(preconditioner_bytes),
        report_(std::move(report)) {}

  const FactorReport& report() const override { return report_; }
  int64_t bytes() const override {
    // The uploaded matrix belongs to the cache entry; count the expansion
    // only when it is a separate copy.
    return (full_ != uploaded_ ? full_->bytes() : 0) + preconditioner_bytes_ +
           static_cast<int64_t>(shift_.size() * sizeof(double));
  }

  absl::Status Solve(std::span<const double> b, std::span<double> x,
                     const SolveOptions& options, const ExecContext& ctx,
                     SolveReport* report) const override;

 private:
  Method method_;
  std::shared_ptr<const CsrMatrix> uploaded_;
  std::vector<double> shift_;  // ShiftVector of the options; empty: none
  std::shared_ptr<const CsrMatrix> full_;
  std::unique_ptr<Preconditioner> preconditioner_;
  int64_t preconditioner_bytes_;
  FactorReport report_;
};

Krylov ResolveKrylov(Krylov requested, Structure structure) {
  if (requested != Krylov::kAuto) return requested;
  switch (structure) {
    case Structure::kSpdLower:
      return Krylov::kCg;
    case Structure::kSymmetricLower:
      return Krylov::kSqmr;
    case Structure::kGeneral:
      return Krylov::kGmres;
  }
  return Krylov::kGmres;
}

absl::Status IterativeFactorization::Solve(std::span<const double> b,
                                           std::span<double> x,
                                           const SolveOptions& options,
                                           const ExecContext& ctx,
                                           SolveReport* report) const {
  Timer timer;
  const int64_t n = full_->rows;
  if (static_cast<int64_t>(b.size()) != n ||
      static_cast<int64_t>(x.size()) != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("right-hand side and solution need ", n, " entries, got ",
                     b.size(), " and ", x.size()));
  }
  const Krylov krylov = ResolveKrylov(options.krylov, uploaded_->structure);
  if (krylov == Krylov::kNone || krylov == Krylov::kAuto) {
    return absl::InvalidArgumentError(
        absl::StrCat("method '", MethodName(method_),
                     "' is iterative and needs a Krylov method, not krylov '",
                     KrylovName(krylov), "'"));
  }
  // Converged is decided on the true residual of the matrix as uploaded
  // plus the shifts.
  if (absl::Status s =
          SolvePreconditioned(*full_, *uploaded_, shift_, *preconditioner_,
                              krylov, b, x, options, ctx, report);
      !s.ok()) {
    return s;
  }
  if (report_.singular_blocks > 0 && report->message.empty()) {
    report->message = report_.message;
  }
  report->solve_s = timer.Seconds();
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeIterative(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx) {
  Timer timer;
  if (a.rows != a.cols) {
    return absl::InvalidArgumentError(absl::StrCat(
        "iterative methods need a square matrix, got ", a.rows, " x ", a.cols));
  }
  if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
  const bool symmetric = IsSymmetric(a.structure);
  const int64_t nnz_full =
      symmetric ? 2 * a.nnz() - a.rows : a.nnz();  // estimate for lower
  std::shared_ptr<const SupervariableOrder> supervariables;
  if (options.method == Method::kBlockJacobi) {
    bool use_rcm = true;
    switch (options.ordering) {
      case Ordering::kAuto:
      case Ordering::kRcm:
        break;
      case Ordering::kNatural:
        use_rcm = false;
        break;
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            "block_jacobi supports the orderings auto, rcm and natural, not '",
            OrderingName(options.ordering), "'"));
    }
    // The blocking needs the full pattern (S4 §2.3 compares whole rows).
    const CsrMatrix full = symmetric ? ExpandSymmetric(a) : CsrMatrix();
    absl::StatusOr<SupervariableOrder> sv =
        ComputeSupervariableOrder(symmetric ? full : a, use_rcm);
    if (!sv.ok()) return sv.status();
    supervariables = std::make_shared<const SupervariableOrder>(*std::move(sv));
  } else if (options.method != Method::kNone &&
             options.method != Method::kJacobi) {
    return absl::InvalidArgumentError(absl::StrCat(
        "method '", MethodName(options.method), "' is not iterative"));
  }
  auto analysis = std::make_shared<IterativeAnalysis>(
      options.method, a.rows, std::max<int64_t>(nnz_full, 0), supervariables);
  analysis->analyze_s = timer.Seconds();
  return analysis;
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeIterative(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx) {
  const auto* iterative =
      dynamic_cast<const IterativeAnalysis*>(analysis.get());
  if (a == nullptr || iterative == nullptr ||
      iterative->method() != options.method || iterative->n() != a->rows) {
    return absl::InvalidArgumentError(
        "FactorizeIterative needs an iterative analysis of this matrix");
  }
  if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
  FactorReport report;
  report.analyze_s = analysis->analyze_s;
  Timer timer;
  // Expand once; the Krylov operator and the preconditioner use it.
  std::shared_ptr<const CsrMatrix> full =
      IsSymmetric(a->structure)
          ? std::make_shared<const CsrMatrix>(ExpandSymmetric(*a))
          : a;
  report.preprocess_s = timer.Seconds();
  timer.Reset();
  // IPM regularization: of the preconditioner's diagonal and of the system.
  std::vector<double> shift = options.ShiftVector(a->rows);
  std::unique_ptr<Preconditioner> preconditioner;
  int64_t preconditioner_bytes = 0;
  switch (options.method) {
    case Method::kNone:
      preconditioner = std::make_unique<IdentityPreconditioner>(a->rows);
      break;
    case Method::kJacobi: {
      auto jacobi = std::make_unique<JacobiPreconditioner>(*full, shift);
      preconditioner_bytes = jacobi->bytes();
      report.blocks = a->rows;
      if (jacobi->zero_diagonals() > 0) {
        report.status = FactorStatus::kSingular;
        report.singular_blocks = jacobi->zero_diagonals();
        report.message = absl::StrCat(
            jacobi->zero_diagonals(), " zero diagonal entries (first: row ",
            jacobi->first_zero_diagonal(), "); used 1 there");
      }
      preconditioner = std::move(jacobi);
      break;
    }
    case Method::kBlockJacobi: {
      absl::StatusOr<BlockJacobiBlocking> blocking =
          AmalgamateBlocks(*full, *iterative->supervariables(),
                           options.max_block_size, Amalgamation::kPriority);
      if (!blocking.ok()) return blocking.status();
      absl::StatusOr<std::unique_ptr<BlockJacobiPreconditioner>> block_jacobi =
          BlockJacobiPreconditioner::Create(
              *full,
              std::make_shared<const BlockJacobiBlocking>(*std::move(blocking)),
              ctx, shift);
      if (!block_jacobi.ok()) return block_jacobi.status();
      const BlockJacobiPreconditioner& m = **block_jacobi;
      preconditioner_bytes = m.bytes();
      report.blocks = m.blocking().num_blocks();
      report.nnz_factor = m.blocking().value_ptr.back();
      if (m.singular_blocks() > 0) {
        const BlockJacobiBlocking& b = m.blocking();
        const int64_t first = m.first_singular_block();
        report.status = FactorStatus::kSingular;
        report.singular_blocks = m.singular_blocks();
        report.message = absl::StrCat(
            m.singular_blocks(), " singular diagonal blocks (first: block ",
            first, " of size ", b.block_ptr[first + 1] - b.block_ptr[first],
            " starting at row ", b.block_rows[b.block_ptr[first]],
            "); replaced by the inverse of their diagonal");
      }
      preconditioner = *std::move(block_jacobi);
      break;
    }
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "method '", MethodName(options.method), "' is not iterative"));
  }
  report.factorize_s = timer.Seconds();
  report.factor_bytes = (full != a ? full->bytes() : 0) + preconditioner_bytes;
  return std::make_shared<IterativeFactorization>(
      options.method, std::move(a), std::move(shift), std::move(full),
      std::move(preconditioner), preconditioner_bytes, std::move(report));
}

}  // namespace factord::internal
