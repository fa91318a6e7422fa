// y = A x through cuSPARSE, behind the contract of the SpMV kernel family
// (core/linalg/kernels/spmv_kernels.h): `a` general CSR (both triangles), x of
// a.cols entries, y of a.rows, empty rows giving 0. Generic API
// (cusparseCreateConstCsr, cusparseSpMV) with CUSPARSE_SPMV_CSR_ALG2, which
// gives bitwise identical results run to run (the project's determinism
// rule); the sums are not in the reference's order, so results agree with
// the reference to rounding, not bit for bit. Vendor code: not emulated;
// tested on a real device only (tests/core/device/cuda_device_test.cc).
//
// Index types: 32-bit row offsets and column indices when nnz fits (the
// row offsets are narrowed once at upload), 64-bit otherwise (the column
// indices are widened): cuSPARSE takes both arrays with one width.
#ifndef FACTORD_LINALG_KERNELS_CUDA_SPMV_KERNELS_H_
#define FACTORD_LINALG_KERNELS_CUDA_SPMV_KERNELS_H_

#include <cusparse.h>

#include <cstdint>
#include <memory>
#include <span>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/kernels/cuda/device.h"
#include "core/matrix/csr.h"

namespace factord::kernels::cuda {

// A general CSR matrix on the device with its cuSPARSE handle (bound to the
// stream given at creation: one stream per request), descriptors and SpMV
// workspace, for repeated products in a Krylov loop. Non-copyable; hold it
// in a unique_ptr. The stream must outlive it.
class DeviceSpmv {
 public:
  // Uploads `a` (Structure::kGeneral, else INVALID_ARGUMENT) and sizes the
  // workspace. Enqueued on `stream`; `a` may be released once the stream
  // has been synchronised.
  static absl::StatusOr<std::unique_ptr<DeviceSpmv>> Create(CudaStream& stream,
                                                            const CsrMatrix& a);
  ~DeviceSpmv();
  DeviceSpmv(const DeviceSpmv&) = delete;
  DeviceSpmv& operator=(const DeviceSpmv&) = delete;

  // y = A x on device arrays of cols() and rows() entries (not
  // overlapping); enqueued on the stream, no synchronisation.
  absl::Status Apply(const double* x, double* y);

  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  // Device bytes held (matrix and workspace), for the device budget.
  int64_t device_bytes() const;

 private:
  explicit DeviceSpmv(CudaStream& stream) : stream_(stream) {}

  CudaStream& stream_;
  int64_t rows_ = 0, cols_ = 0, nnz_ = 0;
  cusparseHandle_t handle_ = nullptr;
  cusparseConstSpMatDescr_t matrix_ = nullptr;
  DeviceArray<int32_t> row_ptr32_, col_idx32_;  // nnz < 2^31
  DeviceArray<int64_t> row_ptr64_, col_idx64_;  // otherwise
  DeviceArray<double> values_;
  DeviceArray<char> workspace_;
};

// One product with host arrays: uploads A and x, multiplies, downloads y
// and synchronises the stream (sizes as in reference::Spmv).
absl::Status Spmv(CudaStream& stream, const CsrMatrix& a,
                  std::span<const double> x, std::span<double> y);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_LINALG_KERNELS_CUDA_SPMV_KERNELS_H_
