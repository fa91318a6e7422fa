// The vector kernels of the Krylov methods through cuBLAS, behind the
// contract of core/linalg/kernels/blas_kernels.h: Dot (cublasDdot), Norm2
// (cublasDnrm2), Axpy (cublasDaxpy), Axpby (cublasDscal + cublasDaxpy, or a
// copy when beta == 0 so that an old NaN is ignored), Scale (cublasDscal),
// Copy (cublasDcopy) and PointwiseProduct (cublasDdgmm with one column).
// cuBLAS sums in its own order (and Dnrm2 scales), so results agree with
// the reference to rounding, not bit for bit; for a fixed device and n they
// are reproducible. NormInf is not here: cuBLAS's Idamax does not give the
// reference's NaN rule. Vendor code: not emulated; tested on a real device
// only (tests/core/device/cuda_device_test.cc).
#ifndef FACTORD_LINALG_KERNELS_CUDA_BLAS_KERNELS_H_
#define FACTORD_LINALG_KERNELS_CUDA_BLAS_KERNELS_H_

#include <cublas_v2.h>

#include <cstdint>
#include <memory>
#include <span>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/kernels/cuda/device.h"

namespace factord::kernels::cuda {

// A cuBLAS handle bound to one stream (one per request), pointer mode host:
// reductions return their value to the host, which synchronises the
// stream; the other operations are only enqueued. All pointers are device
// arrays of n entries; outputs must not overlap inputs. The stream must
// outlive the object.
class DeviceBlas {
 public:
  static absl::StatusOr<std::unique_ptr<DeviceBlas>> Create(CudaStream& stream);
  ~DeviceBlas();
  DeviceBlas(const DeviceBlas&) = delete;
  DeviceBlas& operator=(const DeviceBlas&) = delete;

  // x . y
  absl::StatusOr<double> Dot(int64_t n, const double* x, const double* y);
  // ||x||_2
  absl::StatusOr<double> Norm2(int64_t n, const double* x);
  // y += alpha x
  absl::Status Axpy(int64_t n, double alpha, const double* x, double* y);
  // y = alpha x + beta y; beta == 0 ignores the old y (even NaN)
  absl::Status Axpby(int64_t n, double alpha, const double* x, double beta,
                     double* y);
  // x *= alpha
  absl::Status Scale(int64_t n, double alpha, double* x);
  // y = x
  absl::Status Copy(int64_t n, const double* x, double* y);
  // y_i = d_i x_i
  absl::Status PointwiseProduct(int64_t n, const double* d, const double* x,
                                double* y);

 private:
  explicit DeviceBlas(CudaStream& stream) : stream_(stream) {}
  CudaStream& stream_;
  cublasHandle_t handle_ = nullptr;
};

// Host-array conveniences with the reference's signatures (sizes as there):
// upload, compute, download, synchronise.
absl::StatusOr<double> Dot(CudaStream& stream, std::span<const double> x,
                           std::span<const double> y);
absl::StatusOr<double> Norm2(CudaStream& stream, std::span<const double> x);
absl::Status Axpy(CudaStream& stream, double alpha, std::span<const double> x,
                  std::span<double> y);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_LINALG_KERNELS_CUDA_BLAS_KERNELS_H_
