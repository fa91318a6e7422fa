// Errors the client makes itself, in the shape of the daemon's (see
// status_payloads.h).
#include "client/status_payloads.h"

#include "client/status_details.h"
#include "core/base/error_details.h"

namespace factord::client::internal {

absl::Status ClientError(absl::StatusCode code, absl::string_view reason,
                         absl::string_view message, absl::string_view field,
                         const std::map<std::string, std::string>& metadata) {
  absl::Status status(code, message);
  ErrorInfo info;
  info.reason = std::string(reason);
  info.domain = kErrorDomain;
  info.metadata = metadata;
  SetErrorInfo(status, info);
  if (!field.empty()) {
    SetFieldViolations(status, {{std::string(field), std::string(message)}});
  }
  return status;
}

}  // namespace factord::client::internal
