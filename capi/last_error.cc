// The per-thread last failure (last_error.h) and the exported functions
// that read it.
#include "capi/last_error.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "client/status_details.h"

namespace factord::capi {
namespace {

struct LastError {
  factord_status code = FACTORD_OK;
  std::string reason;
  std::string message;
  int64_t retry_ms = -1;
};

// One per thread: concurrent calls, even on one handle, never share it.
thread_local LastError t_last_error;

}  // namespace

factord_status Fail(factord_status code, absl::string_view reason,
                    absl::string_view message) {
  LastError& e = t_last_error;
  e.code = code;
  e.retry_ms = -1;
  try {
    e.reason.assign(reason.data(), reason.size());
    e.message.assign(message.data(), message.size());
  } catch (...) {  // out of memory: keep the code, lose the text
    e.reason.clear();
    e.message.clear();
  }
  return code;
}

factord_status Fail(const Failure& failure) {
  return Fail(failure.code, failure.reason, failure.message);
}

factord_status FailWith(const absl::Status& status, absl::string_view context) {
  // absl and gRPC codes share their numbers, and so do factord_status 1..16.
  const int raw = static_cast<int>(status.code());
  const factord_status code = raw >= 1 && raw <= 16
                                  ? static_cast<factord_status>(raw)
                                  : FACTORD_ERR_UNKNOWN;
  std::string reason = client::ErrorReason(status);
  if (reason.empty()) reason = factord_status_name(code);
  std::string message = context.empty()
                            ? std::string(status.message())
                            : absl::StrCat(context, ": ", status.message());
  if (client::DaemonNeverReached(status)) {
    // The C API can run without a daemon: say so where one was missing.
    absl::StrAppend(&message,
                    "; or work in this process without a daemon: "
                    "FACTORD_SERVER=local");
  }
  Fail(code, reason, message);
  if (std::optional<absl::Duration> delay = client::RetryDelay(status)) {
    t_last_error.retry_ms = absl::ToInt64Milliseconds(*delay);
  }
  return code;
}

}  // namespace factord::capi

extern "C" {

FACTORD_C_EXPORT const char* factord_status_name(factord_status status) {
  // Read as the int a C caller may have stored (any value), not loaded as
  // the enumeration (undefined behaviour in C++ outside its values).
  int code;
  std::memcpy(&code, &status, sizeof code);
  switch (code) {
    case FACTORD_OK:
      return "OK";
    case FACTORD_ERR_CANCELLED:
      return "CANCELLED";
    case FACTORD_ERR_UNKNOWN:
      return "UNKNOWN";
    case FACTORD_ERR_INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case FACTORD_ERR_DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case FACTORD_ERR_NOT_FOUND:
      return "NOT_FOUND";
    case FACTORD_ERR_ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case FACTORD_ERR_PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case FACTORD_ERR_RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case FACTORD_ERR_FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case FACTORD_ERR_ABORTED:
      return "ABORTED";
    case FACTORD_ERR_OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case FACTORD_ERR_UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case FACTORD_ERR_INTERNAL:
      return "INTERNAL";
    case FACTORD_ERR_UNAVAILABLE:
      return "UNAVAILABLE";
    case FACTORD_ERR_DATA_LOSS:
      return "DATA_LOSS";
    case FACTORD_ERR_UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    case FACTORD_ERR_BUFFER_TOO_SMALL:
      return "BUFFER_TOO_SMALL";
    case FACTORD_ERR_OUT_OF_MEMORY:
      return "OUT_OF_MEMORY";
  }
  return "UNKNOWN_STATUS";
}

FACTORD_C_EXPORT factord_status factord_last_error_code(void) {
  return factord::capi::t_last_error.code;
}

FACTORD_C_EXPORT const char* factord_last_error_message(void) {
  return factord::capi::t_last_error.message.c_str();
}

FACTORD_C_EXPORT const char* factord_last_error_reason(void) {
  return factord::capi::t_last_error.reason.c_str();
}

FACTORD_C_EXPORT int64_t factord_last_error_retry_ms(void) {
  return factord::capi::t_last_error.retry_ms;
}

FACTORD_C_EXPORT size_t factord_last_error_copy(char* buffer, size_t size) {
  const auto& e = factord::capi::t_last_error;
  std::string text;
  try {
    if (e.code != FACTORD_OK) {
      text = absl::StrCat(factord_status_name(e.code), " [", e.reason,
                          "]: ", e.message);
    }
  } catch (...) {
    text.clear();
  }
  if (buffer != nullptr && size > 0) {
    const size_t n = std::min(size - 1, text.size());
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
  }
  return text.size();
}

FACTORD_C_EXPORT void factord_clear_error(void) {
  auto& e = factord::capi::t_last_error;
  e.code = FACTORD_OK;
  e.reason.clear();
  e.message.clear();
  e.retry_ms = -1;
}

}  // extern "C"
