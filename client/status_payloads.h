// The errors the client makes itself, in the shape of the daemon's: the
// details of core/base/error_details.h (reason, metadata, fields), which
// status_details.h reads. Free of gRPC and protobuf, so that the parts of
// the client that do not talk to a daemon (the C API's in-process mode)
// need neither. Internal to the client library.
#ifndef FACTORD_CLIENT_STATUS_PAYLOADS_H_
#define FACTORD_CLIENT_STATUS_PAYLOADS_H_

#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace factord::client::internal {

// The payload key that marks a failed call whose status came without a
// google.rpc.Status: made by gRPC itself or by a proxy on the way (a stream
// reset when the daemon behind a proxy died), never by a factord server,
// which details every error it sends. The retry policy reads it (retry.cc).
inline constexpr char kNoServerDetailsKey[] =
    "factord.client/no-server-details";

// Whether `status` carries the kNoServerDetailsKey mark.
inline bool WithoutServerDetails(const absl::Status& status) {
  return status.GetPayload(kNoServerDetailsKey).has_value();
}

// An error found by the client before (or instead of) a call: `code`,
// `message`, an ErrorInfo with `reason`, domain factord.v1 and `metadata`,
// and a BadRequest violation on `field` (with `message` as its description)
// when `field` is not empty.
absl::Status ClientError(
    absl::StatusCode code, absl::string_view reason, absl::string_view message,
    absl::string_view field = "",
    const std::map<std::string, std::string>& metadata = {});

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_STATUS_PAYLOADS_H_
