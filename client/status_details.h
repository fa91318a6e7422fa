// What a failed factord call says beyond its code and message
// (proto/factord/v1/errors.proto), read from the absl::Status the client
// library returned.
//
// The server sends a google.rpc.Status in the grpc-status-details-bin
// trailer of every failed call. The library keeps each of its details as a
// payload of the absl::Status under the detail's type URL
// (type.googleapis.com/google.rpc.ErrorInfo, ...RetryInfo, ...BadRequest),
// serialized, and these functions decode them. Errors that never reached the
// server carry an ErrorInfo made by the client, with the same reasons:
//   - UNAVAILABLE without details (the daemon could not be reached):
//     "UNAVAILABLE"; when the client's first connection to its target
//     failed, with the metadata target=<target> and first_connection=failed
//     (DaemonNeverReached);
//   - RESOURCE_EXHAUSTED from gRPC itself because a message was over the
//     size limit ("Received/Sent message larger than max"):
//     "MESSAGE_TOO_LARGE";
//   - DEADLINE_EXCEEDED / CANCELLED without details: reasons of the same
//     names;
//   - a request the client refuses before sending it: "INVALID_OPTION" (an
//     unknown option name), "INVALID_MATRIX" (inconsistent CSR arrays) or
//     "INVALID_REQUEST" (a missing ID, too many right-hand sides), with a
//     BadRequest naming the field.
// None of these functions modifies the status.
#ifndef FACTORD_CLIENT_STATUS_DETAILS_H_
#define FACTORD_CLIENT_STATUS_DETAILS_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace factord::client {

// The domain of factord's ErrorInfo.
inline constexpr char kErrorDomain[] = "factord.v1";

// ErrorInfo.reason: the name of a factord.v1.ErrorReason value
// ("QUEUE_FULL", "GENERATION_MISMATCH", ...); empty when the status carries
// no ErrorInfo (OK included).
std::string ErrorReason(const absl::Status& status);

// ErrorInfo.domain ("factord.v1"); empty without an ErrorInfo.
std::string ErrorDomain(const absl::Status& status);

// ErrorInfo.metadata, e.g. "expected" and "current" for
// GENERATION_MISMATCH; empty without an ErrorInfo.
std::map<std::string, std::string> ErrorMetadata(const absl::Status& status);

// RetryInfo.retry_delay: wait at least this long, then the same call may
// succeed. nullopt when the status carries no RetryInfo.
std::optional<absl::Duration> RetryDelay(const absl::Status& status);

// BadRequest field violations as (field, description) pairs, e.g.
// ("options.fill_factor", "must be at least 1"); empty when none.
std::vector<std::pair<std::string, std::string>> FieldViolations(
    const absl::Status& status);

// Whether `status` is the UNAVAILABLE of a client whose first connection
// to its target failed (nothing listens there, or the TLS handshake
// failed): the message names the target and how to start a daemon there.
// The retry policy does not retry it; a caller that waits for a daemon to
// come up may.
bool DaemonNeverReached(const absl::Status& status);

}  // namespace factord::client

#endif  // FACTORD_CLIENT_STATUS_DETAILS_H_
