// The calling thread's last failure of the C API (factord.h: "The calling
// thread's last failure"), and how a failure gets there: from the C++
// client's absl::Status (code, ErrorInfo reason, RetryInfo delay, message)
// or from the C layer's own checks. Internal to libfactord_c.
#ifndef FACTORD_CAPI_LAST_ERROR_H_
#define FACTORD_CAPI_LAST_ERROR_H_

#include <exception>
#include <new>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "factord/factord.h"

namespace factord::capi {

// A failure found by the C layer before any call: its code, reason
// (factord.h lists them) and message.
struct Failure {
  factord_status code = FACTORD_OK;
  std::string reason;
  std::string message;
};

// Records `failure` as the calling thread's last failure; returns its code.
factord_status Fail(const Failure& failure);
factord_status Fail(factord_status code, absl::string_view reason,
                    absl::string_view message);

// Records a failed `status` of the C++ client (not OK) as the calling
// thread's last failure, its message prefixed with `context` when that is
// not empty ("upload 'kkt': ..."); returns its code (the gRPC code's
// number).
factord_status FailWith(const absl::Status& status,
                        absl::string_view context = "");

// Shorthands for the C layer's argument checks.
inline factord_status BadRequest(absl::string_view message) {
  return Fail(FACTORD_ERR_INVALID_ARGUMENT, "INVALID_REQUEST", message);
}
inline factord_status BadMatrix(absl::string_view message) {
  return Fail(FACTORD_ERR_INVALID_ARGUMENT, "INVALID_MATRIX", message);
}

// Runs `body` (returning factord_status) so that no C++ exception crosses
// the C boundary: an allocation failure is FACTORD_ERR_OUT_OF_MEMORY,
// anything else FACTORD_ERR_INTERNAL. Every exported function that may
// throw runs inside it.
template <typename Body>
factord_status Guarded(Body body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(FACTORD_ERR_OUT_OF_MEMORY, "OUT_OF_MEMORY",
                "the client could not allocate memory");
  } catch (const std::exception& e) {
    return Fail(FACTORD_ERR_INTERNAL, "INTERNAL", e.what());
  } catch (...) {
    return Fail(FACTORD_ERR_INTERNAL, "INTERNAL",
                "unknown exception in the C API");
  }
}

}  // namespace factord::capi

#endif  // FACTORD_CAPI_LAST_ERROR_H_
