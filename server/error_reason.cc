#include "server/error_reason.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "core/base/error_details.h"
#include "core/solver/validate_options.h"

namespace factord::server {
namespace {

// The wire names of the reasons (proto/factord/v1/errors.proto), without
// the generated descriptor, so that the daemon's caches and the in-process
// solver need no protobuf runtime. ErrorReasonNames.MatchTheProto checks
// the table against the .proto.
constexpr std::pair<v1::ErrorReason, const char*> kReasonNames[] = {
    {v1::ERROR_REASON_UNSPECIFIED, "ERROR_REASON_UNSPECIFIED"},
    {v1::UNAUTHENTICATED, "UNAUTHENTICATED"},
    {v1::QUEUE_FULL, "QUEUE_FULL"},
    {v1::MATRIX_TOO_LARGE, "MATRIX_TOO_LARGE"},
    {v1::CACHE_BUDGET, "CACHE_BUDGET"},
    {v1::TENANT_QUOTA, "TENANT_QUOTA"},
    {v1::MESSAGE_TOO_LARGE, "MESSAGE_TOO_LARGE"},
    {v1::NOT_FOUND, "NOT_FOUND"},
    {v1::ALREADY_EXISTS, "ALREADY_EXISTS"},
    {v1::GENERATION_MISMATCH, "GENERATION_MISMATCH"},
    {v1::INVALID_OPTION, "INVALID_OPTION"},
    {v1::INVALID_MATRIX, "INVALID_MATRIX"},
    {v1::STALE_FACTOR, "STALE_FACTOR"},
    {v1::NOT_FACTORIZED, "NOT_FACTORIZED"},
    {v1::INVALID_REQUEST, "INVALID_REQUEST"},
    {v1::CANCELLED, "CANCELLED"},
    {v1::DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED"},
    {v1::UNAVAILABLE, "UNAVAILABLE"},
    {v1::DEVICE_BUDGET, "DEVICE_BUDGET"},
    {v1::UNSUPPORTED, "UNSUPPORTED"},
    {v1::INTERNAL, "INTERNAL"},
};

std::optional<v1::ErrorReason> ParseReason(absl::string_view name) {
  for (const auto& [reason, reason_name] : kReasonNames) {
    if (name == reason_name) return reason;
  }
  return std::nullopt;
}

ErrorInfo ErrorInfoOf(const absl::Status& status) {
  std::optional<ErrorInfo> info = GetErrorInfo(status);
  if (info.has_value()) return *std::move(info);
  ErrorInfo fresh;
  fresh.domain = kErrorDomain;
  fresh.reason = ReasonName(DefaultReasonFor(status.code()));
  return fresh;
}

}  // namespace

std::string ReasonName(v1::ErrorReason reason) {
  for (const auto& [value, name] : kReasonNames) {
    if (value == reason) return name;
  }
  return absl::StrCat("ERROR_REASON_", static_cast<int>(reason));
}

std::vector<v1::ErrorReason> KnownReasons() {
  std::vector<v1::ErrorReason> reasons;
  for (const auto& [value, name] : kReasonNames) reasons.push_back(value);
  return reasons;
}

absl::Status WithReason(absl::Status status, v1::ErrorReason reason) {
  if (status.ok()) return status;
  ErrorInfo info = ErrorInfoOf(status);
  info.reason = ReasonName(reason);
  SetErrorInfo(status, info);
  return status;
}

absl::Status WithDefaultReason(absl::Status status, v1::ErrorReason reason) {
  if (status.ok() || ReasonOf(status).has_value()) return status;
  return WithReason(std::move(status), reason);
}

absl::Status WithMetadata(absl::Status status, absl::string_view key,
                          absl::string_view value) {
  if (status.ok()) return status;
  ErrorInfo info = ErrorInfoOf(status);
  info.metadata[std::string(key)] = std::string(value);
  SetErrorInfo(status, info);
  return status;
}

absl::Status WithRetryDelay(absl::Status status, absl::Duration delay) {
  SetRetryDelay(status, delay);
  return status;
}

absl::Status WithBadField(absl::Status status, absl::string_view field) {
  if (status.ok()) return status;
  std::vector<FieldViolation> violations = GetFieldViolations(status);
  violations.push_back({std::string(field), std::string(status.message())});
  SetFieldViolations(status, violations);
  return status;
}

std::optional<v1::ErrorReason> ReasonOf(const absl::Status& status) {
  std::optional<ErrorInfo> info = GetErrorInfo(status);
  if (!info.has_value()) return std::nullopt;
  return ParseReason(info->reason);
}

v1::ErrorReason DefaultReasonFor(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kCancelled:
      return v1::CANCELLED;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return v1::INVALID_REQUEST;
    case absl::StatusCode::kDeadlineExceeded:
      return v1::DEADLINE_EXCEEDED;
    case absl::StatusCode::kNotFound:
      return v1::NOT_FOUND;
    case absl::StatusCode::kAlreadyExists:
      return v1::ALREADY_EXISTS;
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnauthenticated:
      return v1::UNAUTHENTICATED;
    case absl::StatusCode::kResourceExhausted:
      return v1::CACHE_BUDGET;
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kUnimplemented:
      return v1::UNSUPPORTED;
    case absl::StatusCode::kAborted:
      return v1::GENERATION_MISMATCH;
    case absl::StatusCode::kUnavailable:
      return v1::UNAVAILABLE;
    default:
      return v1::INTERNAL;
  }
}

v1::ErrorReason EffectiveReason(const absl::Status& status) {
  return ReasonOf(status).value_or(DefaultReasonFor(status.code()));
}

absl::Status WithEffectiveReason(absl::Status status) {
  if (status.ok()) return status;
  const v1::ErrorReason reason = EffectiveReason(status);
  return WithReason(std::move(status), reason);
}

absl::Status InvalidOptionFromCore(absl::Status status) {
  std::optional<std::string> field = InvalidOptionField(status);
  if (!field.has_value()) return status;
  // The core's message is "<field> <why>"; the wire names the field by its
  // path in the request.
  absl::string_view why = status.message();
  if (absl::ConsumePrefix(&why, *field)) absl::ConsumePrefix(&why, " ");
  return InvalidOption(absl::StrCat("options.", *field), why);
}

absl::Status InvalidOption(absl::string_view field, absl::string_view why) {
  return WithBadField(
      WithReason(absl::InvalidArgumentError(absl::StrCat(field, " ", why)),
                 v1::INVALID_OPTION),
      field);
}

absl::Status InvalidRequest(absl::string_view field,
                            absl::string_view message) {
  absl::Status status =
      WithReason(absl::InvalidArgumentError(message), v1::INVALID_REQUEST);
  return field.empty() ? status : WithBadField(std::move(status), field);
}

absl::Status QueueFull(absl::string_view message) {
  return WithRetryDelay(
      WithReason(absl::ResourceExhaustedError(message), v1::QUEUE_FULL),
      absl::Milliseconds(200));
}

absl::Status CheckGeneration(absl::string_view id, uint64_t expected,
                             uint64_t current) {
  if (expected == 0 || expected == current) return absl::OkStatus();
  absl::Status status =
      WithReason(absl::AbortedError(absl::StrCat(
                     "matrix '", id, "' is at generation ", current,
                     ", the request ", "expected generation ", expected,
                     " (its values changed or it was replaced)")),
                 v1::GENERATION_MISMATCH);
  status = WithMetadata(std::move(status), "expected", absl::StrCat(expected));
  return WithMetadata(std::move(status), "current", absl::StrCat(current));
}

}  // namespace factord::server
