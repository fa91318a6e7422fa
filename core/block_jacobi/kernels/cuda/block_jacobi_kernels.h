// The CUDA block-Jacobi kernels behind host arrays: the contract of
// reference::ExtractDiagonalBlocks / InvertDiagonalBlocks /
// ApplyBlockDiagonal (core/block_jacobi/kernels/block_jacobi_kernels.h), with
// the copies to and from the device on the caller's stream, and every CUDA
// error returned as a Status. Each call synchronises the stream before
// returning, so the host spans may be read at once. The device work is the
// kernels of block_jacobi_launch.cu, which the emulated tests run against the
// reference (tests/core/block_jacobi/block_jacobi_emulated_test.cc).
#ifndef FACTORD_BLOCK_JACOBI_KERNELS_CUDA_BLOCK_JACOBI_KERNELS_H_
#define FACTORD_BLOCK_JACOBI_KERNELS_CUDA_BLOCK_JACOBI_KERNELS_H_

#include <cstdint>
#include <span>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/block_jacobi/kernels/block_jacobi_kernels.h"
#include "core/block_jacobi/kernels/cuda/block_jacobi_launch.h"
#include "core/kernels/cuda/device.h"
#include "core/matrix/csr.h"

namespace factord::kernels::cuda {

// A BlockLayout's arrays on the device, for repeated launches.
class DeviceBlockLayoutArrays {
 public:
  static absl::StatusOr<DeviceBlockLayoutArrays> Upload(
      const BlockLayout& layout, CudaStream& stream);
  DeviceBlockLayout view() const;

 private:
  int64_t num_blocks_ = 0;
  DeviceArray<int64_t> block_ptr_;
  DeviceArray<int32_t> block_rows_;
  DeviceArray<int32_t> block_of_row_;
  DeviceArray<int32_t> local_index_;
  DeviceArray<int64_t> value_ptr_;
};

// Sizes as in the reference: blocks / inverses value_ptr[B], status B, r and
// z n entries; `a` general (expanded).
absl::Status ExtractDiagonalBlocks(CudaStream& stream, const CsrMatrix& a,
                                   const BlockLayout& layout,
                                   std::span<double> blocks);
absl::Status InvertDiagonalBlocks(CudaStream& stream, const BlockLayout& layout,
                                  std::span<const double> blocks,
                                  std::span<double> inverses,
                                  std::span<uint8_t> status);
absl::Status ApplyBlockDiagonal(CudaStream& stream, const BlockLayout& layout,
                                std::span<const double> inverses,
                                std::span<const double> r, std::span<double> z);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_BLOCK_JACOBI_KERNELS_CUDA_BLOCK_JACOBI_KERNELS_H_
