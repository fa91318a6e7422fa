// Tests of the CPU emulation of the CUDA execution model itself: indices,
// barriers, shared memory, warp shuffles and votes, atomics, the seeded
// scheduler, and the errors it reports. The kernels are written here in
// ordinary CUDA and launched through FACTORD_LAUNCH as the project's are.
#include "core/emulation/cuda_emulation.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

#include "core/kernels/cuda/cuda_launch.cuh"
#include "gtest/gtest.h"

namespace factord::emulation_testing {
namespace {

constexpr unsigned kFull = 0xffffffffu;

__global__ void RecordCoordinates(int* out) {
  const int block =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const int thread =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const int threads = blockDim.x * blockDim.y * blockDim.z;
  out[block * threads + thread] = block * 1000 + thread;
}

TEST(EmulatedRuntime, EveryThreadOfEveryBlockRunsOnceWithItsCoordinates) {
  const dim3 grid(3, 2, 2), block(5, 3, 2);
  std::vector<int> out(12 * 30, -1);
  FACTORD_LAUNCH(RecordCoordinates, grid, block, 0, nullptr)(out.data());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  for (int b = 0; b < 12; ++b) {
    for (int t = 0; t < 30; ++t) EXPECT_EQ(out[b * 30 + t], b * 1000 + t);
  }
}

// Every thread reads its neighbour's value from shared memory: correct only
// with the barrier between the writes and the reads.
template <bool kWithBarrier>
__global__ void RotateThroughShared(const int* in, int* out) {
  __shared__ int tile[64];
  const int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 64 + t];
  if (kWithBarrier) __syncthreads();
  out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
}

TEST(EmulatedRuntime, SyncThreadsOrdersSharedMemoryForEverySeed) {
  std::vector<int> in(8 * 64), out(in.size());
  std::iota(in.begin(), in.end(), 0);
  for (uint64_t seed = 0; seed < 5; ++seed) {
    emulation::SetScheduleSeed(seed);
    FACTORD_LAUNCH(RotateThroughShared<true>, 8, 64, 0, nullptr)
    (in.data(), out.data());
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    for (int i = 0; i < 8 * 64; ++i) {
      EXPECT_EQ(out[i], (i / 64) * 64 + (i % 64 + 1) % 64);
    }
  }
}

TEST(EmulatedRuntime, MissingBarrierChangesTheResult) {
  std::vector<int> in(8 * 64), out(in.size());
  std::iota(in.begin(), in.end(), 0);
  int wrong = 0;
  for (uint64_t seed = 0; seed < 3; ++seed) {
    emulation::SetScheduleSeed(seed);
    FACTORD_LAUNCH(RotateThroughShared<false>, 8, 64, 0, nullptr)
    (in.data(), out.data());
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    for (int i = 0; i < 8 * 64; ++i) {
      wrong += out[i] != (i / 64) * 64 + (i % 64 + 1) % 64;
    }
  }
  EXPECT_GT(wrong, 100);  // about half the reads come before the write
}

__global__ void WarpShuffles(const double* in, double* out, int width) {
  const int lane = threadIdx.x % 32;
  const int t = threadIdx.x;
  const double v = in[t];
  out[0 * 64 + t] = __shfl_sync(kFull, v, 3, width);  // broadcast
  out[1 * 64 + t] = __shfl_down_sync(kFull, v, 2, width);
  out[2 * 64 + t] = __shfl_up_sync(kFull, v, 1, width);
  out[3 * 64 + t] = __shfl_xor_sync(kFull, v, 5, width);
  double sum = v;  // butterfly reduction over the segment
  for (int offset = width / 2; offset > 0; offset /= 2) {
    sum += __shfl_xor_sync(kFull, sum, offset, width);
  }
  out[4 * 64 + t] = sum;
  (void)lane;
}

TEST(EmulatedRuntime, ShufflesFollowCudaSemantics) {
  std::vector<double> in(64);
  for (int t = 0; t < 64; ++t) in[t] = t * t + 0.5;
  for (int width : {32, 8}) {
    std::vector<double> out(5 * 64, -1);
    emulation::SetScheduleSeed(width);
    FACTORD_LAUNCH(WarpShuffles, 1, 64, 0, nullptr)
    (in.data(), out.data(), width);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess) << emulation::LastLaunchError();
    for (int t = 0; t < 64; ++t) {
      const int segment = t - t % width;
      const int in_segment = t % width;
      EXPECT_EQ(out[t], in[segment + 3 % width]) << t;
      EXPECT_EQ(out[64 + t], in_segment + 2 < width ? in[t + 2] : in[t]) << t;
      EXPECT_EQ(out[128 + t], in_segment >= 1 ? in[t - 1] : in[t]) << t;
      const int x = t ^ 5;
      EXPECT_EQ(out[192 + t], x < segment + width ? in[x] : in[t]) << t;
      double sum = 0;
      for (int s = segment; s < segment + width; ++s) sum += in[s];
      EXPECT_DOUBLE_EQ(out[256 + t], sum) << t;
    }
  }
}

// A partial last warp: lanes 0..7 of warp 1 exist; votes and shuffles with
// the mask of the existing lanes.
__global__ void WarpVotes(unsigned* out) {
  const int t = threadIdx.x;
  const unsigned mask = t < 32 ? kFull : 0xffu;
  const int odd = t % 2;
  out[t * 4 + 0] = __ballot_sync(mask, odd);
  out[t * 4 + 1] = __any_sync(mask, t == 33);
  out[t * 4 + 2] = __all_sync(mask, t < 38);
  out[t * 4 + 3] = __shfl_sync(mask, t * 10u, 7);
  __syncwarp(mask);
}

