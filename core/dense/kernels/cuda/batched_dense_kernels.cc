#include "core/dense/kernels/cuda/batched_dense_kernels.h"

#include <cstdint>
#include <span>

#include "absl/strings/str_cat.h"
#include "core/kernels/cuda/status_macros.h"

namespace factord::kernels::cuda {

static_assert(kDeviceDenseLu == static_cast<int>(DenseFactorKind::kLu));
static_assert(kDeviceDenseLlt == static_cast<int>(DenseFactorKind::kLlt));
static_assert(kDeviceDenseLdlt == static_cast<int>(DenseFactorKind::kLdlt));

DeviceDenseBatchParams ToDeviceParams(const DenseBatchParams& params) {
  DeviceDenseBatchParams device;
  device.kind = static_cast<int>(params.kind);
  device.pivoting = params.pivoting;
  device.relative = params.relative;
  device.tiny = params.tiny;
  device.perturbation = params.perturbation;
  device.threshold = params.threshold;
  return device;
}

namespace {

// Every block's storage lies inside the batch's arrays.
absl::Status CheckBatch(const DenseBatch& batch) {
  const int64_t num_blocks = batch.num_blocks();
  if (batch.value_offset.size() != batch.size.size() ||
      batch.index_offset.size() != batch.size.size() ||
      batch.status.size() != batch.size.size() ||
      batch.step.size() != batch.size.size()) {
    return absl::InvalidArgumentError(
        "FactorDenseBatch: per-block arrays of different sizes");
  }
  const size_t indices = batch.row_perm.size();
  if (batch.col_perm.size() != indices || batch.pivot_size.size() != indices ||
      batch.d_diag.size() != indices || batch.d_off.size() != indices) {
    return absl::InvalidArgumentError(
        "FactorDenseBatch: per-index arrays of different sizes");
  }
  for (int64_t b = 0; b < num_blocks; ++b) {
    const int64_t m = batch.size[b];
    if (m < 1 || m > kMaxDenseBlockSize || batch.value_offset[b] < 0 ||
        batch.index_offset[b] < 0 ||
        batch.value_offset[b] + m * m >
            static_cast<int64_t>(batch.values.size()) ||
        batch.index_offset[b] + m > static_cast<int64_t>(indices)) {
      return absl::InvalidArgumentError(
          absl::StrCat("FactorDenseBatch: block ", b, " of size ", m,
                       " does not fit the batch's arrays"));
    }
  }
  return absl::OkStatus();
}

template <typename T>
std::span<const T> AsConst(std::span<T> s) {
  return std::span<const T>(s.data(), s.size());
}

}  // namespace

absl::Status FactorDenseBatch(CudaStream& stream,
                              const DenseBatchParams& params,
                              const DenseBatch& batch) {
  FACTORD_CUDA_RETURN_IF_NOT_OK(CheckBatch(batch));
  if (batch.num_blocks() == 0) return absl::OkStatus();
  // The outputs are uploaded too, so that entries no block owns come back
  // unchanged.
  FACTORD_CUDA_ASSIGN_OR_RETURN(size, UploadArray(batch.size, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(value_offset,
                                UploadArray(batch.value_offset, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(index_offset,
                                UploadArray(batch.index_offset, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(values,
                                UploadArray(AsConst(batch.values), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(row_perm,
                                UploadArray(AsConst(batch.row_perm), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(col_perm,
                                UploadArray(AsConst(batch.col_perm), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(pivot_size,
                                UploadArray(AsConst(batch.pivot_size), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(d_diag,
                                UploadArray(AsConst(batch.d_diag), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(d_off,
                                UploadArray(AsConst(batch.d_off), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(status,
                                UploadArray(AsConst(batch.status), stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(step, UploadArray(AsConst(batch.step), stream));
  DeviceDenseBatch device;
  device.num_blocks = batch.num_blocks();
  device.size = size.data();
  device.value_offset = value_offset.data();
  device.index_offset = index_offset.data();
  device.values = values.data();
  device.row_perm = row_perm.data();
  device.col_perm = col_perm.data();
  device.pivot_size = pivot_size.data();
  device.d_diag = d_diag.data();
  device.d_off = d_off.data();
  device.status = status.data();
  device.step = step.data();
  FACTORD_CUDA_RETURN_IF_ERROR(
      LaunchFactorDenseBatch(ToDeviceParams(params), device, stream.get()));
  FACTORD_CUDA_RETURN_IF_NOT_OK(values.CopyToHost(batch.values, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(row_perm.CopyToHost(batch.row_perm, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(col_perm.CopyToHost(batch.col_perm, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(
      pivot_size.CopyToHost(batch.pivot_size, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(d_diag.CopyToHost(batch.d_diag, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(d_off.CopyToHost(batch.d_off, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(status.CopyToHost(batch.status, stream));
  FACTORD_CUDA_RETURN_IF_NOT_OK(step.CopyToHost(batch.step, stream));
  return stream.Synchronize();
}

}  // namespace factord::kernels::cuda
