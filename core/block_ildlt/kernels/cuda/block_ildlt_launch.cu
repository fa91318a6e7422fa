// The numeric block incomplete LDL^T of S1 §IV-B as CUDA kernels, level by
// level (S1 §IV-A: the columns of a level are independent); see
// block_ildlt_launch.h. Every value is computed by the host/device code of
// core/block_ildlt/kernels/block_ildlt_block.h and
// core/dense/kernels/dense_ldlt.h in the serial reference's order, and the file
// is built with -fmad=false, so the factor equals the reference's bit for bit
// (the emulated tests check it).
//
// Limits: the dense LDL^T of a diagonal block runs on one lane (the pivot
// search of DensePartialLdlt is sequential; warp_ldlt.cuh has no force
// mode); a level's pull updates recompute W = L(J,K) D_K for every slot
// (I, J) instead of once per (J, K); the leftover grants of a level run on
// one thread, as S1 Alg. 2 in block order must.
#include <cstdint>
#include <cstring>

#include "core/block_ildlt/kernels/block_ildlt_block.h"
#include "core/block_ildlt/kernels/cuda/block_ildlt_launch.h"
#include "core/dense/kernels/dense_ldlt.h"
#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {
namespace {

constexpr int kMaxBlock = 32;  // block sizes 1..32 (one lane per row)
constexpr int kPullThreads = 128;
constexpr int kFinishThreads = 128;
constexpr int kRadixBins = 256;

__device__ __forceinline__ int BlockSize(const DeviceBlockIldltStructure& s,
                                         int64_t b) {
  return s.block_ptr[b + 1] - s.block_ptr[b];
}

__device__ __forceinline__ bool IsFiniteEntry(double v) {
  return fabs(v) <= 1.7976931348623157e308;  // false for Inf and NaN
}

// The bits of |v|: for v != 0 they order like |v|.
__device__ __forceinline__ uint64_t MagnitudeKey(double v) {
  const double a = fabs(v);
#if defined(__CUDA_ARCH__)
  return static_cast<uint64_t>(__double_as_longlong(a));
#else
  uint64_t bits;
  std::memcpy(&bits, &a, sizeof(bits));
  return bits;
#endif
}

// S1 Alg. 1 / Fig. 2b: A(I,J) -= sum over K of L(I,K) D_K L(J,K)^T, K
// ascending over the K with blocks (J,K) and (I,K), both kept. One thread
// block per slot t = (I, J) of the level; every thread runs the same loop
// (uniform control flow around the barriers).
__global__ void __launch_bounds__(kPullThreads)
    PullUpdatesKernel(DeviceBlockIldltStructure s, DeviceBlockIldltFactor f,
                      int64_t first_slot) {
  __shared__ double w[kMaxBlock * kMaxBlock];
  const int64_t t = s.level_slots[first_slot + blockIdx.x];
  const int32_t j = s.slot_col[t];
  const int32_t i = s.row_block[t];
  const int bj = BlockSize(s, j), bi = BlockSize(s, i);
  double* aij = f.values + s.value_ptr[t];
  const PullRows rows{s.row_ptr, s.row_slot, s.row_slot_col};
  PullCursor cursor = StartPull(rows, i, j);
  PullTerm term;
  while (NextPullTerm(rows, f.kept, i, j, &cursor, &term)) {
    const int bk = BlockSize(s, term.k);
    const int64_t kstart = s.block_ptr[term.k];
    const double* ljk = f.values + s.value_ptr[term.jk];
    for (int e = threadIdx.x; e < bj * bk; e += blockDim.x) {
      w[e] = TimesDEntry(ljk, bj, e % bj, e / bj, f.pivot_size + kstart,
                         f.d_diag + kstart, f.d_off + kstart);
    }
    __syncthreads();  // W complete before any entry reads it
    const double* lik = f.values + s.value_ptr[term.ik];
    for (int e = threadIdx.x; e < bi * bj; e += blockDim.x) {
      aij[e] = SubtractProductEntry(lik, w, bi, bj, bk, e % bi, e / bi, aij[e]);
    }
    __syncthreads();  // every entry done before W is overwritten
  }
}

// The diagonal block's dense LDL^T, L_JJ, D and the pivot arrays, the
// off-diagonal solves, the column norms and the tau rule (S1 §IV-B1,
// §IV-B3) of column J = level_blocks[first_block + blockIdx.x]; one warp.
__global__ void __launch_bounds__(kWarpSize)
    FactorAndSolveKernel(DeviceBlockIldltStructure s, DeviceBlockIldltFactor f,
                         DenseLdltParams params, double tau,
                         int64_t first_block) {
  __shared__ double front[kMaxBlock * kMaxBlock];
  __shared__ int order[kMaxBlock], size[kMaxBlock], work[kMaxBlock];
  __shared__ double dd[kMaxBlock], doff[kMaxBlock], norm2[kMaxBlock];
  __shared__ int dense_counts[2];  // perturbed, two_by_two
  __shared__ int64_t lane_dropped[kWarpSize], lane_survivors[kWarpSize];
  const int lane = threadIdx.x;
  const int32_t j = s.level_blocks[first_block + blockIdx.x];
  const int bj = BlockSize(s, j);
  const int64_t start = s.block_ptr[j];
  const int64_t diagonal = s.col_ptr[j];
  double* diag = f.values + s.value_ptr[diagonal];
  for (int e = lane; e < bj * bj; e += kWarpSize) front[e] = diag[e];
  __syncthreads();
  if (lane == 0) {
    const DenseLdltCounts dense =
        DensePartialLdlt(front, bj, bj, params, order, size, dd, doff, work);
    dense_counts[0] = dense.perturbed;
    dense_counts[1] = dense.two_by_two;
  }
  __syncthreads();
  // L_JJ in pivot order, unit diagonal, zero inside a 2x2 pair; D.
  for (int e = lane; e < bj * bj; e += kWarpSize) {
    diag[e] = UnitLowerEntry(front, bj, order, size, e % bj, e / bj);
  }
  if (lane < bj) {
    f.pivot_order[start + lane] = order[lane];
    f.pivot_size[start + lane] =
        static_cast<int8_t>(size[lane] < 0 ? 1 : size[lane]);
    f.d_diag[start + lane] = dd[lane];
    f.d_off[start + lane] = doff[lane];
    norm2[lane] = 0;
  }
  __syncthreads();  // L_JJ and D before the solves read them
  // L(I,J) = A(I,J) P_J L_JJ^{-T} D_J^{-1}: a lane per row of each block.
  const int64_t slot_end = s.col_ptr[j + 1];
  for (int64_t t = diagonal + 1; t < slot_end; ++t) {
    const int bi = BlockSize(s, s.row_block[t]);
    double* aij = f.values + s.value_ptr[t];
    for (int i = lane; i < bi; i += kWarpSize) {
      double x[kMaxBlock];
      for (int c = 0; c < bj; ++c) x[c] = aij[i + order[c] * bi];
      SolveOffDiagonalRows(x, 1, bj, 0, 1, diag, f.pivot_size + start,
                           f.d_diag + start, f.d_off + start);
      for (int c = 0; c < bj; ++c) aij[i + c * bi] = x[c];
    }
  }
  __syncthreads();  // every row solved before the norms read the columns
  if (lane < bj) {  // slots and rows ascending, as the reference sums
    for (int64_t t = diagonal + 1; t < slot_end; ++t) {
      const int bi = BlockSize(s, s.row_block[t]);
      AddColumnNorms(f.values + s.value_ptr[t], bi, lane, lane + 1, norm2);
    }
  }
  __syncthreads();  // the norms before the tau rule
  // Dual-threshold dropping, first rule: |l| <= tau ||l_c||_2 (S1 §IV-B3).
  int64_t dropped = 0, survivors = 0;
  for (int64_t t = diagonal + 1; t < slot_end; ++t) {
    const int bi = BlockSize(s, s.row_block[t]);
    double* aij = f.values + s.value_ptr[t];
    for (int e = lane; e < bi * bj; e += kWarpSize) {
      const double v = aij[e];
      if (v == 0) continue;
      if (fabs(v) <= DropLimit(tau, norm2[e / bi])) {
        aij[e] = 0;
        ++dropped;
      } else {
        ++survivors;
      }
    }
  }
  lane_dropped[lane] = dropped;
  lane_survivors[lane] = survivors;
  __syncthreads();
  if (lane == 0) {
    BlockColumnCounts counts;
    counts.perturbed = dense_counts[0];
    counts.two_by_two = dense_counts[1];
    counts.nnz_factor = int64_t{bj} * (bj + 1) / 2 + dense_counts[1];
    for (int l = 0; l < kWarpSize; ++l) {
      counts.dropped_entries += lane_dropped[l];
      counts.survivors += lane_survivors[l];
    }
    f.counts[j] = counts;
  }
}

// S1 Alg. 2 for the level's columns in ascending block order, then the
// level's unused budget joins the pool (block_ildlt_leftover.h).
__global__ void LeftoverKernel(DeviceBlockIldltStructure s,
                               DeviceBlockIldltFactor f, int64_t first_block,
                               int64_t count) {
  if (threadIdx.x != 0) return;
  for (int64_t b = first_block; b < first_block + count; ++b) {
    const int32_t j = s.level_blocks[b];
    f.keep[j] =
        LeftoverKeep(f.pool, s.a_offdiag_count[j], f.counts[j].survivors);
  }
  LeftoverEndLevel(f.pool);
}

// Finish of column J: keeps the first keep[J] survivors in the order
// SurvivorBefore (|v| descending, position ascending), zeroes the others,
// flags the off-diagonal blocks with entries left, and the column's status
// (its D and final L, L_JJ included, finite or not). The keep-th largest
// magnitude is found by a radix select over the bits of |v|, 8 bits a pass;
// the survivors of that magnitude are then kept in position order (each
// thread scans a contiguous range, offset by the ties of the threads
// before it).
__global__ void __launch_bounds__(kFinishThreads)
    FinishKernel(DeviceBlockIldltStructure s, DeviceBlockIldltFactor f,
                 int64_t first_block) {
  __shared__ unsigned long long histogram[kRadixBins];
  __shared__ unsigned long long selected_prefix;
  __shared__ int64_t selected_rank;
  __shared__ int64_t thread_a[kFinishThreads], thread_b[kFinishThreads];
  __shared__ int thread_bad[kFinishThreads];
  const int tid = threadIdx.x;
  const int nt = blockDim.x;
  const int32_t j = s.level_blocks[first_block + blockIdx.x];
  double* values = f.values;
  const int64_t first = s.value_ptr[s.col_ptr[j] + 1];
  const int64_t last = s.value_ptr[s.col_ptr[j + 1]];
  const int64_t survivors = f.counts[j].survivors;
  const int64_t keep = f.keep[j];
  int64_t dropped = 0;
  if (keep < survivors) {  // uniform
    // The key of the keep-th survivor and its rank among equal keys.
    uint64_t prefix = 0, mask = 0;
    int64_t rank = keep;  // 1-based among the keys matching prefix
    if (keep > 0) {
      for (int shift = 56; shift >= 0; shift -= 8) {
        for (int d = tid; d < kRadixBins; d += nt) histogram[d] = 0;
        __syncthreads();
        for (int64_t e = first + tid; e < last; e += nt) {
          const double v = values[e];
          if (v == 0) continue;
          const uint64_t key = MagnitudeKey(v);
          if ((key & mask) == prefix) {
            atomicAdd(&histogram[(key >> shift) & 0xff], 1ull);
          }
        }
        __syncthreads();
        if (tid == 0) {
          int64_t r = rank;
          int d = kRadixBins - 1;
          while (d > 0 && r > static_cast<int64_t>(histogram[d])) {
            r -= static_cast<int64_t>(histogram[d]);
            --d;
          }
          selected_prefix = prefix | (static_cast<uint64_t>(d) << shift);
          selected_rank = r;
        }
        __syncthreads();
        prefix = selected_prefix;
        rank = selected_rank;
        mask |= uint64_t{0xff} << shift;
      }
    }
    // Survivors with key == prefix: the first `rank` in position order stay.
    const int64_t len = last - first;
    const int64_t chunk = (len + nt - 1) / nt;
    const int64_t lo = first + tid * chunk < last ? first + tid * chunk : last;
    const int64_t hi = lo + chunk < last ? lo + chunk : last;
    int64_t ties = 0;
    for (int64_t e = lo; e < hi; ++e) {
      ties += keep > 0 && values[e] != 0 && MagnitudeKey(values[e]) == prefix;
    }
    thread_a[tid] = ties;
    __syncthreads();
    if (tid == 0) {  // exclusive prefix sum in thread order
      int64_t sum = 0;
      for (int q = 0; q < nt; ++q) {
        const int64_t c = thread_a[q];
        thread_a[q] = sum;
        sum += c;
      }
    }
    __syncthreads();
    int64_t before = thread_a[tid];
    for (int64_t e = lo; e < hi; ++e) {
      const double v = values[e];
      if (v == 0) continue;
      bool stays = false;
      if (keep > 0) {
        const uint64_t key = MagnitudeKey(v);
        if (key > prefix) {
          stays = true;
        } else if (key == prefix) {
          stays = before < rank;
          ++before;
        }
      }
      if (!stays) {
        values[e] = 0;
        ++dropped;
      }
    }
  }
  __syncthreads();  // every entry final before the blocks are scanned
  int64_t dropped_blocks = 0;
  const int64_t slot_end = s.col_ptr[j + 1];
  for (int64_t t = s.col_ptr[j] + 1 + tid; t < slot_end; t += nt) {
    bool any = false;
    for (int64_t e = s.value_ptr[t]; e < s.value_ptr[t + 1] && !any; ++e) {
      any = values[e] != 0;
    }
    f.kept[t] = any ? 1 : 0;
    dropped_blocks += !any;
  }
  int bad = 0;
  for (int64_t e = s.value_ptr[s.col_ptr[j]] + tid; e < last; e += nt) {
    bad |= !IsFiniteEntry(values[e]);
  }
  for (int64_t k = s.block_ptr[j] + tid; k < s.block_ptr[j + 1]; k += nt) {
    bad |= !IsFiniteEntry(f.d_diag[k]) || !IsFiniteEntry(f.d_off[k]);
  }
  thread_a[tid] = dropped;
  thread_b[tid] = dropped_blocks;
  thread_bad[tid] = bad;
  __syncthreads();
  if (tid == 0) {
    int64_t all_dropped = 0, all_blocks = 0;
    int any_bad = 0;
    for (int q = 0; q < nt; ++q) {
      all_dropped += thread_a[q];
      all_blocks += thread_b[q];
      any_bad |= thread_bad[q];
    }
    f.status[j] = any_bad ? kBlockColumnNotFinite : kBlockColumnOk;
    f.counts[j].dropped_entries += all_dropped;
    f.counts[j].dropped_blocks += all_blocks;
    f.counts[j].nnz_factor += keep < survivors ? keep : survivors;
  }
}

}  // namespace