TEST(EmulatedRuntime, VotesAndPartialWarps) {
  std::vector<unsigned> out(40 * 4);
  FACTORD_LAUNCH(WarpVotes, 1, 40, 0, nullptr)(out.data());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess) << emulation::LastLaunchError();
  for (int t = 0; t < 40; ++t) {
    const bool first = t < 32;
    EXPECT_EQ(out[t * 4 + 0], first ? 0xaaaaaaaau : 0xaau);
    EXPECT_EQ(out[t * 4 + 1], first ? 0u : 1u);
    EXPECT_EQ(out[t * 4 + 2], first ? 1u : 0u);
    EXPECT_EQ(out[t * 4 + 3], first ? 70u : 390u);
  }
}

__global__ void CountWithAtomics(int* counter, int* maximum, int* order) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int ticket = atomicAdd(counter, 1);
  order[ticket] = t;
  atomicMax(maximum, t);
  int seen = *maximum;  // a CAS loop that keeps the largest value
  while (true) {
    const int old = atomicCAS(maximum, seen, seen > t ? seen : t);
    if (old == seen) break;
    seen = old;
  }
}

TEST(EmulatedRuntime, AtomicsAndSeededOrder) {
  auto run = [](uint64_t seed) {
    int counter = 0, maximum = -1;
    std::vector<int> order(4 * 96, -1);
    emulation::SetScheduleSeed(seed);
    FACTORD_LAUNCH(CountWithAtomics, 4, 96, 0, nullptr)
    (&counter, &maximum, order.data());
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(counter, 4 * 96);
    EXPECT_EQ(maximum, 4 * 96 - 1);
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 4 * 96; ++i) EXPECT_EQ(sorted[i], i);
    return order;
  };
  const std::vector<int> a = run(77), b = run(77), c = run(78);
  EXPECT_EQ(a, b);  // the same seed gives the same interleaving
  EXPECT_NE(a, c);  // another seed gives another one
  std::vector<int> in_order(a.size());
  std::iota(in_order.begin(), in_order.end(), 0);
  EXPECT_NE(a, in_order);  // threads are not run in index order
}

__global__ void ReverseInDynamicShared(const double* in, double* out, int n) {
  FACTORD_EXTERN_SHARED(double, staged);
  const int t = threadIdx.x;
  staged[t] = in[blockIdx.x * n + t];
  __syncthreads();
  out[blockIdx.x * n + t] = staged[n - 1 - t];
}

TEST(EmulatedRuntime, DynamicSharedMemoryBelongsToTheBlock) {
  const int n = 48;
  std::vector<double> in(3 * n), out(3 * n);
  std::iota(in.begin(), in.end(), 1.0);
  FACTORD_LAUNCH(ReverseInDynamicShared, 3, n, n * sizeof(double), nullptr)
  (in.data(), out.data(), n);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  for (int b = 0; b < 3; ++b) {
    for (int t = 0; t < n; ++t)
      EXPECT_EQ(out[b * n + t], in[b * n + n - 1 - t]);
  }
}

// Lane 31 waits at the block barrier while lanes 0..30 wait for it in a
// shuffle: a deadlock on a GPU, an error here.
__global__ void DeadlockedWarp(int* out) {
  if (threadIdx.x == 31) {
    __syncthreads();
  } else {
    out[threadIdx.x] = __shfl_sync(kFull, 1, 0);
  }
}

__global__ void ShuffleOverMissingLanes(int* out) {
  out[threadIdx.x] = __shfl_sync(kFull, 1, 0);  // 40 threads: lanes 8..31
}  // of warp 1 do not exist

__global__ void LaneReturnsEarly(int* out) {
  if (threadIdx.x == 5) return;
  out[threadIdx.x] = __shfl_sync(kFull, 1, 0);
}

TEST(EmulatedRuntime, ReportsDeadlocksAndInvalidMasks) {
  std::vector<int> out(64);
  FACTORD_LAUNCH(DeadlockedWarp, 2, 32, 0, nullptr)(out.data());
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_NE(emulation::LastLaunchError().find("deadlock"), std::string::npos)
      << emulation::LastLaunchError();
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // the error was consumed

  FACTORD_LAUNCH(ShuffleOverMissingLanes, 1, 40, 0, nullptr)(out.data());
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_NE(emulation::LastLaunchError().find("do not exist"),
            std::string::npos)
      << emulation::LastLaunchError();

  for (uint64_t seed = 0; seed < 3; ++seed) {
    emulation::SetScheduleSeed(seed);
    FACTORD_LAUNCH(LaneReturnsEarly, 1, 32, 0, nullptr)(out.data());
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    EXPECT_NE(emulation::LastLaunchError().find("returned"), std::string::npos)
        << emulation::LastLaunchError();
  }

  // The emulator recovers: a correct launch after the failures succeeds.
  std::vector<int> coords(30);
  FACTORD_LAUNCH(RecordCoordinates, 1, 30, 0, nullptr)(coords.data());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(coords[29], 29);
}

TEST(EmulatedRuntime, RejectsInvalidConfigurations) {
  std::vector<int> out(1);
  FACTORD_LAUNCH(RecordCoordinates, 1, 2048, 0, nullptr)(out.data());
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  FACTORD_LAUNCH(RecordCoordinates, 0, 32, 0, nullptr)(out.data());
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
}

}  // namespace
}  // namespace factord::emulation_testing
