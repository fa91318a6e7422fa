// One place for the options' ranges (validate_options.h). The ranges that
// hold for every method come first, in the order of the proto's fields;
// then what the method asked for applies (its scalings, shifts) and its
// family's own ranges. The solve options follow the same order.
#include "core/solver/validate_options.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

namespace factord {
namespace {

// The payload key of the field an InvalidOptionError names.
constexpr absl::string_view kFieldPayload = "factord.core/invalid_option";

bool FiniteAtLeastZero(double v) { return v >= 0 && std::isfinite(v); }

// The scalings `method` applies besides auto, its own default (options.h);
// every one for kAuto, whose method is not chosen yet.
std::vector<Scaling> ScalingsOf(Method method) {
  switch (method) {
    case Method::kAuto:
      return {Scaling::kNone, Scaling::kRuiz, Scaling::kMatching,
              Scaling::kColumnNorm};
    case Method::kLdlt:
      return {Scaling::kNone, Scaling::kRuiz, Scaling::kMatching};
    case Method::kBlockIldlt:
    case Method::kJacobiLdlt:
      return {Scaling::kNone, Scaling::kRuiz};
    case Method::kIc:
    case Method::kIlu:
      return {Scaling::kNone, Scaling::kColumnNorm};
    default:  // none, jacobi, block_jacobi, lu
      return {Scaling::kNone};
  }
}

absl::Status CheckScalingApplies(const FactorOptions& o) {
  const std::vector<Scaling> known = ScalingsOf(o.method);
  if (o.scaling == Scaling::kAuto ||
      std::find(known.begin(), known.end(), o.scaling) != known.end()) {
    return absl::OkStatus();
  }
  std::string names = "auto";
  for (Scaling s : known) absl::StrAppend(&names, ", ", ScalingName(s));
  return InvalidOptionError(
      "scaling",
      absl::StrCat("= ", ScalingName(o.scaling), " is not applied by method ",
                   MethodName(o.method), " (it takes ", names, ")"));
}

// Methods none and lu factorize the matrix as uploaded (or nothing).
absl::Status CheckShiftsApply(const FactorOptions& o) {
  if (o.method != Method::kNone && o.method != Method::kLu) {
    return absl::OkStatus();
  }
  const char* field = o.shift_first != 0          ? "shift_first"
                      : o.shift_rest != 0         ? "shift_rest"
                      : !o.diagonal_shift.empty() ? "diagonal_shift"
                                                  : nullptr;
  if (field == nullptr) return absl::OkStatus();
  return InvalidOptionError(
      field, absl::StrCat(
                 "is not applied by method ", MethodName(o.method),
                 o.method == Method::kLu
                     ? " (UMFPACK factorizes the matrix as uploaded; ldlt and "
                       "ilu apply shifts)"
                     : " (there is no preconditioner to shift)"));
}

bool IsDirect(Method method) {
  return method == Method::kLdlt || method == Method::kLu;
}

// A Krylov-only option set to other than its default for a direct method.
absl::Status CheckDirectSolveOptions(const SolveOptions& o, Method method) {
  const SolveOptions defaults;
  const absl::string_view name = MethodName(method);
  if (o.krylov != Krylov::kAuto && o.krylov != Krylov::kNone) {
    return InvalidOptionError(
        "krylov", absl::StrCat("= ", KrylovName(o.krylov), ": method ", name,
                               " solves directly (substitution and iterative "
                               "refinement); krylov must be auto or none"));
  }
  if (o.restart != defaults.restart) {
    return InvalidOptionError(
        "restart", absl::StrCat("= ", o.restart, " is gmres's; method ", name,
                                " solves directly"));
  }
  if (o.idr_s != defaults.idr_s) {
    return InvalidOptionError(
        "idr_s", absl::StrCat("= ", o.idr_s, " is idr's; method ", name,
                              " solves directly"));
  }
  if (method == Method::kLdlt && o.max_iterations != defaults.max_iterations) {
    return InvalidOptionError(
        "max_iterations",
        absl::StrCat("= ", o.max_iterations,
                     ": method ldlt solves directly, its refinement stops "
                     "when a step no longer helps; leave it unset"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status InvalidOptionError(absl::string_view field,
                                absl::string_view why) {
  absl::Status status =
      absl::InvalidArgumentError(absl::StrCat(field, " ", why));
  status.SetPayload(kFieldPayload, absl::Cord(field));
  return status;
}

std::optional<std::string> InvalidOptionField(const absl::Status& status) {
  if (status.code() != absl::StatusCode::kInvalidArgument) return std::nullopt;
  auto field = status.GetPayload(kFieldPayload);
  if (!field.has_value()) return std::nullopt;
  return std::string(*field);
}

absl::Status ValidateFactorOptions(const FactorOptions& o, int64_t n) {
  if (o.max_block_size < 1 || o.max_block_size > 32) {
    return InvalidOptionError(
        "max_block_size",
        absl::StrCat("= ", o.max_block_size, " is outside 1..32"));
  }
  if (o.fill_level < -1) {
    return InvalidOptionError(
        "fill_level",
        absl::StrCat("= ", o.fill_level, " is below -1 (full fill)"));
  }
  if (!FiniteAtLeastZero(o.drop_tolerance)) {
    return InvalidOptionError(
        "drop_tolerance",
        absl::StrCat("= ", o.drop_tolerance, " is not a finite value >= 0"));
  }
  if (!FiniteAtLeastZero(o.fill_factor)) {
    return InvalidOptionError("fill_factor",
                              absl::StrCat("= ", o.fill_factor,
                                           " is not a finite value >= 0 (0: no "
                                           "limit)"));
  }
  if (o.sweeps < 0) {
    return InvalidOptionError("sweeps",
                              absl::StrCat("= ", o.sweeps, " is negative"));
  }
  if (!FiniteAtLeastZero(o.epsilon)) {
    return InvalidOptionError(
        "epsilon",
        absl::StrCat("= ", o.epsilon, " is not a finite value >= 0"));
  }
  if (!(o.delta > 0) || !(o.delta <= 1)) {
    return InvalidOptionError(
        "delta", absl::StrCat("= ", o.delta, " is outside (0, 1]"));
  }
  if (o.trisolve_sweeps < 0) {
    return InvalidOptionError(
        "trisolve_sweeps",
        absl::StrCat("= ", o.trisolve_sweeps, " is negative"));
  }
  if (!std::isfinite(o.shift_first) || !std::isfinite(o.shift_rest)) {
    return InvalidOptionError("shift_first/shift_rest", "must be finite");
  }
  if (o.shift_count < 0) {
    return InvalidOptionError(
        "shift_count", absl::StrCat("= ", o.shift_count, " is negative"));
  }
  if (n >= 0 && o.shift_count > n) {
    return InvalidOptionError(
        "shift_count", absl::StrCat("= ", o.shift_count, " exceeds n = ", n));
  }
  if (!(o.pivot_threshold > 0) || !(o.pivot_threshold <= 0.5)) {
    return InvalidOptionError(
        "pivot_threshold",
        absl::StrCat("= ", o.pivot_threshold, " is outside (0, 0.5]"));
  }
  if (absl::Status s = CheckScalingApplies(o); !s.ok()) return s;
  if (absl::Status s = CheckShiftsApply(o); !s.ok()) return s;
  switch (o.method) {
    case Method::kBlockIldlt:
      return ValidateBlockIldltOptions(o);
    case Method::kJacobiLdlt:
      if (absl::Status s = ValidateJacobiLdltOptions(o); !s.ok()) return s;
      return ValidateBlockIldltOptions(o);
    case Method::kIc:
    case Method::kIlu:
      return ValidateIncompleteOptions(o);
    default:
      return absl::OkStatus();
  }
}

absl::Status ValidateBlockIldltOptions(const FactorOptions& o) {
  if (o.max_block_size < 1 || o.max_block_size > 32) {
    return InvalidOptionError(
        "max_block_size",
        absl::StrCat("= ", o.max_block_size, " is outside 1..32"));
  }
  if (o.fill_level < 0) {
    return InvalidOptionError(
        "fill_level", absl::StrCat("= ", o.fill_level,
                                   " is negative (block_ildlt needs >= 0)"));
  }
  return absl::OkStatus();
}

absl::Status ValidateJacobiLdltOptions(const JacobiLdltOptions& o) {
  if (o.sweeps < 1 || o.sweeps > 10000) {
    return InvalidOptionError(
        "sweeps",
        absl::StrCat("= ", o.sweeps, " is outside 1..10000 (jacobi_ldlt)"));
  }
  if (!(o.epsilon >= 0) || !(o.epsilon < 1)) {
    return InvalidOptionError(
        "epsilon",
        absl::StrCat("= ", o.epsilon, " is outside [0, 1) (jacobi_ldlt)"));
  }
  if (!(o.delta > 0) || !(o.delta <= 1)) {
    return InvalidOptionError(
        "delta", absl::StrCat("= ", o.delta, " is outside (0, 1]"));
  }
  return absl::OkStatus();
}

absl::Status ValidateIncompleteOptions(const FactorOptions& o) {
  if (o.fill_level < 0) {
    return InvalidOptionError(
        "fill_level",
        absl::StrCat("= ", o.fill_level, " is negative (ic/ilu need >= 0)"));
  }
  if (o.trisolve_sweeps < 0) {
    return InvalidOptionError(
        "trisolve_sweeps",
        absl::StrCat("= ", o.trisolve_sweeps, " is negative"));
  }
  return absl::OkStatus();
}

absl::Status ValidateSolveOptions(const SolveOptions& o, Method method) {
  if (!(o.tolerance > 0) || !std::isfinite(o.tolerance)) {
    return InvalidOptionError(
        "tolerance",
        absl::StrCat("= ", o.tolerance, " is not a finite value > 0"));
  }
  if (o.max_iterations < 0) {
    return InvalidOptionError(
        "max_iterations", absl::StrCat("= ", o.max_iterations, " is negative"));
  }
  if (o.restart < 1) {
    return InvalidOptionError("restart",
                              absl::StrCat("= ", o.restart, " is below 1"));
  }
  if (o.idr_s < 1) {
    return InvalidOptionError("idr_s",
                              absl::StrCat("= ", o.idr_s, " is below 1"));
  }
  if (method == Method::kAuto) return absl::OkStatus();
  if (IsDirect(method)) return CheckDirectSolveOptions(o, method);
  if (o.krylov == Krylov::kNone) {
    return InvalidOptionError(
        "krylov", absl::StrCat("= none: method ", MethodName(method),
                               " is a preconditioner and needs a Krylov "
                               "method (or auto)"));
  }
  if ((method == Method::kBlockIldlt || method == Method::kJacobiLdlt) &&
      o.krylov == Krylov::kCg) {
    return InvalidOptionError(
        "krylov", absl::StrCat("= cg: method ", MethodName(method),
                               " is an indefinite preconditioner; take "
                               "sqmr (auto), gmres, idr or bicgstab"));
  }
  return absl::OkStatus();
}

}  // namespace factord
