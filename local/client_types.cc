#include "local/client_types.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "client/status_payloads.h"
#include "core/solver/option_table.h"
#include "core/solver/validate_options.h"
#include "server/error_reason.h"

namespace factord::local {
namespace {

using client::internal::ClientError;

// One enumeration's wire names in the .proto's order (value 0 first, which
// "" also names) and the core value each stands for.
template <typename E>
struct Name {
  absl::string_view name;
  E value;
};

constexpr Name<Structure> kStructures[] = {
    {"unspecified", Structure::kGeneral},
    {"general", Structure::kGeneral},
    {"symmetric_lower", Structure::kSymmetricLower},
    {"spd_lower", Structure::kSpdLower},
};
constexpr Name<Method> kMethods[] = {
    {"auto", Method::kAuto},
    {"none", Method::kNone},
    {"jacobi", Method::kJacobi},
    {"block_jacobi", Method::kBlockJacobi},
    {"ldlt", Method::kLdlt},
    {"block_ildlt", Method::kBlockIldlt},
    {"jacobi_ldlt", Method::kJacobiLdlt},
    {"ic", Method::kIc},
    {"ilu", Method::kIlu},
    {"lu", Method::kLu},
};
constexpr Name<Ordering> kOrderings[] = {
    {"auto", Ordering::kAuto}, {"natural", Ordering::kNatural},
    {"amd", Ordering::kAmd},   {"metis", Ordering::kMetis},
    {"rcm", Ordering::kRcm},   {"gmc", Ordering::kGmc},
};
// Pivoting, blocking and trisolve have no "auto": value 0 leaves the
// core's default (nullopt below).
constexpr Name<std::optional<Pivoting>> kPivotings[] = {
    {"unspecified", std::nullopt},
    {"bunch_kaufman", Pivoting::kBunchKaufman},
    {"static", Pivoting::kStatic},
    {"rook", Pivoting::kRook},
};
constexpr Name<Scaling> kScalings[] = {
    {"auto", Scaling::kAuto},
    {"none", Scaling::kNone},
    {"ruiz", Scaling::kRuiz},
    {"matching", Scaling::kMatching},
    {"column_norm", Scaling::kColumnNorm},
};
constexpr Name<std::optional<Blocking>> kBlockings[] = {
    {"unspecified", std::nullopt},
    {"rb", Blocking::kRb},
    {"br", Blocking::kBr},
};
constexpr Name<std::optional<TriangularSolve>> kTrisolves[] = {
    {"unspecified", std::nullopt},
    {"exact", TriangularSolve::kExact},
    {"jacobi", TriangularSolve::kJacobi},
    {"block_jacobi", TriangularSolve::kBlockJacobi},
};
constexpr Name<Krylov> kKrylovs[] = {
    {"auto", Krylov::kAuto},
    {"none", Krylov::kNone},
    {"cg", Krylov::kCg},
    {"gmres", Krylov::kGmres},
    {"sqmr", Krylov::kSqmr},
    {"idr", Krylov::kIdr},
    {"bicgstab", Krylov::kBicgstab},
};

// The value `name` stands for in `table` ("" for value 0; "bk" is the
// pivoting alias the client accepts); otherwise the client's refusal:
// INVALID_OPTION with a BadRequest on `field`.
template <typename E, size_t N>
absl::StatusOr<E> Parse(const Name<E> (&table)[N], absl::string_view name,
                        absl::string_view field) {
  if (name.empty()) return table[0].value;
  if constexpr (std::is_same_v<E, std::optional<Pivoting>>) {
    if (name == "bk") return E(Pivoting::kBunchKaufman);
  }
  for (const Name<E>& entry : table) {
    if (entry.name == name) return entry.value;
  }
  absl::string_view what = field;
  if (size_t dot = what.rfind('.'); dot != absl::string_view::npos) {
    what.remove_prefix(dot + 1);
  }
  std::vector<absl::string_view> names;
  for (const Name<E>& entry : table) names.push_back(entry.name);
  return ClientError(absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
                     absl::StrCat("unknown ", what, " '", name, "' (expected ",
                                  absl::StrJoin(names, "|"), ")"),
                     field);
}

// The scalar fields of factord.v1.FactorOptions without presence on the
// wire: there 0 cannot be told from unset, and both leave the core's
// default. ClientTypes.ScalarsWithoutPresenceAreTheWiresOnes checks the
// list against the .proto.
constexpr absl::string_view kWithoutPresence[] = {
    "max_block_size", "sweeps",     "trisolve_sweeps",
    "shift_first",    "shift_rest", "shift_count",
};

bool WithoutPresence(absl::string_view name) {
  return std::find(std::begin(kWithoutPresence), std::end(kWithoutPresence),
                   name) != std::end(kWithoutPresence);
}

std::string TextOf(const client::OptionValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const int64_t* i = std::get_if<int64_t>(&value)) return absl::StrCat(*i);
  if (const double* d = std::get_if<double>(&value)) return absl::StrCat(*d);
  return std::get<std::string>(value);
}

absl::Status NotA(absl::string_view name, const client::OptionValue& value,
                  absl::string_view expected) {
  return ClientError(
      absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
      absl::StrCat(name, " '", TextOf(value), "' is not ", expected),
      absl::StrCat("options.", name));
}

// `value` read for a member of type T, as the client reads a named option
// for the proto field of that type; nullopt when it is not one.
template <typename T>
std::optional<T> Read(const client::OptionValue& value) {
  const std::string* text = std::get_if<std::string>(&value);
  if constexpr (std::is_same_v<T, bool>) {
    bool b = false;
    if (const bool* v = std::get_if<bool>(&value)) return *v;
    if (text != nullptr && absl::SimpleAtob(*text, &b)) return b;
  } else if constexpr (std::is_same_v<T, double>) {
    double d = 0;
    if (const double* v = std::get_if<double>(&value)) return *v;
    if (const int64_t* v = std::get_if<int64_t>(&value)) {
      return static_cast<double>(*v);
    }
    if (text != nullptr && absl::SimpleAtod(*text, &d)) return d;
  } else {
    T i = 0;
    if (const int64_t* v = std::get_if<int64_t>(&value)) {
      if (*v >= std::numeric_limits<T>::min() &&
          *v <= std::numeric_limits<T>::max()) {
        return static_cast<T>(*v);
      }
      return std::nullopt;
    }
    if (text != nullptr && absl::SimpleAtoi(*text, &i)) return i;
  }
  return std::nullopt;
}

template <typename T>
absl::string_view Expected() {
  if constexpr (std::is_same_v<T, bool>) return "true or false";
  if constexpr (std::is_same_v<T, double>) return "a number";
  if constexpr (std::is_same_v<T, int>) return "a 32-bit integer";
  return "an integer";
}

// Applies a named scalar to `out` through the core's option table.
absl::Status SetScalar(const std::string& name,
                       const client::OptionValue& value, FactorOptions* out) {
  const FactorOptionField* option = FindFactorOptionField(name);
  if (option == nullptr) {
    return ClientError(absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
                       absl::StrCat("unknown option '", name,
                                    "' (not a field of factord.v1."
                                    "FactorOptions)"),
                       absl::StrCat("options.", name));
  }
  return std::visit(
      [&](auto member) -> absl::Status {
        using T = std::remove_reference_t<decltype(out->*member)>;
        std::optional<T> read = Read<T>(value);
        if (!read.has_value()) return NotA(name, value, Expected<T>());
        // As on the wire: 0 in a field without presence is not sent.
        if (WithoutPresence(name) && *read == T{}) return absl::OkStatus();
        out->*member = *read;
        return absl::OkStatus();
      },
      option->member);
}

}  // namespace

