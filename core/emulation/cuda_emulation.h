// A CPU emulation of the CUDA execution model, for tests only: the project's
// .cu kernel sources are compiled with the host compiler (define
// FACTORD_CUDA_EMULATION and include this header first, which
// kernels/cuda/cuda_launch.cuh does) and run on the CPU.
//
// Model (docs/design.md, "CUDA emulation"):
// - the blocks of a launch run one after another, in a seeded random order;
// - the threads of a block are fibers (ucontext) on the calling OS thread,
//   switched by a scheduler that picks the next runnable fiber at random from
//   a seeded generator, so that a missing barrier changes the result;
// - a fiber runs until it reaches a synchronisation point: __syncthreads()
//   waits for every live (not yet returned) thread of the block; a warp
//   collective (__syncwarp, shuffles, votes) waits for the lanes of its mask
//   only, so warps synchronise among themselves and may diverge;
// - atomics are plain read-modify-writes (one OS thread runs the block), each
//   followed by a yield so that other threads may interleave;
// - static __shared__ variables are function-local statics: one copy shared
//   by all threads of the block being run. Blocks run one at a time, so this
//   is the block's storage as long as each block initialises what it reads
//   (correct kernels do; a kernel that relies on stale shared data from
//   another block fails on the GPU and usually in the emulation too).
//   Dynamic shared memory (FACTORD_EXTERN_SHARED) is a per-launch arena
//   filled with 0xff bytes (a NaN for doubles) before each block.
// Strictness: a warp collective whose mask names a lane that does not exist
// or has returned, lanes that disagree on the mask or the kind of collective,
// a shuffle reading a lane outside the mask, and a deadlock (no runnable
// fiber left) abort the launch; cudaGetLastError() then returns
// cudaErrorLaunchFailure and LastLaunchError() says why.
//
// Not emulated: the memory model (fences are no-ops), performance, textures,
// cooperative groups, vendor libraries (cuBLAS, cuSPARSE), host<->device
// copies (device memory is host memory: launch kernels on host pointers).
#ifndef FACTORD_EMULATION_CUDA_EMULATION_H_
#define FACTORD_EMULATION_CUDA_EMULATION_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>

#ifndef FACTORD_CUDA_EMULATION
#define FACTORD_CUDA_EMULATION 1
#endif

// ---- Declaration specifiers ----------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
// Function-local static: one copy for the block being run (see above).
#define __shared__ static

// ---- Built-in types and variables -----------------------------------------
struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
};
inline constexpr int warpSize = 32;

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorLaunchFailure = 719,
};
struct CUstream_st;
using cudaStream_t = CUstream_st*;

namespace factord::emulation {

// The coordinates of the fiber being run.
struct ThreadCoordinates {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
};

namespace internal {
// Inline with a constant initializer, so that every kernel TU reads it
// directly: through the TLS wrapper of an extern thread_local, GCC 12
// with -fsanitize=null tests the flags the wrapper's init call left and
// reported a null load at a kernel's threadIdx under UBSan.
inline thread_local ThreadCoordinates* current_coordinates = nullptr;
void* DynamicSharedArena();
void SyncThreads();
void SyncWarp(unsigned mask);
enum class ShuffleMode { kIndex, kUp, kDown, kXor };
uint64_t Shuffle(unsigned mask, uint64_t bits, int lane_arg, int width,
                 ShuffleMode mode);
enum class VoteMode { kBallot, kAny, kAll };
unsigned Vote(unsigned mask, bool predicate, VoteMode mode);
void YieldAfterAtomic();
}  // namespace internal

// Runs one launch: `thread_body` once per thread of each block of `grid`.
// Returns cudaSuccess or cudaErrorLaunchFailure (see LastLaunchError()); the
// result is also what the next cudaGetLastError() returns.
cudaError_t RunLaunch(dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                      const std::function<void()>& thread_body);

// Seeds the scheduler (the order of blocks and of fibers). Every launch
// after this call draws from the same generator, so a test run is
// reproducible for a given seed.
void SetScheduleSeed(uint64_t seed);
// The reason of the last failed launch ("" after a successful one).
const std::string& LastLaunchError();
// Counters for tests of the emulator itself.
struct EmulationStats {
  int64_t launches = 0;
  int64_t blocks = 0;
  int64_t fiber_switches = 0;
};
const EmulationStats& Stats();

// What FACTORD_LAUNCH(kernel, grid, block, shared_bytes, stream) expands to:
// an object whose call operator runs the launch with the kernel's arguments.
template <typename... Params>
class KernelLaunch {
 public:
  KernelLaunch(void (*kernel)(Params...), dim3 grid, dim3 block,
               size_t shared_bytes)
      : kernel_(kernel),
        grid_(grid),
        block_(block),
        shared_bytes_(shared_bytes) {}
  template <typename... Args>
  void operator()(Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "kernel launched with the wrong number of arguments");
    auto* kernel = kernel_;
    RunLaunch(grid_, block_, shared_bytes_, [&] { kernel(args...); });
  }

