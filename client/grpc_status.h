// grpc::Status -> absl::Status with factord's error details as payloads
// (status_payloads.h, status_details.h). Internal to the client library.
#ifndef FACTORD_CLIENT_GRPC_STATUS_H_
#define FACTORD_CLIENT_GRPC_STATUS_H_

#include "absl/status/status.h"
#include "client/status_payloads.h"
#include "grpcpp/support/status.h"

namespace factord::client::internal {

// The status of a finished call: the same code (gRPC and absl codes share
// their numbers) and message; every detail of the google.rpc.Status in
// error_details() becomes a payload under its type URL. A status without an
// ErrorInfo gets the fallback reason its code and message call for (see
// status_details.h), if any; one without any details blob gets the
// kNoServerDetailsKey mark. An unparsable details blob is ignored.
absl::Status FromGrpcStatus(const grpc::Status& status);

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_GRPC_STATUS_H_
