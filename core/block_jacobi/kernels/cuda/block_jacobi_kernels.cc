#include "core/block_jacobi/kernels/cuda/block_jacobi_kernels.h"

#include <utility>

namespace factord::kernels::cuda {

static_assert(kDeviceBlockOk == kBlockOk);
static_assert(kDeviceBlockSingular == kBlockSingular);

// Assigns the value of a StatusOr or returns its error.
#define FACTORD_ASSIGN_OR_RETURN(lhs, expr)     \
  auto lhs##_or = (expr);                       \
  if (!lhs##_or.ok()) return lhs##_or.status(); \
  auto lhs = std::move(*lhs##_or)

#define FACTORD_RETURN_IF_NOT_OK(expr)                 \
  do {                                                 \
    absl::Status factord_status_ = (expr);             \
    if (!factord_status_.ok()) return factord_status_; \
  } while (0)

absl::StatusOr<DeviceBlockLayoutArrays> DeviceBlockLayoutArrays::Upload(
    const BlockLayout& layout, CudaStream& stream) {
  DeviceBlockLayoutArrays arrays;
  arrays.num_blocks_ = layout.num_blocks();
  FACTORD_ASSIGN_OR_RETURN(block_ptr, UploadArray(layout.block_ptr, stream));
  FACTORD_ASSIGN_OR_RETURN(block_rows, UploadArray(layout.block_rows, stream));
  FACTORD_ASSIGN_OR_RETURN(block_of_row,
                           UploadArray(layout.block_of_row, stream));
  FACTORD_ASSIGN_OR_RETURN(local_index,
                           UploadArray(layout.local_index, stream));
  FACTORD_ASSIGN_OR_RETURN(value_ptr, UploadArray(layout.value_ptr, stream));
  arrays.block_ptr_ = std::move(block_ptr);
  arrays.block_rows_ = std::move(block_rows);
  arrays.block_of_row_ = std::move(block_of_row);
  arrays.local_index_ = std::move(local_index);
  arrays.value_ptr_ = std::move(value_ptr);
  return arrays;
}

DeviceBlockLayout DeviceBlockLayoutArrays::view() const {
  DeviceBlockLayout view;
  view.num_blocks = num_blocks_;
  view.block_ptr = block_ptr_.data();
  view.block_rows = block_rows_.data();
  view.block_of_row = block_of_row_.data();
  view.local_index = local_index_.data();
  view.value_ptr = value_ptr_.data();
  return view;
}

absl::Status ExtractDiagonalBlocks(CudaStream& stream, const CsrMatrix& a,
                                   const BlockLayout& layout,
                                   std::span<double> blocks) {
  FACTORD_ASSIGN_OR_RETURN(device_layout,
                           DeviceBlockLayoutArrays::Upload(layout, stream));
  FACTORD_ASSIGN_OR_RETURN(
      row_ptr, UploadArray(std::span<const int64_t>(a.row_ptr), stream));
  FACTORD_ASSIGN_OR_RETURN(
      col_idx, UploadArray(std::span<const int32_t>(a.col_idx), stream));
  FACTORD_ASSIGN_OR_RETURN(
      values, UploadArray(std::span<const double>(a.values), stream));
  FACTORD_ASSIGN_OR_RETURN(
      device_blocks,
      DeviceArray<double>::Allocate(static_cast<int64_t>(blocks.size())));
  const DeviceCsr device_a{row_ptr.data(), col_idx.data(), values.data()};
  FACTORD_CUDA_RETURN_IF_ERROR(LaunchExtractDiagonalBlocks(
      device_layout.view(), device_a, device_blocks.data(), stream.get()));
  FACTORD_RETURN_IF_NOT_OK(device_blocks.CopyToHost(blocks, stream));
  return stream.Synchronize();
}

absl::Status InvertDiagonalBlocks(CudaStream& stream, const BlockLayout& layout,
                                  std::span<const double> blocks,
                                  std::span<double> inverses,
                                  std::span<uint8_t> status) {
  FACTORD_ASSIGN_OR_RETURN(device_layout,
                           DeviceBlockLayoutArrays::Upload(layout, stream));
  FACTORD_ASSIGN_OR_RETURN(device_blocks, UploadArray(blocks, stream));
  FACTORD_ASSIGN_OR_RETURN(
      device_inverses,
      DeviceArray<double>::Allocate(static_cast<int64_t>(inverses.size())));
  FACTORD_ASSIGN_OR_RETURN(
      device_status,
      DeviceArray<uint8_t>::Allocate(static_cast<int64_t>(status.size())));
  FACTORD_CUDA_RETURN_IF_ERROR(LaunchInvertDiagonalBlocks(
      device_layout.view(), device_blocks.data(), device_inverses.data(),
      device_status.data(), stream.get()));
  FACTORD_RETURN_IF_NOT_OK(device_inverses.CopyToHost(inverses, stream));
  FACTORD_RETURN_IF_NOT_OK(device_status.CopyToHost(status, stream));
  return stream.Synchronize();
}

absl::Status ApplyBlockDiagonal(CudaStream& stream, const BlockLayout& layout,
                                std::span<const double> inverses,
                                std::span<const double> r,
                                std::span<double> z) {
  FACTORD_ASSIGN_OR_RETURN(device_layout,
                           DeviceBlockLayoutArrays::Upload(layout, stream));
  FACTORD_ASSIGN_OR_RETURN(device_inverses, UploadArray(inverses, stream));
  FACTORD_ASSIGN_OR_RETURN(device_r, UploadArray(r, stream));
  FACTORD_ASSIGN_OR_RETURN(
      device_z, DeviceArray<double>::Allocate(static_cast<int64_t>(z.size())));
  FACTORD_CUDA_RETURN_IF_ERROR(
      LaunchApplyBlockDiagonal(device_layout.view(), device_inverses.data(),
                               device_r.data(), device_z.data(), stream.get()));
  FACTORD_RETURN_IF_NOT_OK(device_z.CopyToHost(z, stream));
  return stream.Synchronize();
}

}  // namespace factord::kernels::cuda
