// Which backend the daemon runs on, decided once at start-up from
// --backend, whether this build has the CUDA backend and what its probe
// found. A pure function, so that the choice and its explanation are
// tested without a GPU (tests/server/backend_choice_test.cc).
#ifndef FACTORD_SERVER_BACKEND_CHOICE_H_
#define FACTORD_SERVER_BACKEND_CHOICE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/device_context.h"
#include "core/base/exec_context.h"

namespace factord::server {

struct BackendChoice {
  Backend backend = Backend::kCpu;
  // Why, for the start-up log line and ServerInfo.device: e.g. "no CUDA
  // device: CUDA driver version is insufficient for CUDA runtime version".
  std::string reason;
};

// `requested` is auto, cpu or cuda. auto picks cuda when `cuda_built` and
// probe.count > 0, else cpu; cuda without either is FAILED_PRECONDITION
// with the reason; anything else is INVALID_ARGUMENT.
absl::StatusOr<BackendChoice> ChooseBackend(absl::string_view requested,
                                            bool cuda_built,
                                            const DeviceProbe& probe);

}  // namespace factord::server

#endif  // FACTORD_SERVER_BACKEND_CHOICE_H_
