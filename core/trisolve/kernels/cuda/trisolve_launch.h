// Launches of the Jacobi and block-Jacobi triangular sweeps (S4 eqs. 2, 4-5)
// on device arrays. The kernels are in trisolve_launch.cu; the same source
// runs on a GPU (nvcc) and on the CPU under the test-only emulation
// (core/emulation, in the emulated tests), where device pointers are host
// pointers.
//
// Each sweep computes what reference::JacobiSweep / BlockJacobiSweep
// (core/trisolve/kernels/trisolve_kernels.h) compute, row by row with the same
// shared code (core/trisolve/kernels/trisolve_rows.h). Where the reference
// produces Inf or NaN (a zero U pivot in the scalar sweep, an overflowing
// iterate) the kernel produces the same bits and, when `status` is given,
// also marks the row (scalar sweep) or block (block sweep) with
// kDeviceSweepNotFinite, so a caller need not scan x_new. Every function
// enqueues on `stream` and returns the launch status; no allocation, no
// synchronisation; the caller owns the arrays.
#ifndef FACTORD_TRISOLVE_KERNELS_CUDA_TRISOLVE_LAUNCH_H_
#define FACTORD_TRISOLVE_KERNELS_CUDA_TRISOLVE_LAUNCH_H_

#include <cstdint>

#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {

// Triangle of core/trisolve/kernels/trisolve_kernels.h (not included here, to
// keep Abseil out of the host wrapper's launch header; the wrapper checks
// that they agree).
inline constexpr int kDeviceLower = 0;
inline constexpr int kDeviceUpper = 1;

// Per-row / per-block sweep status.
inline constexpr uint8_t kDeviceSweepOk = 0;
inline constexpr uint8_t kDeviceSweepNotFinite = 1;

// A combined L\U factor (TriangularFactor) on the device.
struct DeviceTriangularFactor {
  int64_t n = 0;
  int64_t nnz = 0;                   // row_ptr[n]
  const int64_t* row_ptr = nullptr;  // n + 1
  const int32_t* col_idx = nullptr;  // nnz
  const int64_t* diag = nullptr;     // n
  const double* values = nullptr;    // nnz
};

// The diagonal blocks of the triangle (TriangularBlocks: consecutive rows).
struct DeviceTriangularBlocks {
  int64_t num_blocks = 0;
  const int64_t* block_ptr = nullptr;  // B + 1, block sizes in [1, 32]
  const int64_t* value_ptr = nullptr;  // B + 1
};

// One Jacobi sweep (S4 eq. 2): x_new = D^{-1} (b - (T - D) x_old), one
// thread per row. b, x_old, x_new have n entries; x_new overlaps neither.
// status: n entries or nullptr.
cudaError_t LaunchJacobiSweep(const DeviceTriangularFactor& t, int triangle,
                              const double* b, const double* x_old,
                              double* x_new, uint8_t* status,
                              cudaStream_t stream);

// One block-Jacobi sweep (S4 eqs. 4-5): x_new = D_B^{-1} (b - (T - D_B)
// x_old), one warp per diagonal block, lane = row of the block; `inverses`
// holds value_ptr[B] entries (row-major m_b x m_b per block). Vectors as in
// LaunchJacobiSweep; status: B entries or nullptr.
cudaError_t LaunchBlockJacobiSweep(const DeviceTriangularFactor& t,
                                   int triangle,
                                   const DeviceTriangularBlocks& blocks,
                                   const double* inverses, const double* b,
                                   const double* x_old, double* x_new,
                                   uint8_t* status, cudaStream_t stream);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_TRISOLVE_KERNELS_CUDA_TRISOLVE_LAUNCH_H_
