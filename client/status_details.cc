// Reading factord's error details back from an absl::Status
// (status_details.h): the plain payloads of core/base/error_details.h,
// which grpc_status.cc fills from a call's google.rpc.Status and the
// in-process solver sets directly.
#include "client/status_details.h"

#include "core/base/error_details.h"

namespace factord::client {

std::string ErrorReason(const absl::Status& status) {
  std::optional<ErrorInfo> info = GetErrorInfo(status);
  return info ? info->reason : std::string();
}

std::string ErrorDomain(const absl::Status& status) {
  std::optional<ErrorInfo> info = GetErrorInfo(status);
  return info ? info->domain : std::string();
}

std::map<std::string, std::string> ErrorMetadata(const absl::Status& status) {
  std::optional<ErrorInfo> info = GetErrorInfo(status);
  return info ? info->metadata : std::map<std::string, std::string>();
}

bool DaemonNeverReached(const absl::Status& status) {
  if (!absl::IsUnavailable(status)) return false;
  const std::map<std::string, std::string> metadata = ErrorMetadata(status);
  const auto it = metadata.find("first_connection");
  return it != metadata.end() && it->second == "failed";
}

std::optional<absl::Duration> RetryDelay(const absl::Status& status) {
  return GetRetryDelay(status);
}

std::vector<std::pair<std::string, std::string>> FieldViolations(
    const absl::Status& status) {
  std::vector<std::pair<std::string, std::string>> violations;
  for (const FieldViolation& v : GetFieldViolations(status)) {
    violations.emplace_back(v.field, v.description);
  }
  return violations;
}

}  // namespace factord::client
