// CUDA device detection, streams, device arrays and the conversion of every
// CUDA runtime error into an absl::Status. Host code only (compiled by the
// host compiler against the CUDA runtime); part of the factord_cuda library,
// which exists only when the build has nvcc (FACTORD_HAVE_CUDA).
//
// Without a GPU driver cudaGetDeviceCount fails (error 35, insufficient
// driver, on a machine with the toolkit but no driver) and leaves the count
// untouched: DetectCudaDevices starts from 0 and treats any error as "no
// GPU", with the runtime's message as the reason (PLATFORM.md).
#ifndef FACTORD_KERNELS_CUDA_DEVICE_H_
#define FACTORD_KERNELS_CUDA_DEVICE_H_

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace factord::kernels::cuda {

// OK for cudaSuccess; otherwise RESOURCE_EXHAUSTED for an allocation
// failure, UNAVAILABLE for a missing or unusable device or driver, INTERNAL
// for anything else. The message names `what` and the CUDA error.
absl::Status CudaStatus(cudaError_t error, absl::string_view what);

#define FACTORD_CUDA_RETURN_IF_ERROR(call)                                     \
  do {                                                                         \
    const cudaError_t factord_cuda_error_ = (call);                            \
    if (factord_cuda_error_ != cudaSuccess) {                                  \
      return ::factord::kernels::cuda::CudaStatus(factord_cuda_error_, #call); \
    }                                                                          \
  } while (0)

struct CudaDevices {
  int count = 0;       // usable devices; 0 without a GPU or driver
  std::string reason;  // why count is 0, e.g. "CUDA driver version is
                       // insufficient for CUDA runtime version"
  std::string first_device_name;  // name and compute capability of device 0
};

// Never fails: a machine without a GPU has count 0 and a reason.
CudaDevices DetectCudaDevices();

// One CUDA stream, owned (one per request: concurrent requests do not
// serialise on the default stream). Non-copyable, non-movable; hold it in a
// unique_ptr.
class CudaStream {
 public:
  // Selects `device` on the calling thread and creates a non-blocking stream.
  static absl::StatusOr<std::unique_ptr<CudaStream>> Create(int device = 0);
  ~CudaStream();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;

  cudaStream_t get() const { return stream_; }
  int device() const { return device_; }
  // Waits for all work enqueued so far; reports an asynchronous kernel error.
  absl::Status Synchronize();

 private:
  CudaStream(cudaStream_t stream, int device)
      : stream_(stream), device_(device) {}
  cudaStream_t stream_;
  int device_;
};

// A device allocation of `size` elements of T, freed on destruction.
// Move-only. Copies are asynchronous on the given stream: the host span must
// stay alive (and, for CopyToHost, unread) until the stream is synchronised.
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  static absl::StatusOr<DeviceArray> Allocate(int64_t size) {
    DeviceArray array;
    if (size > 0) {
      void* data = nullptr;
      FACTORD_CUDA_RETURN_IF_ERROR(
          cudaMalloc(&data, static_cast<size_t>(size) * sizeof(T)));
      array.data_ = static_cast<T*>(data);
      array.size_ = size;
    }
    return array;
  }
  ~DeviceArray() {
    if (data_ != nullptr) cudaFree(data_);
  }
  DeviceArray(DeviceArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  DeviceArray& operator=(DeviceArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  int64_t size() const { return size_; }
  int64_t bytes() const { return size_ * static_cast<int64_t>(sizeof(T)); }

  // host.size() must equal size().
  absl::Status CopyFromHost(std::span<const T> host, CudaStream& stream) {
    if (static_cast<int64_t>(host.size()) != size_) {
      return absl::InvalidArgumentError("CopyFromHost: size mismatch");
    }
    if (size_ == 0) return absl::OkStatus();
    FACTORD_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(
        data_, host.data(), bytes(), cudaMemcpyHostToDevice, stream.get()));
    return absl::OkStatus();
  }
  absl::Status CopyToHost(std::span<T> host, CudaStream& stream) const {
    if (static_cast<int64_t>(host.size()) != size_) {
      return absl::InvalidArgumentError("CopyToHost: size mismatch");
    }
    if (size_ == 0) return absl::OkStatus();
    FACTORD_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(
        host.data(), data_, bytes(), cudaMemcpyDeviceToHost, stream.get()));
    return absl::OkStatus();
  }

 private:
  T* data_ = nullptr;
  int64_t size_ = 0;
};

// Allocates and uploads `host` in one call.
template <typename T>
absl::StatusOr<DeviceArray<T>> UploadArray(std::span<const T> host,
                                           CudaStream& stream) {
  absl::StatusOr<DeviceArray<T>> array =
      DeviceArray<T>::Allocate(static_cast<int64_t>(host.size()));
  if (!array.ok()) return array.status();
  absl::Status copied = array->CopyFromHost(host, stream);
  if (!copied.ok()) return copied;
  return array;
}

}  // namespace factord::kernels::cuda

#endif  // FACTORD_KERNELS_CUDA_DEVICE_H_
