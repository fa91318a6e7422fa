// Where and how kernels run: the backend, the thread count and the
// cancellation token of the request being served.
#ifndef FACTORD_BASE_EXEC_CONTEXT_H_
#define FACTORD_BASE_EXEC_CONTEXT_H_

#include "absl/strings/string_view.h"
#include "factord/base/cancellation.h"

namespace factord {

enum class Backend {
  kReference,  // serial, obviously correct: the source of truth in tests
  kCpu,        // threaded (TBB), deterministic for a fixed thread count
  kCuda,
};

absl::string_view BackendName(Backend backend);

struct ExecContext {
  Backend backend = Backend::kCpu;
  int threads = 1;  // used by kCpu; >= 1
  // Work is partitioned by problem size only, so results are bitwise
  // identical run to run for the same input, options and thread count.
  bool deterministic = true;
  const Cancellation* cancellation = &Cancellation::None();

  absl::Status CheckCancelled() const { return cancellation->Check(); }
};

}  // namespace factord

#endif  // FACTORD_BASE_EXEC_CONTEXT_H_
