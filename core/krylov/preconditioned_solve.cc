#include "core/krylov/preconditioned_solve.h"

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/krylov/bicgstab.h"
#include "core/krylov/cg.h"
#include "core/krylov/gmres.h"
#include "core/krylov/idr.h"
#include "core/krylov/sqmr.h"
#include "core/solver/residual.h"

namespace factord {
namespace {

// y = (A + diag(shift)) x: the backend's SpMV, then the diagonal (x and y
// are host vectors on every backend).
class ShiftedCsrOperator final : public LinearOperator {
 public:
  ShiftedCsrOperator(const CsrMatrix& a, std::span<const double> shift)
      : a_(a), shift_(shift) {}
  int64_t size() const override { return a_.size(); }
  void Apply(const ExecContext& ctx, std::span<const double> x,
             std::span<double> y) const override {
    a_.Apply(ctx, x, y);
    for (size_t i = 0; i < shift_.size(); ++i) y[i] += shift_[i] * x[i];
  }

 private:
  CsrOperator a_;
  std::span<const double> shift_;
};

}  // namespace

absl::Status SolvePreconditioned(const CsrMatrix& expanded,
                                 const CsrMatrix& uploaded,
                                 std::span<const double> shift,
                                 const Preconditioner& m, Krylov krylov,
                                 std::span<const double> b, std::span<double> x,
                                 const SolveOptions& options,
                                 const ExecContext& ctx, SolveReport* report) {
  if (!shift.empty() && static_cast<int64_t>(shift.size()) != expanded.rows) {
    return absl::InvalidArgumentError(
        absl::StrCat("the shift has ", shift.size(), " entries, the matrix ",
                     expanded.rows, " rows"));
  }
  const ShiftedCsrOperator a(expanded, shift);
  auto run = [&](const KrylovOptions& o) -> absl::StatusOr<KrylovResult> {
    switch (krylov) {
      case Krylov::kCg:
        return SolveCg(a, m, b, x, o, ctx);
      case Krylov::kGmres:
        return SolveGmres(a, m, b, x, o, ctx);
      case Krylov::kSqmr:
        return SolveSqmr(a, m, b, x, o, ctx);
      case Krylov::kIdr:
        return SolveIdr(a, m, b, x, o, ctx);
      case Krylov::kBicgstab:
        return SolveBicgstab(a, m, b, x, o, ctx);
      default:
        return absl::InvalidArgumentError(
            absl::StrCat("krylov '", KrylovName(krylov),
                         "' is not a Krylov method to precondition"));
    }
  };
  KrylovOptions krylov_options;
  krylov_options.tolerance = options.tolerance;
  krylov_options.restart = options.restart;
  krylov_options.idr_s = options.idr_s;
  int iterations = 0;
  absl::StatusOr<KrylovResult> result;
  ResidualNorms norms;
  for (int round = 0; round < 3; ++round) {
    krylov_options.max_iterations = options.max_iterations - iterations;
    result = run(krylov_options);
    if (!result.ok()) return result.status();
    // A failed device kernel (kCuda) leaves NaNs behind, which a Krylov
    // method reports as a breakdown: the device error is the answer.
    if (absl::Status s = ctx.CheckDevice(); !s.ok()) return s;
    iterations += result->iterations;
    norms = ComputeResidualNorms(uploaded, shift, b, x);
    if (result->status != SolveStatus::kConverged ||
        norms.relative_residual <= options.tolerance ||
        iterations >= options.max_iterations) {
      break;
    }
  }
  report->relative_residual = norms.relative_residual;
  report->backward_error = norms.backward_error;
  report->iterations = iterations;
  report->status = result->status;
  report->message = result->message;
  if (report->status == SolveStatus::kConverged &&
      !(norms.relative_residual <= options.tolerance)) {
    report->status = SolveStatus::kNotConverged;
    report->message =
        "converged on the expanded matrix but not on the matrix as uploaded";
  }
  return absl::OkStatus();
}

}  // namespace factord
