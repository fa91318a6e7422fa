// Structured errors (proto/factord/v1/errors.proto). A failing handler
// returns an absl::Status tagged with its reason, an optional retry delay
// and the request field at fault; the tags travel as absl::Status payloads
// (core/base/error_details.h, no protobuf) until ToGrpcStatus
// (status_mapping.h) packs them into the google.rpc.Status of the
// grpc-status-details-bin trailer. A status without a reason gets the
// default reason of its code (DefaultReasonFor), so every error has one.
// Only the generated enumeration's values are used here, never its
// descriptor: the in-process solver links this without protobuf.
#ifndef FACTORD_SERVER_ERROR_REASON_H_
#define FACTORD_SERVER_ERROR_REASON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "factord/v1/errors.pb.h"

namespace factord::server {

// The ErrorInfo domain of every factord error.
inline constexpr char kErrorDomain[] = "factord.v1";

// `status` (not OK) tagged with `reason`, replacing an earlier reason.
absl::Status WithReason(absl::Status status, v1::ErrorReason reason);
// `status` tagged with `reason` unless it has one already.
absl::Status WithDefaultReason(absl::Status status, v1::ErrorReason reason);
// Adds a key/value fact to the ErrorInfo (e.g. "expected" and "current"
// generations); the reason is kept, or the code's default when none.
absl::Status WithMetadata(absl::Status status, absl::string_view key,
                          absl::string_view value);
// Tells the client to retry after `delay` (google.rpc.RetryInfo).
absl::Status WithRetryDelay(absl::Status status, absl::Duration delay);
// Names the request field at fault (google.rpc.BadRequest); the violation's
// description is the status message.
absl::Status WithBadField(absl::Status status, absl::string_view field);

// The reason `status` carries, if tagged.
std::optional<v1::ErrorReason> ReasonOf(const absl::Status& status);
// The reason of an untagged status of this code.
v1::ErrorReason DefaultReasonFor(absl::StatusCode code);
// The reason a failed status is reported with: its tag, else the default.
v1::ErrorReason EffectiveReason(const absl::Status& status);
// `status` tagged with its effective reason (EffectiveReason), so that it
// carries one as a reply from the daemon would.
absl::Status WithEffectiveReason(absl::Status status);
// The reason's wire name ("QUEUE_FULL").
std::string ReasonName(v1::ErrorReason reason);
// Every reason this code names, in the .proto's order.
std::vector<v1::ErrorReason> KnownReasons();

// Shorthands for the common classes.
// A core InvalidOptionError (core/solver/validate_options.h) as
// INVALID_OPTION with a field violation on "options.<field>"; any other
// status is returned unchanged.
absl::Status InvalidOptionFromCore(absl::Status status);
// INVALID_ARGUMENT, INVALID_OPTION, BadRequest on `field`: "<field> <why>".
absl::Status InvalidOption(absl::string_view field, absl::string_view why);
// INVALID_ARGUMENT, INVALID_REQUEST, BadRequest on `field` when not empty.
absl::Status InvalidRequest(absl::string_view field, absl::string_view message);
// RESOURCE_EXHAUSTED, QUEUE_FULL, with a retry delay.
absl::Status QueueFull(absl::string_view message);
// OK when `expected` is 0 (no check) or equals `current`; otherwise
// ABORTED, GENERATION_MISMATCH, with metadata "expected" and "current".
absl::Status CheckGeneration(absl::string_view id, uint64_t expected,
                             uint64_t current);

}  // namespace factord::server

#endif  // FACTORD_SERVER_ERROR_REASON_H_
