// Message <-> struct conversion (see messages.h).
#include "client/messages.h"

#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "client/enum_names.h"
#include "client/status_payloads.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace factord::client::internal {
namespace {

using google::protobuf::FieldDescriptor;

// `value` as the text a person typed, for messages.
std::string TextOf(const OptionValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const int64_t* i = std::get_if<int64_t>(&value)) return absl::StrCat(*i);
  if (const double* d = std::get_if<double>(&value)) return absl::StrCat(*d);
  return std::get<std::string>(value);
}

absl::Status NotA(absl::string_view name, const OptionValue& value,
                  absl::string_view expected) {
  return ClientError(
      absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
      absl::StrCat(name, " '", TextOf(value), "' is not ", expected),
      absl::StrCat("options.", name));
}

bool ReadBool(const OptionValue& value, bool* out) {
  if (const bool* b = std::get_if<bool>(&value)) {
    *out = *b;
    return true;
  }
  const std::string* text = std::get_if<std::string>(&value);
  return text != nullptr && absl::SimpleAtob(*text, out);
}

template <typename Int>
bool ReadInteger(const OptionValue& value, Int* out) {
  if (const int64_t* i = std::get_if<int64_t>(&value)) {
    if (*i < std::numeric_limits<Int>::min() ||
        *i > std::numeric_limits<Int>::max()) {
      return false;
    }
    *out = static_cast<Int>(*i);
    return true;
  }
  const std::string* text = std::get_if<std::string>(&value);
  return text != nullptr && absl::SimpleAtoi(*text, out);
}

bool ReadDouble(const OptionValue& value, double* out) {
  if (const double* d = std::get_if<double>(&value)) {
    *out = *d;
    return true;
  }
  if (const int64_t* i = std::get_if<int64_t>(&value)) {
    *out = static_cast<double>(*i);
    return true;
  }
  const std::string* text = std::get_if<std::string>(&value);
  return text != nullptr && absl::SimpleAtod(*text, out);
}

// Field `name` of `options` <- `value`, read for the field's type through
// the message's reflection: no code per option.
absl::Status SetNamedOption(absl::string_view name, const OptionValue& value,
                            pb::FactorOptions* options) {
  const std::string field = absl::StrCat("options.", name);
  const FieldDescriptor* f =
      pb::FactorOptions::descriptor()->FindFieldByName(std::string(name));
  if (f == nullptr || f->is_repeated() ||
      f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    return ClientError(absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
                       absl::StrCat("unknown option '", name,
                                    "' (not a field of factord.v1."
                                    "FactorOptions)"),
                       field);
  }
  const google::protobuf::Reflection& r = *options->GetReflection();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_BOOL: {
      bool b = false;
      if (!ReadBool(value, &b)) return NotA(name, value, "true or false");
      r.SetBool(options, f, b);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_INT32: {
      int32_t i = 0;
      if (!ReadInteger(value, &i)) {
        return NotA(name, value, "a 32-bit integer");
      }
      r.SetInt32(options, f, i);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      int64_t i = 0;
      if (!ReadInteger(value, &i)) return NotA(name, value, "an integer");
      r.SetInt64(options, f, i);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      double d = 0;
      if (!ReadDouble(value, &d)) return NotA(name, value, "a number");
      r.SetDouble(options, f, d);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      const std::string* text = std::get_if<std::string>(&value);
      if (text == nullptr) {
        return NotA(
            name, value,
            absl::StrCat("a name (",
                         absl::StrJoin(EnumValueNames(*f->enum_type()), "|"),
                         ")"));
      }
      absl::StatusOr<int> number =
          ParseEnumValue(*f->enum_type(), *text, field);
      if (!number.ok()) return number.status();
      r.SetEnumValue(options, f, *number);
      return absl::OkStatus();
    }
    default:
      return ClientError(absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
                         absl::StrCat(name, " is a ", f->cpp_type_name(),
                                      ", which cannot be set by name"),
                         field);
  }
}

}  // namespace

absl::Status CheckMatrixId(absl::string_view id, absl::string_view field) {
  if (!id.empty()) return absl::OkStatus();
  return ClientError(absl::StatusCode::kInvalidArgument, "INVALID_REQUEST",
                     "the request names no matrix (empty ID)", field);
}

MatrixInfo FromProto(const pb::MatrixInfo& p) {
  MatrixInfo info;
  info.id = p.id();
  info.n = p.n();
  info.nnz = p.nnz();
  info.structure = NameOf(p.structure());
  info.pattern_hash = p.pattern_hash();
  info.bytes = p.bytes();
  info.bytes_received = p.bytes_received();
  info.factorized = p.factorized();
  info.stale = p.stale();
  if (p.method() != pb::METHOD_AUTO) info.method = NameOf(p.method());
  info.generation = p.generation();
  info.factorized_generation = p.factorized_generation();
  return info;
}

Timings FromProto(const pb::Timings& p) {
  return Timings{.preprocess_s = p.preprocess_s(),
                 .analyze_s = p.analyze_s(),
                 .factorize_s = p.factorize_s(),
                 .solve_s = p.solve_s(),
                 .queue_s = p.queue_s()};
}