absl::StatusOr<Structure> StructureFromName(absl::string_view name) {
  return Parse(kStructures, name, "header.structure");
}

absl::StatusOr<FactorOptions> FactorOptionsFrom(
    const client::FactorizeOptions& o) {
  // The enumerations, each checked by name as the client checks them
  // before sending (same order, same refusals).
  absl::StatusOr<Method> method = Parse(kMethods, o.method, "method");
  absl::StatusOr<Ordering> ordering =
      Parse(kOrderings, o.ordering, "options.ordering");
  absl::StatusOr<std::optional<Pivoting>> pivoting =
      Parse(kPivotings, o.pivoting, "options.pivoting");
  absl::StatusOr<Scaling> scaling =
      Parse(kScalings, o.scaling, "options.scaling");
  absl::StatusOr<std::optional<Blocking>> blocking =
      Parse(kBlockings, o.blocking, "options.blocking");
  absl::StatusOr<std::optional<TriangularSolve>> trisolve =
      Parse(kTrisolves, o.trisolve, "options.trisolve");
  for (const absl::Status& s :
       {method.status(), ordering.status(), pivoting.status(), scaling.status(),
        blocking.status(), trisolve.status()}) {
    if (!s.ok()) return s;
  }
  FactorOptions out;
  out.method = *method;
  out.ordering = *ordering;
  if (pivoting->has_value()) out.pivoting = **pivoting;
  out.scaling = *scaling;
  if (blocking->has_value()) out.blocking = **blocking;
  if (trisolve->has_value()) out.trisolve = **trisolve;

  // The fields the request carries: the members with a field of their
  // name, then the named options, which replace a member of the same name
  // (one field on the wire).
  std::map<std::string, client::OptionValue> scalars = {
      {"max_block_size", int64_t{o.max_block_size}},
      {"sweeps", int64_t{o.sweeps}},
      {"trisolve_sweeps", int64_t{o.trisolve_sweeps}},
      {"shift_first", o.shift_first},
      {"shift_rest", o.shift_rest},
      {"shift_count", o.shift_count},
  };
  if (o.fill_level) scalars["fill_level"] = int64_t{*o.fill_level};
  if (o.drop_tolerance) scalars["drop_tolerance"] = *o.drop_tolerance;
  if (o.fill_factor) scalars["fill_factor"] = *o.fill_factor;
  if (o.epsilon) scalars["epsilon"] = *o.epsilon;
  if (o.delta) scalars["delta"] = *o.delta;
  if (o.pivot_threshold) scalars["pivot_threshold"] = *o.pivot_threshold;
  // Named options may also name the enumerations and `deterministic`.
  std::optional<int> max_block_size;
  for (const auto& [name, value] : o.named) {
    const std::string field = absl::StrCat("options.", name);
    const std::string* text = std::get_if<std::string>(&value);
    auto need_name = [&](auto& table) -> absl::Status {
      std::vector<absl::string_view> names;
      for (const auto& entry : table) names.push_back(entry.name);
      return NotA(name, value,
                  absl::StrCat("a name (", absl::StrJoin(names, "|"), ")"));
    };
    if (name == "ordering") {
      if (text == nullptr) return need_name(kOrderings);
      absl::StatusOr<Ordering> v = Parse(kOrderings, *text, field);
      if (!v.ok()) return v.status();
      out.ordering = *v;
    } else if (name == "pivoting") {
      if (text == nullptr) return need_name(kPivotings);
      absl::StatusOr<std::optional<Pivoting>> v =
          Parse(kPivotings, *text, field);
      if (!v.ok()) return v.status();
      out.pivoting = v->value_or(FactorOptions{}.pivoting);
    } else if (name == "scaling") {
      if (text == nullptr) return need_name(kScalings);
      absl::StatusOr<Scaling> v = Parse(kScalings, *text, field);
      if (!v.ok()) return v.status();
      out.scaling = *v;
    } else if (name == "blocking") {
      if (text == nullptr) return need_name(kBlockings);
      absl::StatusOr<std::optional<Blocking>> v =
          Parse(kBlockings, *text, field);
      if (!v.ok()) return v.status();
      out.blocking = v->value_or(FactorOptions{}.blocking);
    } else if (name == "trisolve") {
      if (text == nullptr) return need_name(kTrisolves);
      absl::StatusOr<std::optional<TriangularSolve>> v =
          Parse(kTrisolves, *text, field);
      if (!v.ok()) return v.status();
      out.trisolve = v->value_or(FactorOptions{}.trisolve);
    } else if (name == "deterministic") {
      // No core counterpart (every backend is deterministic): read only.
      if (!Read<bool>(value).has_value()) {
        return NotA(name, value, "true or false");
      }
    } else {
      scalars[name] = value;
    }
  }
  for (const auto& [name, value] : scalars) {
    if (absl::Status s = SetScalar(name, value, &out); !s.ok()) return s;
    if (name == "max_block_size") {
      std::optional<int> size = Read<int>(value);
      if (size.has_value() && *size != 0) max_block_size = *size;
    }
  }
  // ic/ilu's block-Jacobi triangular solves take the block size asked for.
  if (max_block_size.has_value()) out.trisolve_block_size = *max_block_size;
  if (absl::Status s = ValidateFactorOptions(out); !s.ok()) {
    return server::InvalidOptionFromCore(std::move(s));
  }
  return out;
}

