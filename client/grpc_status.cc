// A failed call's google.rpc.Status as absl::Status payloads (see
// grpc_status.h).
#include "client/grpc_status.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "client/status_details.h"
#include "core/base/error_details.h"
#include "google/protobuf/any.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace factord::client::internal {
namespace {

// The reason of an error that carries none, from what gRPC itself reports
// when a call fails on the client's side or in transport.
absl::string_view FallbackReason(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kResourceExhausted:
      // gRPC: "Received message larger than max (N vs. M)", "Sent ...".
      return absl::StrContains(status.message(), "message larger than max")
                 ? "MESSAGE_TOO_LARGE"
                 : "";
    case absl::StatusCode::kUnavailable:
      return "UNAVAILABLE";
    case absl::StatusCode::kDeadlineExceeded:
      return "DEADLINE_EXCEEDED";
    case absl::StatusCode::kCancelled:
      return "CANCELLED";
    default:
      return "";
  }
}

}  // namespace

absl::Status FromGrpcStatus(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  absl::Status result(static_cast<absl::StatusCode>(status.error_code()),
                      status.error_message());
  google::rpc::Status details;
  if (!status.error_details().empty() &&
      details.ParseFromString(status.error_details())) {
    // Each known detail, whatever type URL prefix the sender used, as the
    // plain details of core/base/error_details.h; others are ignored.
    for (const google::protobuf::Any& any : details.details()) {
      google::rpc::ErrorInfo info;
      google::rpc::RetryInfo retry;
      google::rpc::BadRequest bad;
      if (any.UnpackTo(&info)) {
        ErrorInfo plain;
        plain.reason = info.reason();
        plain.domain = info.domain();
        plain.metadata.insert(info.metadata().begin(), info.metadata().end());
        SetErrorInfo(result, plain);
      } else if (any.UnpackTo(&retry)) {
        SetRetryDelay(result,
                      absl::Seconds(retry.retry_delay().seconds()) +
                          absl::Nanoseconds(retry.retry_delay().nanos()));
      } else if (any.UnpackTo(&bad)) {
        std::vector<FieldViolation> violations;
        for (const google::rpc::BadRequest::FieldViolation& v :
             bad.field_violations()) {
          violations.push_back({v.field(), v.description()});
        }
        SetFieldViolations(result, violations);
      }
    }
  }
  if (status.error_details().empty()) {
    result.SetPayload(kNoServerDetailsKey, absl::Cord("1"));
  }
  if (ErrorReason(result).empty()) {
    if (absl::string_view reason = FallbackReason(result); !reason.empty()) {
      ErrorInfo info;
      info.reason = std::string(reason);
      info.domain = kErrorDomain;
      SetErrorInfo(result, info);
    }
  }
  return result;
}

}  // namespace factord::client::internal
