// cuSPARSE and cuBLAS status codes as absl::Status, the counterpart of
// CudaStatus (device.h) for the vendor libraries behind the SpMV and vector
// kernel signatures. Host code only; part of factord_cuda.
#ifndef FACTORD_KERNELS_CUDA_VENDOR_STATUS_H_
#define FACTORD_KERNELS_CUDA_VENDOR_STATUS_H_

#include <cublas_v2.h>
#include <cusparse.h>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace factord::kernels::cuda {

// OK for success; RESOURCE_EXHAUSTED for an allocation failure, UNAVAILABLE
// when the library cannot initialise (no device or driver), INTERNAL for
// anything else. The message names `what` and the library's status.
absl::Status CusparseStatus(cusparseStatus_t status, absl::string_view what);
absl::Status CublasStatus(cublasStatus_t status, absl::string_view what);

#define FACTORD_CUSPARSE_RETURN_IF_ERROR(call)                 \
  do {                                                         \
    const cusparseStatus_t factord_cusparse_status_ = (call);  \
    if (factord_cusparse_status_ != CUSPARSE_STATUS_SUCCESS) { \
      return ::factord::kernels::cuda::CusparseStatus(         \
          factord_cusparse_status_, #call);                    \
    }                                                          \
  } while (0)

#define FACTORD_CUBLAS_RETURN_IF_ERROR(call)                                \
  do {                                                                      \
    const cublasStatus_t factord_cublas_status_ = (call);                   \
    if (factord_cublas_status_ != CUBLAS_STATUS_SUCCESS) {                  \
      return ::factord::kernels::cuda::CublasStatus(factord_cublas_status_, \
                                                    #call);                 \
    }                                                                       \
  } while (0)

}  // namespace factord::kernels::cuda

#endif  // FACTORD_KERNELS_CUDA_VENDOR_STATUS_H_
