#include "server/error_reason.h"

#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/any.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace factord::server {
namespace {

constexpr char kTypePrefix[] = "type.googleapis.com/";

template <typename Message>
std::string TypeUrl() {
  return absl::StrCat(kTypePrefix, Message::descriptor()->full_name());
}

template <typename Message>
std::optional<Message> Payload(const absl::Status& status) {
  // absl::optional: Debian's Abseil is built without std::optional aliases.
  auto bytes = status.GetPayload(TypeUrl<Message>());
  if (!bytes.has_value()) return std::nullopt;
  Message message;
  if (!message.ParseFromString(std::string(*bytes))) return std::nullopt;
  return message;
}

template <typename Message>
absl::Status SetPayload(absl::Status status, const Message& message) {
  if (status.ok()) return status;
  status.SetPayload(TypeUrl<Message>(),
                    absl::Cord(message.SerializeAsString()));
  return status;
}

google::rpc::ErrorInfo ErrorInfoOf(const absl::Status& status) {
  std::optional<google::rpc::ErrorInfo> info =
      Payload<google::rpc::ErrorInfo>(status);
  if (info.has_value()) return *std::move(info);
  google::rpc::ErrorInfo fresh;
  fresh.set_domain(kErrorDomain);
  fresh.set_reason(ReasonName(DefaultReasonFor(status.code())));
  return fresh;
}

}  // namespace

std::string ReasonName(v1::ErrorReason reason) {
  return v1::ErrorReason_Name(reason);
}

absl::Status WithReason(absl::Status status, v1::ErrorReason reason) {
  google::rpc::ErrorInfo info = ErrorInfoOf(status);
  info.set_reason(ReasonName(reason));
  return SetPayload(std::move(status), info);
}

absl::Status WithDefaultReason(absl::Status status, v1::ErrorReason reason) {
  if (status.ok() || ReasonOf(status).has_value()) return status;
  return WithReason(std::move(status), reason);
}

absl::Status WithMetadata(absl::Status status, absl::string_view key,
                          absl::string_view value) {
  google::rpc::ErrorInfo info = ErrorInfoOf(status);
  (*info.mutable_metadata())[std::string(key)] = std::string(value);
  return SetPayload(std::move(status), info);
}

absl::Status WithRetryDelay(absl::Status status, absl::Duration delay) {
  google::rpc::RetryInfo retry;
  const int64_t ns = absl::ToInt64Nanoseconds(delay);
  retry.mutable_retry_delay()->set_seconds(ns / 1'000'000'000);
  retry.mutable_retry_delay()->set_nanos(
      static_cast<int32_t>(ns % 1'000'000'000));
  return SetPayload(std::move(status), retry);
}

absl::Status WithBadField(absl::Status status, absl::string_view field) {
  google::rpc::BadRequest bad =
      Payload<google::rpc::BadRequest>(status).value_or(
          google::rpc::BadRequest());
  google::rpc::BadRequest::FieldViolation* v = bad.add_field_violations();
  v->set_field(std::string(field));
  v->set_description(std::string(status.message()));
  return SetPayload(std::move(status), bad);
}

std::optional<v1::ErrorReason> ReasonOf(const absl::Status& status) {
  std::optional<google::rpc::ErrorInfo> info =
      Payload<google::rpc::ErrorInfo>(status);
  v1::ErrorReason reason;
  if (!info.has_value() || !v1::ErrorReason_Parse(info->reason(), &reason)) {
    return std::nullopt;
  }
  return reason;
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

std::string SerializedErrorDetails(const absl::Status& status) {
  google::rpc::Status out;
  out.set_code(static_cast<int32_t>(status.code()));
  out.set_message(std::string(status.message()));
  out.add_details()->PackFrom(ErrorInfoOf(status));
  if (auto retry = Payload<google::rpc::RetryInfo>(status)) {
    out.add_details()->PackFrom(*retry);
  } else if (EffectiveReason(status) == v1::UNAVAILABLE) {
    google::rpc::RetryInfo fallback;
    fallback.mutable_retry_delay()->set_seconds(1);
    out.add_details()->PackFrom(fallback);
  }
  if (auto bad = Payload<google::rpc::BadRequest>(status)) {
    out.add_details()->PackFrom(*bad);
  }
  return out.SerializeAsString();
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