 private:
  void (*kernel_)(Params...);
  dim3 grid_, block_;
  size_t shared_bytes_;
};

template <typename... Params>
KernelLaunch<Params...> MakeKernelLaunch(void (*kernel)(Params...), dim3 grid,
                                         dim3 block, size_t shared_bytes,
                                         cudaStream_t /*stream*/) {
  return KernelLaunch<Params...>(kernel, grid, block, shared_bytes);
}

template <typename T>
T* DynamicSharedMemory() {
  return static_cast<T*>(internal::DynamicSharedArena());
}

template <typename T>
uint64_t ToBits(T value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "shuffles move values of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <typename T>
T FromBits(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

}  // namespace factord::emulation

#define threadIdx \
  (::factord::emulation::internal::current_coordinates->thread_idx)
#define blockIdx \
  (::factord::emulation::internal::current_coordinates->block_idx)
#define blockDim \
  (::factord::emulation::internal::current_coordinates->block_dim)
#define gridDim (::factord::emulation::internal::current_coordinates->grid_dim)

#define FACTORD_EMULATED_LAUNCH(kernel, grid, block, shared_bytes, stream)  \
  ::factord::emulation::MakeKernelLaunch(kernel, grid, block, shared_bytes, \
                                         stream)
#define FACTORD_EMULATED_EXTERN_SHARED(type, name) \
  type* const name = ::factord::emulation::DynamicSharedMemory<type>()

// ---- Intrinsics (plain functions, so that a test may redefine one as a
// macro to build a deliberately broken kernel variant) -----------------------
inline void __syncthreads() { ::factord::emulation::internal::SyncThreads(); }
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  ::factord::emulation::internal::SyncWarp(mask);
}
inline void __threadfence() {}
inline void __threadfence_block() {}

template <typename T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  using ::factord::emulation::internal::Shuffle;
  using ::factord::emulation::internal::ShuffleMode;
  return ::factord::emulation::FromBits<T>(
      Shuffle(mask, ::factord::emulation::ToBits(var), src_lane, width,
              ShuffleMode::kIndex));
}
template <typename T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  using ::factord::emulation::internal::Shuffle;
  using ::factord::emulation::internal::ShuffleMode;
  return ::factord::emulation::FromBits<T>(
      Shuffle(mask, ::factord::emulation::ToBits(var), static_cast<int>(delta),
              width, ShuffleMode::kUp));
}
template <typename T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  using ::factord::emulation::internal::Shuffle;
  using ::factord::emulation::internal::ShuffleMode;
  return ::factord::emulation::FromBits<T>(
      Shuffle(mask, ::factord::emulation::ToBits(var), static_cast<int>(delta),
              width, ShuffleMode::kDown));
}
template <typename T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize) {
  using ::factord::emulation::internal::Shuffle;
  using ::factord::emulation::internal::ShuffleMode;
  return ::factord::emulation::FromBits<T>(
      Shuffle(mask, ::factord::emulation::ToBits(var), lane_mask, width,
              ShuffleMode::kXor));
}
inline unsigned __ballot_sync(unsigned mask, int predicate) {
  return ::factord::emulation::internal::Vote(
      mask, predicate != 0, ::factord::emulation::internal::VoteMode::kBallot);
}
inline int __any_sync(unsigned mask, int predicate) {
  return static_cast<int>(::factord::emulation::internal::Vote(
      mask, predicate != 0, ::factord::emulation::internal::VoteMode::kAny));
}
inline int __all_sync(unsigned mask, int predicate) {
  return static_cast<int>(::factord::emulation::internal::Vote(
      mask, predicate != 0, ::factord::emulation::internal::VoteMode::kAll));
}

// Atomics: plain operations, then a chance for other fibers to run.
template <typename T>
T atomicAdd(T* address, T value) {
  const T old = *address;
  *address = old + value;
  ::factord::emulation::internal::YieldAfterAtomic();
  return old;
}
template <typename T>
T atomicCAS(T* address, T compare, T value) {
  const T old = *address;
  if (old == compare) *address = value;
  ::factord::emulation::internal::YieldAfterAtomic();
  return old;
}
template <typename T>
T atomicMax(T* address, T value) {
  const T old = *address;
  if (value > old) *address = value;
  ::factord::emulation::internal::YieldAfterAtomic();
  return old;
}
template <typename T>
T atomicExch(T* address, T value) {
  const T old = *address;
  *address = value;
  ::factord::emulation::internal::YieldAfterAtomic();
  return old;
}

// ---- The runtime calls kernel launch code uses ------------------------------
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);

#endif  // FACTORD_EMULATION_CUDA_EMULATION_H_
