// The one place where a kernel source learns how it is built. Kernel sources
// are ordinary CUDA except for two spellings:
//
//   FACTORD_LAUNCH(kernel, grid, block, shared_bytes, stream)(args...);
//       kernel<<<grid, block, shared_bytes, stream>>>(args...) under nvcc;
//       the CPU emulation's launcher when FACTORD_CUDA_EMULATION is defined
//       (core/emulation/cuda_emulation.h, a library of its own that the
//       emulated-kernel tests link).
//   FACTORD_EXTERN_SHARED(type, name);
//       extern __shared__ type name[] (dynamic shared memory) under nvcc;
//       a pointer to the emulated block's arena under the emulation.
//
// Host code compiled by the host compiler against the CUDA runtime (device
// management, copies) includes this header too and gets <cuda_runtime.h>.
// A kernel template with several template arguments must be launched through
// an alias or a function pointer (the macro splits its arguments at commas).
#ifndef FACTORD_KERNELS_CUDA_CUDA_LAUNCH_CUH_
#define FACTORD_KERNELS_CUDA_CUDA_LAUNCH_CUH_

#if defined(FACTORD_CUDA_EMULATION)
#include "core/emulation/cuda_emulation.h"
#define FACTORD_LAUNCH(kernel, grid, block, shared_bytes, stream) \
  FACTORD_EMULATED_LAUNCH(kernel, grid, block, shared_bytes, stream)
#define FACTORD_EXTERN_SHARED(type, name) \
  FACTORD_EMULATED_EXTERN_SHARED(type, name)
#else
#include <cuda_runtime.h>
#if defined(__CUDACC__)
#define FACTORD_LAUNCH(kernel, grid, block, shared_bytes, stream) \
  kernel<<<grid, block, shared_bytes, stream>>>
#define FACTORD_EXTERN_SHARED(type, name) extern __shared__ type name[]
#endif
#endif

namespace factord::kernels::cuda {
inline constexpr int kWarpSize = 32;
inline constexpr unsigned kFullWarpMask = 0xffffffffu;
}  // namespace factord::kernels::cuda

#endif  // FACTORD_KERNELS_CUDA_CUDA_LAUNCH_CUH_
