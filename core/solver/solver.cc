// The facade: checks the options and hands each stage to its method
// family (`auto` is resolved in method_choice.cc).
#include "core/solver/solver.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/solver/methods.h"
#include "core/solver/validate_options.h"

namespace factord {
namespace {

// Method lu in a build without UMFPACK (FACTORD_WITH_UMFPACK=OFF).
[[maybe_unused]] absl::Status LuLeftOut() {
  return absl::FailedPreconditionError(
      "method lu is not in this build: it needs UMFPACK, left out with "
      "FACTORD_WITH_UMFPACK=OFF (a GPL-2+ library; docs/licenses.md); use "
      "ilu with gmres, or ldlt for symmetric matrices");
}

}  // namespace

bool LuAvailable() { return FACTORD_WITH_UMFPACK != 0; }

absl::StatusOr<std::shared_ptr<const Analysis>> Analyze(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx) {
  if (absl::Status s = ValidateFactorOptions(options); !s.ok()) return s;
  switch (options.method) {
    case Method::kNone:
    case Method::kJacobi:
    case Method::kBlockJacobi:
      return internal::AnalyzeIterative(a, options, ctx);
    case Method::kLdlt:
    case Method::kBlockIldlt:
      return internal::AnalyzeLdlt(a, options, ctx);
    case Method::kLu:
#if FACTORD_WITH_UMFPACK
      return internal::AnalyzeLu(a, options, ctx);
#else
      return LuLeftOut();
#endif
    case Method::kJacobiLdlt:
      return internal::AnalyzeJacobiLdlt(a, options, ctx);
    case Method::kIc:
    case Method::kIlu:
      return internal::AnalyzeIncomplete(a, options, ctx);
    case Method::kAuto:
      return absl::InvalidArgumentError(
          "Analyze needs a resolved method (call ResolveMethod first)");
    default:
      return absl::UnimplementedError(absl::StrCat(
          "method '", MethodName(options.method), "' is not implemented yet"));
  }
}

namespace {

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeMethod(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx) {
  if (analysis == nullptr || analysis->method() != options.method) {
    return absl::InvalidArgumentError(
        "Factorize needs an analysis made for the same method");
  }
  switch (options.method) {
    case Method::kNone:
    case Method::kJacobi:
    case Method::kBlockJacobi:
      return internal::FactorizeIterative(std::move(a), std::move(analysis),
                                          options, ctx);
    case Method::kLdlt:
    case Method::kBlockIldlt:
      return internal::FactorizeLdlt(std::move(a), std::move(analysis), options,
                                     ctx);
    case Method::kLu:
#if FACTORD_WITH_UMFPACK
      return internal::FactorizeLu(std::move(a), std::move(analysis), options,
                                   ctx);
#else
      return LuLeftOut();
#endif
    case Method::kJacobiLdlt:
      return internal::FactorizeJacobiLdlt(std::move(a), std::move(analysis),
                                           options, ctx);
    case Method::kIc:
    case Method::kIlu:
      return internal::FactorizeIncomplete(std::move(a), std::move(analysis),
                                           options, ctx);
    default:
      return absl::UnimplementedError(absl::StrCat(
          "method '", MethodName(options.method), "' is not implemented yet"));
  }
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Factorization>> Factorize(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx) {
  if (absl::Status s = ValidateFactorOptions(options); !s.ok()) return s;
  if (a != nullptr && !options.diagonal_shift.empty()) {
    if (static_cast<int64_t>(options.diagonal_shift.size()) != a->rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("diagonal_shift has ", options.diagonal_shift.size(),
                       " entries; the matrix has n = ", a->rows));
    }
    for (size_t i = 0; i < options.diagonal_shift.size(); ++i) {
      if (!std::isfinite(options.diagonal_shift[i])) {
        return absl::InvalidArgumentError(
            absl::StrCat("diagonal_shift[", i,
                         "] = ", options.diagonal_shift[i], " is not finite"));
      }
    }
  }
  absl::StatusOr<std::shared_ptr<const Factorization>> f =
      FactorizeMethod(std::move(a), std::move(analysis), options, ctx);
  // kCuda: a device kernel that failed after the method's last check.
  if (absl::Status s = ctx.CheckDevice(); f.ok() && !s.ok()) return s;
  return f;
}

}  // namespace factord
