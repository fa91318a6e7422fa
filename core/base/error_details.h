// The structured details of a failed absl::Status that factord's service
// and clients share: a reason (with its domain and key/value metadata), a
// retry delay and the request fields at fault. They mirror google.rpc's
// ErrorInfo, RetryInfo and BadRequest (proto/google/rpc/error_details.proto)
// and are kept as absl::Status payloads in a plain encoding, so that code
// which never touches the wire (the core, the daemon's caches, the
// in-process solver, the C API) reads and writes them without protobuf.
// The gRPC layers convert them to and from the google.rpc.Status of a
// call's trailer: the daemon in server/service/status_mapping.cc, the
// client in client/grpc_status.cc.
#ifndef FACTORD_BASE_ERROR_DETAILS_H_
#define FACTORD_BASE_ERROR_DETAILS_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace factord {

// google.rpc.ErrorInfo.
struct ErrorInfo {
  std::string reason;  // a factord.v1.ErrorReason name, "QUEUE_FULL"
  std::string domain;  // "factord.v1"
  std::map<std::string, std::string> metadata;
};

// google.rpc.BadRequest.FieldViolation.
struct FieldViolation {
  std::string field;        // "options.fill_factor"
  std::string description;  // "must be at least 1"
  bool operator==(const FieldViolation&) const = default;
};

// Each detail of `status`, or nullopt / empty when it carries none (an OK
// status carries none). None of these modifies the status.
std::optional<ErrorInfo> GetErrorInfo(const absl::Status& status);
std::optional<absl::Duration> GetRetryDelay(const absl::Status& status);
std::vector<FieldViolation> GetFieldViolations(const absl::Status& status);

// Sets a detail on `status`, replacing one of its kind; nothing on an OK
// status.
void SetErrorInfo(absl::Status& status, const ErrorInfo& info);
void SetRetryDelay(absl::Status& status, absl::Duration delay);
void SetFieldViolations(absl::Status& status,
                        const std::vector<FieldViolation>& violations);

}  // namespace factord

#endif  // FACTORD_BASE_ERROR_DETAILS_H_
