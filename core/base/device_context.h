// The per-request device context of a device backend (Backend::kCuda): the
// backend's stream and vendor handles (opaque here), the request's first
// device error, and the device-memory budget the request draws from.
//
// Core never links a device backend (factord_cuda links factord_core, not
// the other way round). A backend registers its kernels at start-up
// (core/device/device_kernels.h; RegisterCudaBackend() in
// kernels/cuda/cuda_backend.h); CreateDeviceContext then gives each request
// its own context, which the caller puts in ExecContext::device. Without a
// registered backend, Backend::kCuda is FAILED_PRECONDITION, never a silent
// run on the CPU.
//
// Kernel dispatch functions return no status (they are called inside
// Krylov loops), so a failed device call is recorded here, its outputs are
// filled with NaN, and the error is returned by the next
// ExecContext::CheckCancelled(), which every Krylov iteration, every
// factorization stage and the end of every solve call.
#ifndef FACTORD_BASE_DEVICE_CONTEXT_H_
#define FACTORD_BASE_DEVICE_CONTEXT_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/exec_context.h"

namespace factord {

class DeviceKernels;  // core/device/device_kernels.h (core-internal)
class DeviceStream;   // the backend's stream and handles

// Device bytes in use by all requests of a process, against one limit (the
// server's --device_cache_bytes). Thread-safe.
class DeviceMemoryBudget {
 public:
  // limit_bytes == 0: no limit (bytes are still counted).
  explicit DeviceMemoryBudget(int64_t limit_bytes) : limit_(limit_bytes) {}

  // Counts `bytes` as in use, or RESOURCE_EXHAUSTED naming `what`, the
  // bytes asked for, the bytes in use and the limit (nothing is counted).
  absl::Status Reserve(int64_t bytes, absl::string_view what);
  void Release(int64_t bytes);

  int64_t limit() const { return limit_; }
  int64_t in_use() const;
  int64_t peak() const;

 private:
  const int64_t limit_;
  mutable std::mutex mu_;
  int64_t in_use_ = 0;  // guarded by mu_
  int64_t peak_ = 0;    // guarded by mu_
};

// What a device backend finds on this machine.
struct DeviceProbe {
  int count = 0;       // usable devices
  std::string reason;  // why count is 0 (the runtime's error string)
  std::string device;  // name of device 0 when count > 0
};

// One request's view of the device. Not copyable; owned by whoever serves
// the request (the server's job), which must keep it alive while any
// ExecContext points to it. Used by one request at a time.
class DeviceContext {
 public:
  DeviceContext(Backend backend, std::shared_ptr<const DeviceKernels> kernels,
                std::unique_ptr<DeviceStream> stream,
                DeviceMemoryBudget* budget);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  Backend backend() const { return backend_; }
  const DeviceKernels& kernels() const { return *kernels_; }
  DeviceStream& stream() const { return *stream_; }
  // nullptr: bytes are not counted.
  DeviceMemoryBudget* budget() const { return budget_; }

  // The first device error of the request; OK while there was none.
  absl::Status status() const;
  // Keeps the first error; later ones are dropped (they usually follow from
  // it).
  void RecordError(absl::Status error);

 private:
  const Backend backend_;
  const std::shared_ptr<const DeviceKernels> kernels_;
  const std::unique_ptr<DeviceStream> stream_;
  DeviceMemoryBudget* const budget_;
  mutable std::mutex mu_;
  absl::Status status_;  // guarded by mu_
};

// Whether a backend has registered device kernels in this process.
bool DeviceBackendRegistered(Backend backend);

// The registered backend's view of the machine; count 0 and reason "no
// <backend> backend in this build" when none is registered.
DeviceProbe ProbeDevices(Backend backend);

// A context for one request on `backend`: FAILED_PRECONDITION when no
// backend is registered for it (or it is not a device backend); the
// backend's error (e.g. UNAVAILABLE without a device) when it cannot create
// a stream. `budget` may be nullptr and must outlive the context.
absl::StatusOr<std::unique_ptr<DeviceContext>> CreateDeviceContext(
    Backend backend, DeviceMemoryBudget* budget);

}  // namespace factord

#endif  // FACTORD_BASE_DEVICE_CONTEXT_H_
