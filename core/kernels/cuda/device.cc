#include "core/kernels/cuda/device.h"

#include "absl/strings/str_cat.h"

namespace factord::kernels::cuda {

absl::Status CudaStatus(cudaError_t error, absl::string_view what) {
  if (error == cudaSuccess) return absl::OkStatus();
  const std::string message =
      absl::StrCat(what, ": CUDA error ", static_cast<int>(error), " (",
                   cudaGetErrorName(error), "): ", cudaGetErrorString(error));
  switch (error) {
    case cudaErrorMemoryAllocation:
      return absl::ResourceExhaustedError(message);
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorInvalidDevice:
      return absl::UnavailableError(message);
    default:
      return absl::InternalError(message);
  }
}

CudaDevices DetectCudaDevices() {
  CudaDevices devices;
  int count = 0;  // left untouched by a failing call (error 35, no driver)
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    devices.reason =
        absl::StrCat("cudaGetDeviceCount: ", cudaGetErrorString(error),
                     " (error ", static_cast<int>(error), ")");
    cudaGetLastError();  // reset the (non-sticky) error for later calls
    return devices;
  }
  if (count <= 0) {
    devices.reason = "the CUDA runtime reports no device";
    return devices;
  }
  devices.count = count;
  cudaDeviceProp properties;
  if (cudaGetDeviceProperties(&properties, 0) == cudaSuccess) {
    devices.first_device_name = absl::StrCat(
        properties.name, " (sm_", properties.major, properties.minor, ")");
  }
  return devices;
}

absl::StatusOr<std::unique_ptr<CudaStream>> CudaStream::Create(int device) {
  FACTORD_CUDA_RETURN_IF_ERROR(cudaSetDevice(device));
  cudaStream_t stream = nullptr;
  FACTORD_CUDA_RETURN_IF_ERROR(
      cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return std::unique_ptr<CudaStream>(new CudaStream(stream, device));
}

CudaStream::~CudaStream() {
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

absl::Status CudaStream::Synchronize() {
  FACTORD_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream_));
  return absl::OkStatus();
}

}  // namespace factord::kernels::cuda
