// Block-Jacobi CUDA kernels (S3 §3): cached extraction of the diagonal blocks
// from CSR (S3 §3.2), batched Gauss-Jordan inversion with one warp per block
// (S3 §3.1) and the block-diagonal apply.
//
// Gauss-Jordan (S3 §3.1, §2.3): lane i holds row i of the block in a register
// array indexed only by compile-time constants (all loops over the 32
// columns are unrolled), pivot rows are chosen implicitly (largest candidate
// among the rows not yet used, ties to the lowest row, exactly as the host
// routine core/dense/kernels/gauss_jordan.h) and never swapped; the pivot row
// is broadcast by warp shuffles, and the accumulated permutation is applied
// when each lane writes its row of the inverse. The operations and their
// order are those of GaussJordanInvert, so the emulated kernel reproduces
// the reference (on a GPU, contraction into FMAs may change the last bits).
// A singular block (no acceptable pivot, or a non-finite result) gets
// DiagonalInverseFallback and kDeviceBlockSingular, never NaNs.
// Limits: blocks of 1..32 rows; one warp per block, so blocks much smaller
// than 32 leave lanes idle (S3 accepts this for its target block sizes).
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "core/block_jacobi/kernels/cuda/block_jacobi_launch.h"
#include "core/dense/kernels/gauss_jordan.h"
#include "core/kernels/cuda/cuda_launch.cuh"
#include "core/kernels/cuda/register_array.cuh"

namespace factord::kernels::cuda {
namespace {

constexpr int kWarpsPerCudaBlock = 4;
constexpr int kThreadsPerCudaBlock = kWarpSize * kWarpsPerCudaBlock;
constexpr int kMaxBlock = kMaxGaussJordanSize;
static_assert(kMaxBlock == kWarpSize, "one lane per row of a block");

dim3 WarpPerBlockGrid(int64_t num_blocks) {
  return dim3(static_cast<unsigned>((num_blocks + kWarpsPerCudaBlock - 1) /
                                    kWarpsPerCudaBlock));
}

// The diagonal block handled by the calling warp.
__device__ __forceinline__ int64_t WarpBlock() {
  return static_cast<int64_t>(blockIdx.x) * kWarpsPerCudaBlock + threadIdx.y;
}

// Warp-wide argmax: every lane ends with the largest value and, among equal
// values, the lowest lane holding it (the pivot rule of GaussJordanInvert).
__device__ __forceinline__ void WarpArgMax(double& value, int& lane) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    const double other_value = __shfl_xor_sync(kFullWarpMask, value, offset);
    const int other_lane = __shfl_xor_sync(kFullWarpMask, lane, offset);
    if (other_value > value || (other_value == value && other_lane < lane)) {
      value = other_value;
      lane = other_lane;
    }
  }
}

__global__ void __launch_bounds__(kThreadsPerCudaBlock)
    ExtractDiagonalBlocksKernel(DeviceBlockLayout layout, DeviceCsr a,
                                double* __restrict__ blocks) {
  const int64_t b = WarpBlock();
  if (b >= layout.num_blocks) return;
  const int64_t first = layout.block_ptr[b];
  const int m = static_cast<int>(layout.block_ptr[b + 1] - first);
  const int li = threadIdx.x;
  if (li >= m) return;
  double* dense_row = blocks + layout.value_ptr[b] + int64_t{li} * m;
  for (int lj = 0; lj < m; ++lj) dense_row[lj] = 0.0;
  const int32_t row = layout.block_rows[first + li];
  for (int64_t k = a.row_ptr[row]; k < a.row_ptr[row + 1]; ++k) {
    const int32_t col = a.col_idx[k];
    if (layout.block_of_row[col] == b) {
      dense_row[layout.local_index[col]] = a.values[k];
    }
  }
}

