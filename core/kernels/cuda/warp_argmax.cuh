// Warp reductions for pivot searches (S2 §IV: "a warp reduction then
// determines the pivot element", reduce_with_ix of S2 Alg. 1 line 7).
//
// Every lane brings one candidate (value, key); the winner is the largest
// value, and among equal values the smallest key. With distinct keys this is
// a total order, so the butterfly gives every lane the same winner whatever
// the order of the exchanges, and a caller that encodes "first in the host
// routine's scan order" in the key reproduces the host routine's choice on
// ties. Candidates the host routine would never pick (NaN, excluded rows)
// enter as (-inf, kNoCandidate).
#ifndef FACTORD_KERNELS_CUDA_WARP_ARGMAX_CUH_
#define FACTORD_KERNELS_CUDA_WARP_ARGMAX_CUH_

#include <cmath>

#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {

inline constexpr int kNoCandidate = 1 << 30;

// On return every lane of the (full) warp holds the winning value and key.
__device__ __forceinline__ void WarpArgMax(double& value, int& key) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    const double other_value = __shfl_xor_sync(kFullWarpMask, value, offset);
    const int other_key = __shfl_xor_sync(kFullWarpMask, key, offset);
    if (other_value > value || (other_value == value && other_key < key)) {
      value = other_value;
      key = other_key;
    }
  }
}

// The largest value over the warp, NaNs ignored (fmax), in every lane.
// fmax is exact, so the result does not depend on the exchange order.
__device__ __forceinline__ double WarpMax(double value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    value = fmax(value, __shfl_xor_sync(kFullWarpMask, value, offset));
  }
  return value;
}

// The lowest lane whose predicate holds, or -1, in every lane.
__device__ __forceinline__ int WarpFirstLane(bool predicate) {
  const unsigned votes = __ballot_sync(kFullWarpMask, predicate);
  int first = -1;
#pragma unroll
  for (int t = kWarpSize - 1; t >= 0; --t) {
    if ((votes >> t) & 1u) first = t;
  }
  return first;
}

}  // namespace factord::kernels::cuda

#endif  // FACTORD_KERNELS_CUDA_WARP_ARGMAX_CUH_
