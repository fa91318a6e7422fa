#include "core/base/error_details.h"

#include <cstdint>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace factord {
namespace {

// Payload keys, one per detail kind.
constexpr char kErrorInfoKey[] = "factord/error-info";
constexpr char kRetryDelayKey[] = "factord/retry-delay-ns";
constexpr char kFieldViolationsKey[] = "factord/field-violations";

// Strings as "<length>:<bytes>" one after another: any byte may appear.
std::string Encode(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) absl::StrAppend(&out, p.size(), ":", p);
  return out;
}

// The strings of Encode; nullopt when `text` is not such a sequence.
std::optional<std::vector<std::string>> Decode(absl::string_view text) {
  std::vector<std::string> parts;
  while (!text.empty()) {
    const size_t colon = text.find(':');
    uint64_t length = 0;
    if (colon == absl::string_view::npos ||
        !absl::SimpleAtoi(text.substr(0, colon), &length) ||
        length > text.size() - colon - 1) {
      return std::nullopt;
    }
    parts.emplace_back(text.substr(colon + 1, length));
    text.remove_prefix(colon + 1 + length);
  }
  return parts;
}

std::optional<std::vector<std::string>> Parts(const absl::Status& status,
                                              absl::string_view key) {
  const auto payload = status.GetPayload(key);  // absl::optional
  if (!payload.has_value()) return std::nullopt;
  return Decode(std::string(*payload));
}

}  // namespace

std::optional<ErrorInfo> GetErrorInfo(const absl::Status& status) {
  std::optional<std::vector<std::string>> parts = Parts(status, kErrorInfoKey);
  if (!parts.has_value() || parts->size() < 2 || parts->size() % 2 != 0) {
    return std::nullopt;
  }
  ErrorInfo info;
  info.reason = (*parts)[0];
  info.domain = (*parts)[1];
  for (size_t i = 2; i < parts->size(); i += 2) {
    info.metadata[(*parts)[i]] = (*parts)[i + 1];
  }
  return info;
}

std::optional<absl::Duration> GetRetryDelay(const absl::Status& status) {
  const auto payload = status.GetPayload(kRetryDelayKey);
  int64_t ns = 0;
  if (!payload.has_value() || !absl::SimpleAtoi(std::string(*payload), &ns)) {
    return std::nullopt;
  }
  return absl::Nanoseconds(ns);
}

std::vector<FieldViolation> GetFieldViolations(const absl::Status& status) {
  std::vector<FieldViolation> violations;
  std::optional<std::vector<std::string>> parts =
      Parts(status, kFieldViolationsKey);
  if (!parts.has_value() || parts->size() % 2 != 0) return violations;
  for (size_t i = 0; i < parts->size(); i += 2) {
    violations.push_back({(*parts)[i], (*parts)[i + 1]});
  }
  return violations;
}

void SetErrorInfo(absl::Status& status, const ErrorInfo& info) {
  if (status.ok()) return;
  std::vector<std::string> parts = {info.reason, info.domain};
  for (const auto& [key, value] : info.metadata) {
    parts.push_back(key);
    parts.push_back(value);
  }
  status.SetPayload(kErrorInfoKey, absl::Cord(Encode(parts)));
}

void SetRetryDelay(absl::Status& status, absl::Duration delay) {
  if (status.ok()) return;
  status.SetPayload(kRetryDelayKey,
                    absl::Cord(absl::StrCat(absl::ToInt64Nanoseconds(delay))));
}

void SetFieldViolations(absl::Status& status,
                        const std::vector<FieldViolation>& violations) {
  if (status.ok()) return;
  std::vector<std::string> parts;
  for (const FieldViolation& v : violations) {
    parts.push_back(v.field);
    parts.push_back(v.description);
  }
  status.SetPayload(kFieldViolationsKey, absl::Cord(Encode(parts)));
}

}  // namespace factord