cudaError_t LaunchBlockIldltLevel(const DeviceBlockIldltStructure& s,
                                  const HostBlockIldltLevels& levels, int level,
                                  const DenseLdltParams& params, double tau,
                                  const DeviceBlockIldltFactor& f,
                                  cudaStream_t stream) {
  const int64_t first_block = levels.level_ptr[level];
  const int64_t columns = levels.level_ptr[level + 1] - first_block;
  const int64_t first_slot = levels.level_slot_ptr[level];
  const int64_t slots = levels.level_slot_ptr[level + 1] - first_slot;
  if (columns == 0) return cudaSuccess;
  FACTORD_LAUNCH(PullUpdatesKernel, dim3(static_cast<unsigned>(slots)),
                 dim3(kPullThreads), 0, stream)
  (s, f, first_slot);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  FACTORD_LAUNCH(FactorAndSolveKernel, dim3(static_cast<unsigned>(columns)),
                 dim3(kWarpSize), 0, stream)
  (s, f, params, tau, first_block);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  FACTORD_LAUNCH(LeftoverKernel, dim3(1), dim3(1), 0, stream)
  (s, f, first_block, columns);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  FACTORD_LAUNCH(FinishKernel, dim3(static_cast<unsigned>(columns)),
                 dim3(kFinishThreads), 0, stream)
  (s, f, first_block);
  return cudaGetLastError();
}

}  // namespace factord::kernels::cuda
