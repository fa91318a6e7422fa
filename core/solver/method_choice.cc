// What `auto` resolves to (solver.h): by matrix class, then by memory.
#include <utility>

#include "core/solver/solver.h"

namespace factord {

Method ResolveMethod(const CsrMatrix& a, Method requested) {
  if (requested != Method::kAuto) return requested;
  // Unsymmetric: direct LU, or ILU(k) + GMRES in a build without UMFPACK.
  if (!IsSymmetric(a.structure)) {
    return LuAvailable() ? Method::kLu : Method::kIlu;
  }
  // Symmetric: the direct path; ChooseMethod checks that it fits.
  return Method::kLdlt;
}

int64_t ExpectedFactorBytes(const CsrMatrix& a, const Analysis& analysis) {
  return a.bytes() + analysis.bytes() + analysis.factor_bytes_estimate();
}

absl::StatusOr<MethodChoice> ChooseMethod(const CsrMatrix& a,
                                          const FactorOptions& options,
                                          int64_t memory_budget_bytes,
                                          AnalyzeFunction analyze) {
  FactorOptions resolved = options;
  resolved.method = ResolveMethod(a, options.method);
  absl::StatusOr<std::shared_ptr<const Analysis>> analysis = analyze(resolved);
  if (!analysis.ok()) return analysis.status();
  if (options.method == Method::kAuto && resolved.method == Method::kLdlt &&
      ExpectedFactorBytes(a, **analysis) > memory_budget_bytes) {
    // The complete factorization cannot fit: the incomplete one (S1), whose
    // fill is bounded by fill_factor.
    resolved.method = Method::kBlockIldlt;
    analysis = analyze(resolved);
    if (!analysis.ok()) return analysis.status();
  }
  return MethodChoice{resolved.method, *std::move(analysis)};
}

absl::StatusOr<MethodChoice> ChooseMethod(const CsrMatrix& a,
                                          const FactorOptions& options,
                                          int64_t memory_budget_bytes,
                                          const ExecContext& ctx) {
  return ChooseMethod(
      a, options, memory_budget_bytes,
      [&](const FactorOptions& resolved) { return Analyze(a, resolved, ctx); });
}

}  // namespace factord
