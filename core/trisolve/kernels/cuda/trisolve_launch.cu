// Jacobi and block-Jacobi triangular sweeps of S4 (eqs. 2, 4-5) as CUDA
// kernels. The per-row work is the host/device code the reference and cpu
// backends run (core/trisolve/kernels/trisolve_rows.h: TriangularRowUpdate,
// BlockRowResidual), so every row is summed in the reference's order.
//
// Scalar sweep: one thread per row (S4 §2.1 runs one sweep as an SpMV-like
// kernel). A row's length is not balanced across a warp; incomplete factors
// of the S4 matrices have short rows, so the simple mapping is kept.
// Block sweep: one warp per diagonal block, lane li = row li of the block
// (block sizes 1..32, as the Gauss-Jordan inverses of kernels/block_jacobi
// have): each lane forms its row of the residual r = b - (T - D_B) x_old,
// then x_new = D_B^{-1} r with r_lj broadcast from lane lj by __shfl_sync,
// summed over lj in ascending order as BlockJacobiUpdate does. Lanes beyond
// the block's size only take part in the shuffles.
//
// Bitwise agreement with the reference needs the same operations without
// contraction into FMAs: the nvcc build of this file uses -fmad=false (the
// sweeps are bound by memory traffic, so fused multiply-adds buy nothing
// measurable), and the host compiler of the emulation does not contract
// for the baseline x86-64 target.
#include <cstdint>
#include <span>

#include "core/dense/kernels/gauss_jordan.h"
#include "core/kernels/cuda/cuda_launch.cuh"
#include "core/trisolve/kernels/cuda/trisolve_launch.h"
#include "core/trisolve/kernels/trisolve_rows.h"

namespace factord::kernels::cuda {
namespace {

constexpr int kThreadsPerRowKernel = 128;
constexpr int kWarpsPerCudaBlock = 4;
constexpr int kThreadsPerCudaBlock = kWarpSize * kWarpsPerCudaBlock;
static_assert(kMaxGaussJordanSize == kWarpSize, "one lane per block row");

// The shared row code takes the host views; build them over device arrays.
__device__ __forceinline__ TriangularFactor
FactorView(const DeviceTriangularFactor& t) {
  const size_t n = static_cast<size_t>(t.n);
  const size_t nnz = static_cast<size_t>(t.nnz);
  return TriangularFactor{std::span<const int64_t>(t.row_ptr, n + 1),
                          std::span<const int32_t>(t.col_idx, nnz),
                          std::span<const int64_t>(t.diag, n),
                          std::span<const double>(t.values, nnz)};
}

__device__ __forceinline__ Triangle ToTriangle(int triangle) {
  return triangle == kDeviceLower ? Triangle::kLower : Triangle::kUpper;
}

__global__ void __launch_bounds__(kThreadsPerRowKernel)
    JacobiSweepKernel(DeviceTriangularFactor t, int triangle,
                      const double* __restrict__ b,
                      const double* __restrict__ x_old,
                      double* __restrict__ x_new,
                      uint8_t* __restrict__ status) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= t.n) return;
  const size_t n = static_cast<size_t>(t.n);
  // S4 eq. 2; a zero U pivot divides by zero exactly as the reference does.
  const double v = TriangularRowUpdate(FactorView(t), ToTriangle(triangle), i,
                                       std::span<const double>(b, n),
                                       std::span<const double>(x_old, n));
  x_new[i] = v;
  if (status != nullptr) {
    status[i] = IsFiniteValue(v) ? kDeviceSweepOk : kDeviceSweepNotFinite;
  }
}

__global__ void __launch_bounds__(kThreadsPerCudaBlock) BlockJacobiSweepKernel(
    DeviceTriangularFactor t, int triangle, DeviceTriangularBlocks blocks,
    const double* __restrict__ inverses, const double* __restrict__ b,
    const double* __restrict__ x_old, double* __restrict__ x_new,
    uint8_t* __restrict__ status) {
  const int64_t block =
      static_cast<int64_t>(blockIdx.x) * kWarpsPerCudaBlock + threadIdx.y;
  if (block >= blocks.num_blocks) return;  // uniform across the warp
  const int64_t first = blocks.block_ptr[block];
  const int64_t last = blocks.block_ptr[block + 1];
  const int m = static_cast<int>(last - first);
  const int li = threadIdx.x;
  const size_t n = static_cast<size_t>(t.n);
  // S4 eq. 5: this lane's row of b - (T - D_B) x_old.
  double r = 0;
  if (li < m) {
    r = BlockRowResidual(FactorView(t), ToTriangle(triangle), first, last,
                         first + li, std::span<const double>(b, n),
                         std::span<const double>(x_old, n));
  }
  // S4 eq. 4: x_new = D_B^{-1} r, row li of the inverse against r.
  const double* inverse_row =
      inverses + blocks.value_ptr[block] + int64_t{li < m ? li : 0} * m;
  double sum = 0;
  for (int lj = 0; lj < m; ++lj) {  // m is uniform across the warp
    const double r_lj = __shfl_sync(kFullWarpMask, r, lj);
    if (li < m) sum += inverse_row[lj] * r_lj;
  }
  if (li < m) x_new[first + li] = sum;
  const bool finite = li >= m || IsFiniteValue(sum);
  const bool block_finite = __all_sync(kFullWarpMask, finite);
  if (li == 0 && status != nullptr) {
    status[block] = block_finite ? kDeviceSweepOk : kDeviceSweepNotFinite;
  }
}

}  // namespace

cudaError_t LaunchJacobiSweep(const DeviceTriangularFactor& t, int triangle,
                              const double* b, const double* x_old,
                              double* x_new, uint8_t* status,
                              cudaStream_t stream) {
  if (t.n == 0) return cudaSuccess;
  const dim3 grid(static_cast<unsigned>((t.n + kThreadsPerRowKernel - 1) /
                                        kThreadsPerRowKernel));
  FACTORD_LAUNCH(JacobiSweepKernel, grid, dim3(kThreadsPerRowKernel), 0, stream)
  (t, triangle, b, x_old, x_new, status);
  return cudaGetLastError();
}

cudaError_t LaunchBlockJacobiSweep(const DeviceTriangularFactor& t,
                                   int triangle,
                                   const DeviceTriangularBlocks& blocks,
                                   const double* inverses, const double* b,
                                   const double* x_old, double* x_new,
                                   uint8_t* status, cudaStream_t stream) {
  if (blocks.num_blocks == 0) return cudaSuccess;
  const dim3 grid(static_cast<unsigned>(
      (blocks.num_blocks + kWarpsPerCudaBlock - 1) / kWarpsPerCudaBlock));
  FACTORD_LAUNCH(BlockJacobiSweepKernel, grid,
                 dim3(kWarpSize, kWarpsPerCudaBlock), 0, stream)
  (t, triangle, blocks, inverses, b, x_old, x_new, status);
  return cudaGetLastError();
}

}  // namespace factord::kernels::cuda
