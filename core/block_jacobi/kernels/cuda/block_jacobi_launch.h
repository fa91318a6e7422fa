// Launches of the block-Jacobi CUDA kernels (S3 §3) on device arrays. The
// kernels themselves are in block_jacobi_launch.cu; the same source runs on
// a GPU (nvcc) and on the CPU under the test-only emulation
// (core/emulation, in the emulated tests), where "device" pointers are host
// pointers.
//
// Every function enqueues work on `stream` and returns the launch status
// (cudaGetLastError() after the launch); it neither allocates nor
// synchronises. Arrays are owned by the caller and must stay alive until the
// stream has run the work. Block sizes are in [1, 32]; the layout arrays are
// those of core/block_jacobi/kernels/block_jacobi_kernels.h (BlockLayout).
#ifndef FACTORD_BLOCK_JACOBI_KERNELS_CUDA_BLOCK_JACOBI_LAUNCH_H_
#define FACTORD_BLOCK_JACOBI_KERNELS_CUDA_BLOCK_JACOBI_LAUNCH_H_

#include <cstdint>

#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {

// Per-block status values, equal to kBlockOk / kBlockSingular of
// core/block_jacobi/kernels/block_jacobi_kernels.h (checked where both are
// seen; that header is not included here to keep Abseil out of nvcc's way).
inline constexpr uint8_t kDeviceBlockOk = 0;
inline constexpr uint8_t kDeviceBlockSingular = 1;

// Device views of a BlockLayout (all device pointers, B = num_blocks).
struct DeviceBlockLayout {
  int64_t num_blocks = 0;
  const int64_t* block_ptr = nullptr;     // B + 1
  const int32_t* block_rows = nullptr;    // n
  const int32_t* block_of_row = nullptr;  // n
  const int32_t* local_index = nullptr;   // n
  const int64_t* value_ptr = nullptr;     // B + 1
};

// Device views of a general (expanded) CSR matrix.
struct DeviceCsr {
  const int64_t* row_ptr = nullptr;  // rows + 1
  const int32_t* col_idx = nullptr;  // nnz
  const double* values = nullptr;    // nnz
};

// blocks[value_ptr[b] + li * m_b + lj] = a(row li, row lj) of block b, 0
// where the pattern has no entry (S3 §3.2, cached extraction: one warp per
// block, one lane per row). blocks has value_ptr[B] entries.
cudaError_t LaunchExtractDiagonalBlocks(const DeviceBlockLayout& layout,
                                        const DeviceCsr& a, double* blocks,
                                        cudaStream_t stream);

// inverses = the inverse of each dense block by warp-per-block Gauss-Jordan
// with implicit pivoting (S3 §3.1); status[b] = kBlockOk, or kBlockSingular
// with DiagonalInverseFallback in place of the inverse. blocks and inverses
// have value_ptr[B] entries and must not overlap; status has B entries.
cudaError_t LaunchInvertDiagonalBlocks(const DeviceBlockLayout& layout,
                                       const double* blocks, double* inverses,
                                       uint8_t* status, cudaStream_t stream);

// z = D^{-1} r with D^{-1} the block diagonal of `inverses` (S3 eq. 2): a
// batched small GEMV. r and z have n entries and must not overlap.
cudaError_t LaunchApplyBlockDiagonal(const DeviceBlockLayout& layout,
                                     const double* inverses, const double* r,
                                     double* z, cudaStream_t stream);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_BLOCK_JACOBI_KERNELS_CUDA_BLOCK_JACOBI_LAUNCH_H_
