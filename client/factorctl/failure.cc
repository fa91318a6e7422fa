// factorctl's failures (failure.h): local reasons, the failure object and
// the stderr line.
#include "client/factorctl/failure.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "client/factorctl/json_writer.h"
#include "client/status_details.h"

namespace factord::factorctl {

absl::Status LocalError(absl::StatusCode code, absl::string_view reason,
                        absl::string_view message) {
  absl::Status status(code, message);
  status.SetPayload(kLocalReasonKey, absl::Cord(reason));
  return status;
}

std::string FailureReason(const absl::Status& status) {
  if (std::string reason = client::ErrorReason(status); !reason.empty()) {
    return reason;
  }
  // absl::optional: this Abseil is not built on std::optional.
  if (const auto local = status.GetPayload(kLocalReasonKey)) {
    return std::string(*local);
  }
  return "";
}

std::string FailureJson(const std::string& command, const std::string& id,
                        const absl::Status& status) {
  JsonWriter w;
  w.BeginObject();
  w.Field("schema", kJsonSchema);
  if (!command.empty()) w.Field("command", command);
  if (!id.empty()) w.Field("id", id);
  w.Field("code", absl::StatusCodeToString(status.code()));
  w.Field("reason", FailureReason(status));
  w.Field("message", status.message());
  if (std::optional<absl::Duration> delay = client::RetryDelay(status)) {
    w.Field("retry_delay_s", absl::ToDoubleSeconds(*delay));
  }
  if (std::map<std::string, std::string> metadata =
          client::ErrorMetadata(status);
      !metadata.empty()) {
    w.Key("metadata");
    w.BeginObject();
    for (const auto& [key, value] : metadata) w.Field(key, value);
    w.EndObject();
  }
  if (std::vector<std::pair<std::string, std::string>> violations =
          client::FieldViolations(status);
      !violations.empty()) {
    w.Key("field_violations");
    w.BeginArray();
    for (const auto& [field, description] : violations) {
      w.BeginObject();
      w.Field("field", field);
      w.Field("description", description);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
  return w.str();
}

std::string FailureText(const absl::Status& status) {
  std::string out = absl::StrCat(absl::StatusCodeToString(status.code()), ": ",
                                 status.message());
  if (std::string reason = FailureReason(status); !reason.empty()) {
    absl::StrAppend(&out, " [", reason, "]");
  }
  return out;
}

}  // namespace factord::factorctl