absl::StatusOr<SolveOptions> SolveOptionsFrom(const client::SolveOptions& o,
                                              Method method) {
  absl::StatusOr<Krylov> krylov = Parse(kKrylovs, o.krylov, "options.krylov");
  if (!krylov.ok()) return krylov.status();
  SolveOptions out;
  out.krylov = *krylov;
  if (o.tolerance != 0) out.tolerance = o.tolerance;
  if (o.max_iterations != 0) out.max_iterations = o.max_iterations;
  if (o.restart != 0) out.restart = o.restart;
  if (o.idr_s != 0) out.idr_s = o.idr_s;
  if (absl::Status s = ValidateSolveOptions(out, method); !s.ok()) {
    return server::InvalidOptionFromCore(std::move(s));
  }
  return out;
}

std::string MethodWireName(Method method) {
  for (const Name<Method>& entry : kMethods) {
    if (entry.value == method) return std::string(entry.name);
  }
  return "auto";
}

client::FactorizeResult FactorizeResultOf(const FactorReport& r, Method method,
                                          absl::string_view id,
                                          uint64_t generation) {
  client::FactorizeResult result;
  result.id = std::string(id);
  result.method = MethodWireName(method);
  result.factor_status = std::string(FactorStatusName(r.status));
  result.inertia = {r.inertia.positive, r.inertia.negative, r.inertia.zero};
  result.inertia_reliable = r.inertia_reliable;
  result.perturbed_pivots = r.perturbed_pivots;
  result.two_by_two_pivots = r.two_by_two_pivots;
  result.delayed_pivots = r.delayed_pivots;
  result.nnz_factor = r.nnz_factor;
  result.factor_bytes = r.factor_bytes;
  result.analysis_reused = r.analysis_reused;
  result.blocks = r.blocks;
  result.sweep_errors = r.sweep_errors;
  result.timings.preprocess_s = r.preprocess_s;
  result.timings.analyze_s = r.analyze_s;
  result.timings.factorize_s = r.factorize_s;
  result.message = r.message;
  result.generation = generation;
  return result;
}

