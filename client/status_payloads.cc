// Errors the client makes itself, in the shape of the daemon's (see
// status_payloads.h).
#include "client/status_payloads.h"

#include "client/status_details.h"
#include "google/rpc/error_details.pb.h"

namespace factord::client::internal {

absl::Status ClientError(absl::StatusCode code, absl::string_view reason,
                         absl::string_view message, absl::string_view field,
                         const std::map<std::string, std::string>& metadata) {
  absl::Status status(code, message);
  google::rpc::ErrorInfo info;
  info.set_reason(std::string(reason));
  info.set_domain(kErrorDomain);
  info.mutable_metadata()->insert(metadata.begin(), metadata.end());
  SetDetail(status, info);
  if (!field.empty()) {
    google::rpc::BadRequest bad;
    google::rpc::BadRequest::FieldViolation* v = bad.add_field_violations();
    v->set_field(std::string(field));
    v->set_description(std::string(message));
    SetDetail(status, bad);
  }
  return status;
}

}  // namespace factord::client::internal