FactorizeResult FromProto(const pb::FactorizeReply& p) {
  FactorizeResult r;
  r.id = p.id();
  r.method = NameOf(p.method());
  r.factor_status = NameOf(p.factor_status());
  r.inertia = Inertia{.positive = p.inertia().positive(),
                      .negative = p.inertia().negative(),
                      .zero = p.inertia().zero()};
  r.inertia_reliable = p.inertia_reliable();
  r.perturbed_pivots = p.perturbed_pivots();
  r.two_by_two_pivots = p.two_by_two_pivots();
  r.delayed_pivots = p.delayed_pivots();
  r.nnz_factor = p.nnz_factor();
  r.factor_bytes = p.factor_bytes();
  r.analysis_reused = p.analysis_reused();
  r.blocks = p.blocks();
  r.sweep_errors.assign(p.sweep_errors().begin(), p.sweep_errors().end());
  r.timings = FromProto(p.timings());
  r.message = p.message();
  r.generation = p.generation();
  return r;
}

ServerInfo FromProto(const pb::ServerInfoReply& p) {
  ServerInfo info;
  info.version = p.version();
  info.backend = p.backend();
  info.device = p.device();
  info.cache_bytes_used = p.cache_bytes_used();
  info.cache_bytes_budget = p.cache_bytes_budget();
  info.cache_entries = p.cache_entries();
  info.max_n = p.max_n();
  info.max_nnz = p.max_nnz();
  info.max_message_bytes = p.max_message_bytes();
  info.threads = p.threads();
  info.workers = p.workers();
  for (int method : p.methods()) {
    info.methods.push_back(NameOf(static_cast<pb::Method>(method)));
  }
  return info;
}

void SetSolveReport(const pb::SolveReply& p, SolveResult* result) {
  result->status = NameOf(p.status());
  result->relative_residual = p.relative_residual();
  result->backward_error = p.backward_error();
  result->iterations = p.iterations();
  result->timings = FromProto(p.timings());
  result->message = p.message();
}

absl::StatusOr<pb::FactorizeRequest> ToFactorizeRequest(
    absl::string_view id, const FactorizeOptions& o) {
  absl::StatusOr<pb::Method> method = ParseEnum<pb::Method>(o.method, "method");
  absl::StatusOr<pb::Ordering> ordering =
      ParseEnum<pb::Ordering>(o.ordering, "options.ordering");
  absl::StatusOr<pb::Pivoting> pivoting =
      ParseEnum<pb::Pivoting>(o.pivoting, "options.pivoting");
  absl::StatusOr<pb::Scaling> scaling =
      ParseEnum<pb::Scaling>(o.scaling, "options.scaling");
  absl::StatusOr<pb::Blocking> blocking =
      ParseEnum<pb::Blocking>(o.blocking, "options.blocking");
  absl::StatusOr<pb::TriangularSolve> trisolve =
      ParseEnum<pb::TriangularSolve>(o.trisolve, "options.trisolve");
  for (const absl::Status& s :
       {method.status(), ordering.status(), pivoting.status(), scaling.status(),
        blocking.status(), trisolve.status()}) {
    if (!s.ok()) return s;
  }
  pb::FactorizeRequest request;
  request.set_id(std::string(id));
  request.set_method(*method);
  request.set_expected_generation(o.expected_generation);
  pb::FactorOptions* p = request.mutable_options();
  p->set_ordering(*ordering);
  p->set_pivoting(*pivoting);
  p->set_scaling(*scaling);
  p->set_blocking(*blocking);
  p->set_max_block_size(o.max_block_size);
  if (o.fill_level) p->set_fill_level(*o.fill_level);
  if (o.drop_tolerance) p->set_drop_tolerance(*o.drop_tolerance);
  if (o.fill_factor) p->set_fill_factor(*o.fill_factor);
  p->set_sweeps(o.sweeps);
  if (o.epsilon) p->set_epsilon(*o.epsilon);
  if (o.delta) p->set_delta(*o.delta);
  p->set_trisolve(*trisolve);
  p->set_trisolve_sweeps(o.trisolve_sweeps);
  p->set_shift_first(o.shift_first);
  p->set_shift_rest(o.shift_rest);
  p->set_shift_count(o.shift_count);
  p->set_deterministic(o.deterministic);
  if (o.pivot_threshold) p->set_pivot_threshold(*o.pivot_threshold);
  for (const auto& [name, value] : o.named) {
    if (absl::Status s = SetNamedOption(name, value, p); !s.ok()) return s;
  }
  return request;
}

absl::StatusOr<pb::SolveOptions> ToProto(const SolveOptions& o) {
  absl::StatusOr<pb::Krylov> krylov =
      ParseEnum<pb::Krylov>(o.krylov, "options.krylov");
  if (!krylov.ok()) return krylov.status();
  pb::SolveOptions p;
  p.set_krylov(*krylov);
  p.set_tolerance(o.tolerance);
  p.set_max_iterations(o.max_iterations);
  p.set_restart(o.restart);
  p.set_idr_s(o.idr_s);
  return p;
}

}  // namespace factord::client::internal

namespace factord::client {

absl::Status CheckNamedOption(absl::string_view name,
                              const OptionValue& value) {
  internal::pb::FactorOptions scratch;
  return internal::SetNamedOption(name, value, &scratch);
}

}  // namespace factord::client