__global__ void __launch_bounds__(kThreadsPerCudaBlock)
    InvertDiagonalBlocksKernel(DeviceBlockLayout layout,
                               const double* __restrict__ blocks,
                               double* __restrict__ inverses,
                               uint8_t* __restrict__ status) {
  const int64_t b = WarpBlock();
  if (b >= layout.num_blocks) return;  // uniform across the warp
  const int m = static_cast<int>(layout.block_ptr[b + 1] - layout.block_ptr[b]);
  const double* block = blocks + layout.value_ptr[b];
  double* inverse = inverses + layout.value_ptr[b];
  const int lane = threadIdx.x;

  // Lane `lane` owns physical row `lane`; lanes >= m hold zeros and only
  // take part in the shuffles.
  double row[kMaxBlock];
  double row_max = 0.0;
  bool finite = true;
#pragma unroll
  for (int j = 0; j < kMaxBlock; ++j) {
    row[j] = (lane < m && j < m) ? block[lane * m + j] : 0.0;
    finite = finite && IsFiniteValue(row[j]);
    if (fabs(row[j]) > row_max) row_max = fabs(row[j]);
  }
  int singular_step = __any_sync(kFullWarpMask, !finite) ? 0 : -1;

  int pivot_lane[kMaxBlock] = {};  // pivot_lane[k]: physical row of step k
  int my_step = -1;                // the step at which this row was the pivot
  // The step loop is not unrolled (unrolling 32 x 32 shuffles makes ptxas
  // take minutes); column k of the register array is reached by predicated
  // selection (SelectEntry / SetEntry), which keeps every index static.
#pragma unroll 1
  for (int k = 0; k < m && singular_step < 0; ++k) {  // uniform across warp
    const double row_k = SelectEntry(row, k);
    // Implicit pivoting (S3 §2.3): candidates are the unused rows; a NaN
    // candidate never wins, as in the host routine.
    double best =
        (lane < m && my_step < 0 && row_k == row_k) ? fabs(row_k) : -1.0;
    int p = lane;
    WarpArgMax(best, p);
    const double d = __shfl_sync(kFullWarpMask, row_k, p);
    const double pivot_row_max = __shfl_sync(kFullWarpMask, row_max, p);
    if (best < 0 || !IsFiniteValue(d) || best == 0 ||
        best <= m * DBL_EPSILON * pivot_row_max) {
      singular_step = k;
      break;
    }
    SetEntry(pivot_lane, k, p);
    if (lane == p) my_step = k;
    // Jordan transformation (S3 Fig. 1): SCAL of the pivot column ...
    const double f = (lane != p) ? -row_k / d : row_k;
    SetEntry(row, k, f);
    // ... GER with the pivot row, broadcast one entry at a time ...
#pragma unroll
    for (int j = 0; j < kMaxBlock; ++j) {
      if (j < m && j != k) {  // uniform across the warp
        const double pivot_entry = __shfl_sync(kFullWarpMask, row[j], p);
        if (lane != p && f != 0) row[j] += f * pivot_entry;
      }
    }
    // ... and SCAL of the pivot row.
    if (lane == p) {
#pragma unroll
      for (int j = 0; j < kMaxBlock; ++j) {
        row[j] = (j == k) ? 1.0 / d : row[j] / d;
      }
    }
  }

  if (singular_step < 0) {  // overflow during the elimination: singular
    bool row_finite = true;
#pragma unroll
    for (int j = 0; j < kMaxBlock; ++j) {
      row_finite = row_finite && (j >= m || IsFiniteValue(row[j]));
    }
    if (__any_sync(kFullWarpMask, lane < m && !row_finite)) {
      singular_step = m - 1;
    }
  }
  if (singular_step >= 0) {
    if (lane == 0) {
      DiagonalInverseFallback(m, block, inverse);
      status[b] = kDeviceBlockSingular;
    }
    return;
  }
  // Undo the implicit permutation while storing (S3 §3.1): physical row
  // `lane` is logical row my_step; its column j lands in column
  // pivot_lane[j].
  if (lane < m) {
    double* out = inverse + my_step * m;
#pragma unroll
    for (int j = 0; j < kMaxBlock; ++j) {
      if (j < m) out[pivot_lane[j]] = row[j];
    }
  }
  if (lane == 0) status[b] = kDeviceBlockOk;
}

