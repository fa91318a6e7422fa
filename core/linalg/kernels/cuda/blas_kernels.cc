#include "core/linalg/kernels/cuda/blas_kernels.h"

#include <utility>

#include "core/kernels/cuda/status_macros.h"
#include "core/kernels/cuda/vendor_status.h"

namespace factord::kernels::cuda {

absl::StatusOr<std::unique_ptr<DeviceBlas>> DeviceBlas::Create(
    CudaStream& stream) {
  std::unique_ptr<DeviceBlas> blas(new DeviceBlas(stream));
  FACTORD_CUBLAS_RETURN_IF_ERROR(cublasCreate(&blas->handle_));
  FACTORD_CUBLAS_RETURN_IF_ERROR(cublasSetStream(blas->handle_, stream.get()));
  FACTORD_CUBLAS_RETURN_IF_ERROR(
      cublasSetPointerMode(blas->handle_, CUBLAS_POINTER_MODE_HOST));
  return blas;
}

DeviceBlas::~DeviceBlas() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

absl::StatusOr<double> DeviceBlas::Dot(int64_t n, const double* x,
                                       const double* y) {
  double result = 0;
  if (n == 0) return result;
  FACTORD_CUBLAS_RETURN_IF_ERROR(
      cublasDdot_v2_64(handle_, n, x, 1, y, 1, &result));
  return result;
}

absl::StatusOr<double> DeviceBlas::Norm2(int64_t n, const double* x) {
  double result = 0;
  if (n == 0) return result;
  FACTORD_CUBLAS_RETURN_IF_ERROR(cublasDnrm2_v2_64(handle_, n, x, 1, &result));
  return result;
}

absl::Status DeviceBlas::Axpy(int64_t n, double alpha, const double* x,
                              double* y) {
  if (n == 0) return absl::OkStatus();
  FACTORD_CUBLAS_RETURN_IF_ERROR(
      cublasDaxpy_v2_64(handle_, n, &alpha, x, 1, y, 1));
  return absl::OkStatus();
}

absl::Status DeviceBlas::Axpby(int64_t n, double alpha, const double* x,
                               double beta, double* y) {
  if (n == 0) return absl::OkStatus();
  if (beta == 0) {  // y = alpha x, whatever y held
    FACTORD_CUDA_RETURN_IF_NOT_OK(Copy(n, x, y));
    return Scale(n, alpha, y);
  }
  FACTORD_CUDA_RETURN_IF_NOT_OK(Scale(n, beta, y));
  return Axpy(n, alpha, x, y);
}

absl::Status DeviceBlas::Scale(int64_t n, double alpha, double* x) {
  if (n == 0) return absl::OkStatus();
  FACTORD_CUBLAS_RETURN_IF_ERROR(cublasDscal_v2_64(handle_, n, &alpha, x, 1));
  return absl::OkStatus();
}

absl::Status DeviceBlas::Copy(int64_t n, const double* x, double* y) {
  if (n == 0) return absl::OkStatus();
  FACTORD_CUBLAS_RETURN_IF_ERROR(cublasDcopy_v2_64(handle_, n, x, 1, y, 1));
  return absl::OkStatus();
}

absl::Status DeviceBlas::PointwiseProduct(int64_t n, const double* d,
                                          const double* x, double* y) {
  if (n == 0) return absl::OkStatus();
  // y = diag(d) x: x as an n x 1 matrix scaled by rows.
  FACTORD_CUBLAS_RETURN_IF_ERROR(
      cublasDdgmm_64(handle_, CUBLAS_SIDE_LEFT, n, 1, x, n, d, 1, y, n));
  return absl::OkStatus();
}

absl::StatusOr<double> Dot(CudaStream& stream, std::span<const double> x,
                           std::span<const double> y) {
  if (x.size() != y.size()) {
    return absl::InvalidArgumentError("Dot: x and y differ in size");
  }
  FACTORD_CUDA_ASSIGN_OR_RETURN(blas, DeviceBlas::Create(stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_x, UploadArray(x, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_y, UploadArray(y, stream));
  return blas->Dot(static_cast<int64_t>(x.size()), device_x.data(),
                   device_y.data());
}

absl::StatusOr<double> Norm2(CudaStream& stream, std::span<const double> x) {
  FACTORD_CUDA_ASSIGN_OR_RETURN(blas, DeviceBlas::Create(stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_x, UploadArray(x, stream));
  return blas->Norm2(static_cast<int64_t>(x.size()), device_x.data());
}

absl::Status Axpy(CudaStream& stream, double alpha, std::span<const double> x,
                  std::span<double> y) {
  if (x.size() != y.size()) {
    return absl::InvalidArgumentError("Axpy: x and y differ in size");
  }
  FACTORD_CUDA_ASSIGN_OR_RETURN(blas, DeviceBlas::Create(stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_x, UploadArray(x, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      device_y,
      UploadArray(std::span<const double>(y.data(), y.size()), stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(blas->Axpy(
      static_cast<int64_t>(x.size()), alpha, device_x.data(), device_y.data()));
  FACTORD_CUDA_RETURN_IF_NOT_OK(device_y.CopyToHost(y, stream));
  return stream.Synchronize();
}

}  // namespace factord::kernels::cuda
