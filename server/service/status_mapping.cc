#include "server/service/status_mapping.h"

#include <string>

#include "core/base/error_details.h"
#include "google/protobuf/any.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "server/error_reason.h"

namespace factord::server {
namespace {

// The serialized google.rpc.Status for a failed `status`: code, message,
// ErrorInfo (always: the status's reason, else its code's default),
// RetryInfo and BadRequest when tagged (core/base/error_details.h).
std::string SerializedErrorDetails(const absl::Status& status) {
  google::rpc::Status out;
  out.set_code(static_cast<int32_t>(status.code()));
  out.set_message(std::string(status.message()));
  const absl::Status tagged = WithEffectiveReason(status);
  const ErrorInfo info = GetErrorInfo(tagged).value_or(ErrorInfo{});
  google::rpc::ErrorInfo error_info;
  error_info.set_reason(info.reason);
  error_info.set_domain(info.domain);
  error_info.mutable_metadata()->insert(info.metadata.begin(),
                                        info.metadata.end());
  out.add_details()->PackFrom(error_info);
  std::optional<absl::Duration> delay = GetRetryDelay(status);
  if (!delay.has_value() && EffectiveReason(status) == v1::UNAVAILABLE) {
    delay = absl::Seconds(1);
  }
  if (delay.has_value()) {
    google::rpc::RetryInfo retry;
    const int64_t ns = absl::ToInt64Nanoseconds(*delay);
    retry.mutable_retry_delay()->set_seconds(ns / 1'000'000'000);
    retry.mutable_retry_delay()->set_nanos(
        static_cast<int32_t>(ns % 1'000'000'000));
    out.add_details()->PackFrom(retry);
  }
  const std::vector<FieldViolation> violations = GetFieldViolations(status);
  if (!violations.empty()) {
    google::rpc::BadRequest bad;
    for (const FieldViolation& v : violations) {
      google::rpc::BadRequest::FieldViolation* field =
          bad.add_field_violations();
      field->set_field(v.field);
      field->set_description(v.description);
    }
    out.add_details()->PackFrom(bad);
  }
  return out.SerializeAsString();
}

}  // namespace

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  grpc::StatusCode code;
  // absl and gRPC share the canonical codes 0..16; spell them out rather than
  // cast so that a code added to either side cannot slip through silently.
  switch (status.code()) {
    case absl::StatusCode::kCancelled:
      code = grpc::StatusCode::CANCELLED;
      break;
    case absl::StatusCode::kUnknown:
      code = grpc::StatusCode::UNKNOWN;
      break;
    case absl::StatusCode::kInvalidArgument:
      code = grpc::StatusCode::INVALID_ARGUMENT;
      break;
    case absl::StatusCode::kDeadlineExceeded:
      code = grpc::StatusCode::DEADLINE_EXCEEDED;
      break;
    case absl::StatusCode::kNotFound:
      code = grpc::StatusCode::NOT_FOUND;
      break;
    case absl::StatusCode::kAlreadyExists:
      code = grpc::StatusCode::ALREADY_EXISTS;
      break;
    case absl::StatusCode::kPermissionDenied:
      code = grpc::StatusCode::PERMISSION_DENIED;
      break;
    case absl::StatusCode::kResourceExhausted:
      code = grpc::StatusCode::RESOURCE_EXHAUSTED;
      break;
    case absl::StatusCode::kFailedPrecondition:
      code = grpc::StatusCode::FAILED_PRECONDITION;
      break;
    case absl::StatusCode::kAborted:
      code = grpc::StatusCode::ABORTED;
      break;
    case absl::StatusCode::kOutOfRange:
      code = grpc::StatusCode::OUT_OF_RANGE;
      break;
    case absl::StatusCode::kUnimplemented:
      code = grpc::StatusCode::UNIMPLEMENTED;
      break;
    case absl::StatusCode::kInternal:
      code = grpc::StatusCode::INTERNAL;
      break;
    case absl::StatusCode::kUnavailable:
      code = grpc::StatusCode::UNAVAILABLE;
      break;
    case absl::StatusCode::kDataLoss:
      code = grpc::StatusCode::DATA_LOSS;
      break;
    case absl::StatusCode::kUnauthenticated:
      code = grpc::StatusCode::UNAUTHENTICATED;
      break;
    default:
      code = grpc::StatusCode::UNKNOWN;
      break;
  }
  return grpc::Status(code, std::string(status.message()),
                      SerializedErrorDetails(status));
}

absl::string_view GrpcCodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "UNKNOWN";
  }
}

}  // namespace factord::server
