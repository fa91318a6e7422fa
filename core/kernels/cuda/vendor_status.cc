#include "core/kernels/cuda/vendor_status.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace factord::kernels::cuda {

absl::Status CusparseStatus(cusparseStatus_t status, absl::string_view what) {
  if (status == CUSPARSE_STATUS_SUCCESS) return absl::OkStatus();
  const std::string message = absl::StrCat(
      what, ": cuSPARSE status ", static_cast<int>(status), " (",
      cusparseGetErrorName(status), "): ", cusparseGetErrorString(status));
  switch (status) {
    case CUSPARSE_STATUS_ALLOC_FAILED:
      return absl::ResourceExhaustedError(message);
    case CUSPARSE_STATUS_NOT_INITIALIZED:
    case CUSPARSE_STATUS_ARCH_MISMATCH:
      return absl::UnavailableError(message);
    default:
      return absl::InternalError(message);
  }
}

absl::Status CublasStatus(cublasStatus_t status, absl::string_view what) {
  if (status == CUBLAS_STATUS_SUCCESS) return absl::OkStatus();
  const std::string message = absl::StrCat(
      what, ": cuBLAS status ", static_cast<int>(status), " (",
      cublasGetStatusName(status), "): ", cublasGetStatusString(status));
  switch (status) {
    case CUBLAS_STATUS_ALLOC_FAILED:
      return absl::ResourceExhaustedError(message);
    case CUBLAS_STATUS_NOT_INITIALIZED:
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return absl::UnavailableError(message);
    default:
      return absl::InternalError(message);
  }
}

}  // namespace factord::kernels::cuda
