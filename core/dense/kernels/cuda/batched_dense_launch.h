// Launch of the batched dense block factorizations (S2 §IV: LU, LL^T and
// LDL^T of k x k blocks, k <= 32, with static, partial and full pivoting,
// and rook for LDL^T) on device arrays: one warp per block (S2 Alg. 1 and
// its symmetric variants). The kernel source is batched_dense_launch.cu; it
// runs on a GPU and, in the tests, under the CPU emulation
// (core/emulation, in the emulated tests), where device pointers are host
// pointers.
//
// For every block it produces exactly what FactorDenseBlock
// (core/dense/kernels/dense_block_factor.h) produces, in the layout documented
// by core/dense/kernels/batched_dense_kernels.h; per-block failures (zero
// pivot, singular or non-SPD block, NaN/Inf) go to the status array, never NaNs
// in place of a status. Enqueues on `stream` and returns the launch status;
// no allocation, no synchronisation.
#ifndef FACTORD_DENSE_KERNELS_CUDA_BATCHED_DENSE_LAUNCH_H_
#define FACTORD_DENSE_KERNELS_CUDA_BATCHED_DENSE_LAUNCH_H_

#include <cstdint>

#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {

// DenseFactorKind of batched_dense_kernels.h (not included here, to keep
// Abseil out of nvcc's way; the host wrapper checks that they agree).
inline constexpr int kDeviceDenseLu = 0;
inline constexpr int kDeviceDenseLlt = 1;
inline constexpr int kDeviceDenseLdlt = 2;

// DenseBatchParams, field for field.
struct DeviceDenseBatchParams {
  int kind = kDeviceDenseLu;
  int pivoting = 1;  // DenseBlockPivoting
  bool relative = true;
  double tiny = 1e-13;
  double perturbation = 1.5e-8;
  double threshold = 0.01;
};

// A DenseBatch's arrays on the device (B = num_blocks; "per index" arrays
// have index_offset[B-1] + size[B-1] entries). The caller owns them.
struct DeviceDenseBatch {
  int64_t num_blocks = 0;
  const int32_t* size = nullptr;          // B, each in [1, 32]
  const int64_t* value_offset = nullptr;  // B
  const int64_t* index_offset = nullptr;  // B
  double* values = nullptr;               // in/out: the blocks
  int32_t* row_perm = nullptr;            // per index (out)
  int32_t* col_perm = nullptr;            // per index (out)
  int8_t* pivot_size = nullptr;           // per index (out)
  double* d_diag = nullptr;               // per index (out)
  double* d_off = nullptr;                // per index (out)
  int8_t* status = nullptr;               // B (out): DenseBlockStatus
  int32_t* step = nullptr;                // B (out)
};

cudaError_t LaunchFactorDenseBatch(const DeviceDenseBatchParams& params,
                                   const DeviceDenseBatch& batch,
                                   cudaStream_t stream);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_DENSE_KERNELS_CUDA_BATCHED_DENSE_LAUNCH_H_