void SetSolveReport(const SolveReport& r, client::SolveResult* result) {
  result->status = std::string(SolveStatusName(r.status));
  result->relative_residual = r.relative_residual;
  result->backward_error = r.backward_error;
  result->iterations = r.iterations;
  result->timings = client::Timings{};
  result->timings.solve_s = r.solve_s;
  result->message = r.message;
}

client::MatrixInfo MatrixInfoOf(const server::CacheEntry& e) {
  client::MatrixInfo info;
  info.id = e.id;
  if (e.matrix != nullptr) {
    info.n = e.matrix->rows;
    info.nnz = e.matrix->nnz();
    for (size_t k = 1; k < std::size(kStructures); ++k) {
      if (kStructures[k].value == e.matrix->structure) {
        info.structure = std::string(kStructures[k].name);
      }
    }
  }
  info.pattern_hash = e.pattern_hash;
  info.bytes = e.bytes();
  info.bytes_received = e.bytes_received;
  info.factorized = e.factorization != nullptr;
  info.stale = e.stale;
  if (e.factorization != nullptr) {
    info.method = e.method == Method::kAuto ? "" : MethodWireName(e.method);
    info.factorized_generation = e.factorized_generation;
  }
  info.generation = e.generation;
  return info;
}

}  // namespace factord::local
