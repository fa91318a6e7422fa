// The one place where absl::Status becomes grpc::Status (and where gRPC code
// names for logs and metric labels come from).
#ifndef FACTORD_SERVER_SERVICE_STATUS_MAPPING_H_
#define FACTORD_SERVER_SERVICE_STATUS_MAPPING_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"

namespace factord::server {

// Same code, same message, and the google.rpc.Status details (ErrorInfo
// with the status's reason, RetryInfo, BadRequest: error_reason.h) in the
// grpc-status-details-bin trailer. Codes outside gRPC's range become
// UNKNOWN.
grpc::Status ToGrpcStatus(const absl::Status& status);

// The canonical upper-case name of a gRPC code ("INVALID_ARGUMENT"), as
// clients print it and as the metrics' `code` label carries it.
absl::string_view GrpcCodeName(grpc::StatusCode code);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_STATUS_MAPPING_H_
