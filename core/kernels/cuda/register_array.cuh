// Register arrays indexed by a run-time value (S3 §3.1): CUDA keeps an array
// in registers only if every index is a compile-time constant, so an entry
// chosen at run time is reached by predicated selection over an unrolled
// loop instead of entries[k].
#ifndef FACTORD_KERNELS_CUDA_REGISTER_ARRAY_CUH_
#define FACTORD_KERNELS_CUDA_REGISTER_ARRAY_CUH_

#include "core/kernels/cuda/cuda_launch.cuh"

namespace factord::kernels::cuda {

// entries[k] for 0 <= k < N (entries[0] for any other k).
template <typename T, int N>
__device__ __forceinline__ T SelectEntry(const T (&entries)[N], int k) {
  T value = entries[0];
#pragma unroll
  for (int j = 1; j < N; ++j) {
    if (j == k) value = entries[j];
  }
  return value;
}

// entries[k] = value for 0 <= k < N (nothing for any other k).
template <typename T, int N>
__device__ __forceinline__ void SetEntry(T (&entries)[N], int k, T value) {
#pragma unroll
  for (int j = 0; j < N; ++j) {
    if (j == k) entries[j] = value;
  }
}

}  // namespace factord::kernels::cuda

#endif  // FACTORD_KERNELS_CUDA_REGISTER_ARRAY_CUH_
