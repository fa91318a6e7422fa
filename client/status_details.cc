// Reading factord's error details back from an absl::Status
// (status_details.h); grpc_status.cc put them there.
#include "client/status_details.h"

#include "client/status_payloads.h"
#include "google/rpc/error_details.pb.h"

namespace factord::client {

using internal::GetDetail;

std::string ErrorReason(const absl::Status& status) {
  std::optional<google::rpc::ErrorInfo> info =
      GetDetail<google::rpc::ErrorInfo>(status);
  return info ? info->reason() : std::string();
}

std::string ErrorDomain(const absl::Status& status) {
  std::optional<google::rpc::ErrorInfo> info =
      GetDetail<google::rpc::ErrorInfo>(status);
  return info ? info->domain() : std::string();
}

std::map<std::string, std::string> ErrorMetadata(const absl::Status& status) {
  std::optional<google::rpc::ErrorInfo> info =
      GetDetail<google::rpc::ErrorInfo>(status);
  if (!info) return {};
  return std::map<std::string, std::string>(info->metadata().begin(),
                                            info->metadata().end());
}

bool DaemonNeverReached(const absl::Status& status) {
  if (!absl::IsUnavailable(status)) return false;
  const std::map<std::string, std::string> metadata = ErrorMetadata(status);
  const auto it = metadata.find("first_connection");
  return it != metadata.end() && it->second == "failed";
}

std::optional<absl::Duration> RetryDelay(const absl::Status& status) {
  std::optional<google::rpc::RetryInfo> retry =
      GetDetail<google::rpc::RetryInfo>(status);
  if (!retry) return std::nullopt;
  return absl::Seconds(retry->retry_delay().seconds()) +
         absl::Nanoseconds(retry->retry_delay().nanos());
}

std::vector<std::pair<std::string, std::string>> FieldViolations(
    const absl::Status& status) {
  std::vector<std::pair<std::string, std::string>> violations;
  std::optional<google::rpc::BadRequest> bad =
      GetDetail<google::rpc::BadRequest>(status);
  if (!bad) return violations;
  for (const google::rpc::BadRequest::FieldViolation& v :
       bad->field_violations()) {
    violations.emplace_back(v.field(), v.description());
  }
  return violations;
}

}  // namespace factord::client
