// The device-backend registry, per-request device contexts and the device
// memory budget (core/base/device_context.h).
#include "core/base/device_context.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/device/device_kernels.h"

namespace factord {
namespace {

// One slot per device backend (only kCuda today).
struct Registry {
  std::mutex mu;
  std::shared_ptr<const DeviceKernels> cuda;  // guarded by mu
};

Registry& GetRegistry() {
  static Registry* registry = new Registry;
  return *registry;
}

absl::Status MissingBackend(Backend backend) {
  return absl::FailedPreconditionError(absl::StrCat(
      "backend ", BackendName(backend),
      ": no device kernels are registered in this process (the build has no ",
      BackendName(backend),
      " backend, or its Register function was not "
      "called); use backend cpu"));
}

}  // namespace

absl::Status DeviceMemoryBudget::Reserve(int64_t bytes,
                                         absl::string_view what) {
  std::lock_guard<std::mutex> lock(mu_);
  if (limit_ > 0 && in_use_ + bytes > limit_) {
    return absl::ResourceExhaustedError(absl::StrCat(
        what, " needs ", bytes, " device bytes, ", in_use_,
        " are in use, over the device budget device_cache_bytes = ", limit_));
  }
  in_use_ += bytes;
  peak_ = std::max(peak_, in_use_);
  return absl::OkStatus();
}

void DeviceMemoryBudget::Release(int64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  in_use_ -= bytes;
}

int64_t DeviceMemoryBudget::in_use() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_use_;
}

int64_t DeviceMemoryBudget::peak() const {
  std::lock_guard<std::mutex> lock(mu_);
  return peak_;
}

DeviceContext::DeviceContext(Backend backend,
                             std::shared_ptr<const DeviceKernels> kernels,
                             std::unique_ptr<DeviceStream> stream,
                             DeviceMemoryBudget* budget)
    : backend_(backend),
      kernels_(std::move(kernels)),
      stream_(std::move(stream)),
      budget_(budget) {}

DeviceContext::~DeviceContext() = default;

absl::Status DeviceContext::status() const {
  std::lock_guard<std::mutex> lock(mu_);
  return status_;
}

void DeviceContext::RecordError(absl::Status error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (status_.ok()) status_ = std::move(error);
}

absl::Status ExecContext::CheckDevice() const {
  if (backend != Backend::kCuda) return absl::OkStatus();
  if (device == nullptr) {
    if (!DeviceBackendRegistered(backend)) return MissingBackend(backend);
    return absl::FailedPreconditionError(absl::StrCat(
        "backend ", BackendName(backend),
        ": the request has no device context (CreateDeviceContext)"));
  }
  return device->status();
}

absl::Status RegisterDeviceKernels(
    Backend backend, std::shared_ptr<const DeviceKernels> kernels) {
  if (backend != Backend::kCuda || kernels == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot register device kernels for backend ", BackendName(backend)));
  }
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.cuda = std::move(kernels);
  return absl::OkStatus();
}

void UnregisterDeviceKernels(Backend backend) {
  if (backend != Backend::kCuda) return;
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.cuda = nullptr;
}

std::shared_ptr<const DeviceKernels> FindDeviceKernels(Backend backend) {
  if (backend != Backend::kCuda) return nullptr;
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.cuda;
}

bool DeviceBackendRegistered(Backend backend) {
  return FindDeviceKernels(backend) != nullptr;
}

DeviceProbe ProbeDevices(Backend backend) {
  std::shared_ptr<const DeviceKernels> kernels = FindDeviceKernels(backend);
  if (kernels == nullptr) {
    DeviceProbe none;
    none.reason =
        absl::StrCat("no ", BackendName(backend), " backend in this build");
    return none;
  }
  return kernels->Probe();
}

absl::StatusOr<std::unique_ptr<DeviceContext>> CreateDeviceContext(
    Backend backend, DeviceMemoryBudget* budget) {
  std::shared_ptr<const DeviceKernels> kernels = FindDeviceKernels(backend);
  if (kernels == nullptr) return MissingBackend(backend);
  absl::StatusOr<std::unique_ptr<DeviceStream>> stream =
      kernels->CreateStream();
  if (!stream.ok()) {
    return absl::Status(
        stream.status().code(),
        absl::StrCat(kernels->name(),
                     ": cannot create a stream: ", stream.status().message()));
  }
  return std::make_unique<DeviceContext>(backend, std::move(kernels),
                                         *std::move(stream), budget);
}

}  // namespace factord