// One warp per diagonal block, one lane per row. The CUDA block first
// gathers r for all its diagonal blocks into shared memory (coalesced reads
// of block_rows by all its threads); a lane then needs entries gathered by
// other warps' threads, hence the barrier.
__global__ void __launch_bounds__(kThreadsPerCudaBlock)
    ApplyBlockDiagonalKernel(DeviceBlockLayout layout,
                             const double* __restrict__ inverses,
                             const double* __restrict__ r,
                             double* __restrict__ z) {
  __shared__ double r_local[kWarpsPerCudaBlock * kWarpSize];
  const int64_t first_block =
      static_cast<int64_t>(blockIdx.x) * kWarpsPerCudaBlock;
  const int64_t end_block = first_block + kWarpsPerCudaBlock < layout.num_blocks
                                ? first_block + kWarpsPerCudaBlock
                                : layout.num_blocks;
  const int64_t base = layout.block_ptr[first_block];
  const int64_t count = layout.block_ptr[end_block] - base;
  const int threads = blockDim.x * blockDim.y;
  for (int64_t pos = threadIdx.y * blockDim.x + threadIdx.x; pos < count;
       pos += threads) {
    r_local[pos] = r[layout.block_rows[base + pos]];
  }
  __syncthreads();
  const int64_t b = first_block + threadIdx.y;
  if (b >= layout.num_blocks) return;
  const int64_t first = layout.block_ptr[b];
  const int m = static_cast<int>(layout.block_ptr[b + 1] - first);
  const int li = threadIdx.x;
  if (li >= m) return;
  const double* inverse_row = inverses + layout.value_ptr[b] + int64_t{li} * m;
  const double* x = r_local + (first - base);
  double sum = 0.0;  // the reference's summation order
  for (int lj = 0; lj < m; ++lj) sum += inverse_row[lj] * x[lj];
  z[layout.block_rows[first + li]] = sum;
}

}  // namespace

cudaError_t LaunchExtractDiagonalBlocks(const DeviceBlockLayout& layout,
                                        const DeviceCsr& a, double* blocks,
                                        cudaStream_t stream) {
  if (layout.num_blocks == 0) return cudaSuccess;
  FACTORD_LAUNCH(ExtractDiagonalBlocksKernel,
                 WarpPerBlockGrid(layout.num_blocks),
                 dim3(kWarpSize, kWarpsPerCudaBlock), 0, stream)
  (layout, a, blocks);
  return cudaGetLastError();
}

cudaError_t LaunchInvertDiagonalBlocks(const DeviceBlockLayout& layout,
                                       const double* blocks, double* inverses,
                                       uint8_t* status, cudaStream_t stream) {
  if (layout.num_blocks == 0) return cudaSuccess;
  FACTORD_LAUNCH(InvertDiagonalBlocksKernel,
                 WarpPerBlockGrid(layout.num_blocks),
                 dim3(kWarpSize, kWarpsPerCudaBlock), 0, stream)
  (layout, blocks, inverses, status);
  return cudaGetLastError();
}

cudaError_t LaunchApplyBlockDiagonal(const DeviceBlockLayout& layout,
                                     const double* inverses, const double* r,
                                     double* z, cudaStream_t stream) {
  if (layout.num_blocks == 0) return cudaSuccess;
  FACTORD_LAUNCH(ApplyBlockDiagonalKernel, WarpPerBlockGrid(layout.num_blocks),
                 dim3(kWarpSize, kWarpsPerCudaBlock), 0, stream)
  (layout, inverses, r, z);
  return cudaGetLastError();
}

}  // namespace factord::kernels::cuda
