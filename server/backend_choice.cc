#include "server/backend_choice.h"

#include "absl/strings/str_cat.h"

namespace factord::server {
namespace {

constexpr absl::string_view kNotBuilt = "this build has no CUDA backend";

std::string DeviceFound(const DeviceProbe& probe) {
  return absl::StrCat(probe.count, " CUDA device", probe.count > 1 ? "s" : "",
                      ", device 0: ", probe.device);
}

std::string NoDevice(const DeviceProbe& probe) {
  return absl::StrCat("no CUDA device: ",
                      probe.reason.empty() ? "none found" : probe.reason);
}

}  // namespace

absl::StatusOr<BackendChoice> ChooseBackend(absl::string_view requested,
                                            bool cuda_built,
                                            const DeviceProbe& probe) {
  BackendChoice choice;
  if (requested == "cpu") {
    choice.reason = "requested";
    return choice;
  }
  if (requested == "auto") {
    if (!cuda_built) {
      choice.reason = std::string(kNotBuilt);
    } else if (probe.count <= 0) {
      choice.reason = NoDevice(probe);
    } else {
      choice.backend = Backend::kCuda;
      choice.reason = DeviceFound(probe);
    }
    return choice;
  }
  if (requested == "cuda") {
    if (!cuda_built || probe.count <= 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("backend cuda requested, but ",
                       cuda_built ? NoDevice(probe) : std::string(kNotBuilt),
                       "; use --backend=cpu or auto"));
    }
    choice.backend = Backend::kCuda;
    choice.reason = DeviceFound(probe);
    return choice;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("backend '", requested, "' is not one of auto, cpu, cuda"));
}

}  // namespace factord::server
