// Where and how kernels run: the backend, the thread count, the
// cancellation token and (device backends) the device context of the
// request being served.
#ifndef FACTORD_BASE_EXEC_CONTEXT_H_
#define FACTORD_BASE_EXEC_CONTEXT_H_

#include "absl/strings/string_view.h"
#include "core/base/cancellation.h"

namespace factord {

class DeviceContext;  // core/base/device_context.h

enum class Backend {
  kReference,  // serial, obviously correct: the source of truth in tests
  kCpu,        // threaded (TBB), deterministic for a fixed thread count
  kCuda,       // the registered device backend (base/device_context.h)
};

absl::string_view BackendName(Backend backend);

struct ExecContext {
  Backend backend = Backend::kCpu;
  int threads = 1;  // used by kCpu; >= 1
  // Work is partitioned by problem size only, so results are bitwise
  // identical run to run for the same input, options and thread count.
  bool deterministic = true;
  const Cancellation* cancellation = &Cancellation::None();
  // kCuda: the request's stream, vendor handles and first device error; not
  // owned. Ignored by kReference and kCpu.
  DeviceContext* device = nullptr;

  // Whether the work may go on: CANCELLED / DEADLINE_EXCEEDED from the
  // token; for kCuda also FAILED_PRECONDITION without a device context (no
  // backend registered) and the request's first device error.
  absl::Status CheckCancelled() const {
    if (backend == Backend::kCuda) {
      if (absl::Status s = CheckDevice(); !s.ok()) return s;
    }
    return cancellation->Check();
  }
  // kCuda only: the missing-backend error or the first device error.
  absl::Status CheckDevice() const;
};

}  // namespace factord

#endif  // FACTORD_BASE_EXEC_CONTEXT_H_
