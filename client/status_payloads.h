// factord's error details as absl::Status payloads (status_details.h): the
// google.rpc detail messages kept serialized under their Any type URLs, and
// the errors the client makes itself in the same shape. Free of gRPC, so
// that the parts of the client that do not talk to a daemon (the C API's
// in-process mode) need none. Internal to the client library.
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

// The type URL prefix of google.protobuf.Any, under which details are kept.
inline constexpr char kTypeUrlPrefix[] = "type.googleapis.com/";

// The payload key of a detail message type (google::rpc::ErrorInfo, ...):
// its Any type URL.
template <typename Message>
std::string DetailTypeUrl() {
  return absl::StrCat(kTypeUrlPrefix, Message::descriptor()->full_name());
}

// The detail of type Message kept on `status`; nullopt when absent or
// unparsable.
template <typename Message>
std::optional<Message> GetDetail(const absl::Status& status) {
  // absl::optional: this Abseil is not built on std::optional.
  const auto payload = status.GetPayload(DetailTypeUrl<Message>());
  if (!payload) return std::nullopt;
  Message message;
  if (!message.ParseFromString(std::string(*payload))) return std::nullopt;
  return message;
}

// Keeps `message` on `status` (not OK), replacing a detail of its type.
template <typename Message>
void SetDetail(absl::Status& status, const Message& message) {
  status.SetPayload(DetailTypeUrl<Message>(),
                    absl::Cord(message.SerializeAsString()));
}

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
