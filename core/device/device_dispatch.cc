// Device calls of the kernel dispatch; see the header.
#include "core/device/device_dispatch.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"

namespace factord::linalg {

absl::StatusOr<DeviceContext*> BeginDeviceCall(const ExecContext& ctx,
                                               absl::string_view kernel,
                                               int64_t bytes) {
  if (absl::Status s = ctx.CheckDevice(); !s.ok()) return s;
  DeviceContext* device = ctx.device;
  if (device->budget() != nullptr) {
    absl::Status reserved = device->budget()->Reserve(
        bytes, absl::StrCat(device->kernels().name(), " ", kernel));
    if (!reserved.ok()) {
      device->RecordError(reserved);
      return reserved;
    }
  }
  return device;
}

void EndDeviceCall(DeviceContext& device, absl::string_view kernel,
                   int64_t bytes, const absl::Status& status) {
  if (device.budget() != nullptr) device.budget()->Release(bytes);
  if (!status.ok()) {
    device.RecordError(absl::Status(
        status.code(), absl::StrCat(device.kernels().name(), " ", kernel, ": ",
                                    status.message())));
  }
}

void FillNaN(std::span<double> x) {
  std::fill(x.begin(), x.end(), std::numeric_limits<double>::quiet_NaN());
}

}  // namespace factord::linalg
