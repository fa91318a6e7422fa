// The fiber scheduler behind cuda_emulation.h: one ucontext fiber per CUDA
// thread of the block being run, a seeded random choice of the next runnable
// fiber, a block barrier and one warp-collective rendezvous per warp.
#include "core/emulation/cuda_emulation.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

// Sanitizers keep per-thread state (ASan the stack bounds and fake stack,
// TSan the shadow call stack and vector clock) and must be told about every
// ucontext switch, else they report errors that are not there.
#if defined(__SANITIZE_ADDRESS__)
#define FACTORD_EMULATION_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FACTORD_EMULATION_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define FACTORD_EMULATION_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FACTORD_EMULATION_TSAN 1
#endif
#endif
#ifdef FACTORD_EMULATION_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef FACTORD_EMULATION_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace factord::emulation {
namespace {

constexpr int kWarpSize = 32;
constexpr int kMaxThreadsPerBlock = 1024;
constexpr size_t kFiberStackBytes = 256 * 1024;
constexpr uint64_t kDefaultSeed = 0x5eed;

enum class FiberState { kRunnable, kAtBarrier, kAtWarpCollective, kDone };
enum class CollectiveKind { kSyncWarp, kShuffle, kBallot, kAny, kAll };

const char* KindName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kSyncWarp:
      return "__syncwarp";
    case CollectiveKind::kShuffle:
      return "__shfl*_sync";
    case CollectiveKind::kBallot:
      return "__ballot_sync";
    case CollectiveKind::kAny:
      return "__any_sync";
    case CollectiveKind::kAll:
      return "__all_sync";
  }
  return "?";
}

std::string Hex(unsigned value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08x", value);
  return text;
}

// A fiber's stack with a guard page below it, so that an overflow faults
// instead of corrupting a neighbour.
class FiberStack {
 public:
  FiberStack() {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    void* memory =
        mmap(nullptr, kFiberStackBytes + page_, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) {
      std::perror("cuda emulation: mmap of a fiber stack");
      std::abort();
    }
    mprotect(memory, page_, PROT_NONE);
    base_ = static_cast<char*>(memory);
  }
  ~FiberStack() { munmap(base_, kFiberStackBytes + page_); }
  FiberStack(const FiberStack&) = delete;
  FiberStack& operator=(const FiberStack&) = delete;
  char* usable() const { return base_ + page_; }

 private:
  char* base_ = nullptr;
  size_t page_ = 0;
};

// The sanitizers' view of one fiber (empty without sanitizers).
struct SanitizerFiber {
  void* asan_fake_stack = nullptr;
  void* tsan_fiber = nullptr;
#ifdef FACTORD_EMULATION_TSAN
  ~SanitizerFiber() {
    if (tsan_fiber != nullptr) __tsan_destroy_fiber(tsan_fiber);
  }
#endif
};

struct Fiber {
  ucontext_t context;
  FiberStack stack;
  SanitizerFiber sanitizer;
  ThreadCoordinates coordinates;
  int index = 0;
  int warp = 0;
  int lane = 0;
  FiberState state = FiberState::kDone;
  uint64_t collective_result = 0;
};

// Thrown by Emulator::Fail inside a fiber, caught in FiberEntry: the failing
// thread's frames are unwound on its own stack.
struct FiberAbandoned {};

struct WarpState {
  unsigned existing = 0;  // lanes that exist (a last warp may be partial)
  unsigned exited = 0;    // lanes whose thread has returned
  bool active = false;    // a collective is gathering its lanes
  CollectiveKind kind = CollectiveKind::kSyncWarp;
  unsigned mask = 0;
  unsigned arrived = 0;
  uint64_t input[kWarpSize] = {};
  int source[kWarpSize] = {};
  bool predicate[kWarpSize] = {};
};

class Emulator {
 public:
  cudaError_t Run(dim3 grid, dim3 block, size_t shared_bytes,
                  const std::function<void()>& body);

  // Called from inside a fiber.
  void SyncThreads();
  uint64_t Collective(CollectiveKind kind, unsigned mask, uint64_t input,
                      int source, bool predicate);
  int CurrentLane() const { return current_->lane; }
  void YieldRunnable();
  void* DynamicShared() { return dynamic_shared_.data(); }

  std::mt19937_64 rng{kDefaultSeed};
  cudaError_t last_error = cudaSuccess;
  std::string error;
  EmulationStats stats;

 private:
  static void FiberEntry();
  void RunBlock(uint3 block_idx, dim3 grid, dim3 block);
  void SwitchToScheduler() {
    Fiber* self = current_;
    BeforeLeaveFiber(self);
    swapcontext(&self->context, &scheduler_);
    AfterResumeFiber(self);
  }
  // Sanitizer annotations around the switches (no-ops without sanitizers).
  void PrepareFiberStack(Fiber* fiber);
  void BeforeEnterFiber(Fiber* fiber);
  void AfterReturnToScheduler();
  void BeforeLeaveFiber(Fiber* self);
  void AfterResumeFiber(Fiber* self);
  void OnFiberStart();
  void MakeRunnable(Fiber* fiber) {
    fiber->state = FiberState::kRunnable;
    runnable_.push_back(fiber->index);
  }
  // Records the first failure; inside a fiber it never returns (it throws
  // FiberAbandoned, the fiber's frames unwind and the launch stops).
  void Fail(const std::string& why);
  void ReleaseBarrier();
  void OnThreadExit();
  std::string DescribeBlock() const;

  std::vector<std::unique_ptr<Fiber>> fibers_;
  std::vector<WarpState> warps_;
  std::vector<int> runnable_;
  std::vector<uint64_t> dynamic_shared_;
  ucontext_t scheduler_;
  Fiber* current_ = nullptr;
  const std::function<void()>* body_ = nullptr;
  int num_threads_ = 0;
  int live_ = 0;
  int barrier_arrived_ = 0;
  bool failed_ = false;
  // The scheduler's (OS thread's) stack as ASan knows it, and its fibers.
  const void* scheduler_stack_bottom_ = nullptr;
  size_t scheduler_stack_size_ = 0;
  void* scheduler_fake_stack_ = nullptr;
  void* tsan_scheduler_ = nullptr;
};

Emulator& TheEmulator() {
  thread_local Emulator emulator;
  return emulator;
}

void Emulator::PrepareFiberStack([[maybe_unused]] Fiber* fiber) {
#ifdef FACTORD_EMULATION_ASAN
  // A fiber abandoned by a failed launch leaves its frames' redzones
  // poisoned; the next thread on this stack starts clean.
  ASAN_UNPOISON_MEMORY_REGION(fiber->stack.usable(), kFiberStackBytes);
  fiber->sanitizer.asan_fake_stack = nullptr;
#endif
#ifdef FACTORD_EMULATION_TSAN
  // A fresh TSan fiber per thread run: an abandoned or finished one keeps
  // FiberEntry on its shadow call stack, which would grow with every reuse.
  if (fiber->sanitizer.tsan_fiber != nullptr) {
    __tsan_destroy_fiber(fiber->sanitizer.tsan_fiber);
  }
  fiber->sanitizer.tsan_fiber = __tsan_create_fiber(0);
  tsan_scheduler_ = __tsan_get_current_fiber();
#endif
}

void Emulator::BeforeEnterFiber([[maybe_unused]] Fiber* fiber) {
#ifdef FACTORD_EMULATION_ASAN
  __sanitizer_start_switch_fiber(&scheduler_fake_stack_, fiber->stack.usable(),
                                 kFiberStackBytes);
#endif
#ifdef FACTORD_EMULATION_TSAN
  __tsan_switch_to_fiber(fiber->sanitizer.tsan_fiber, 0);
#endif
}

void Emulator::AfterReturnToScheduler() {
#ifdef FACTORD_EMULATION_ASAN
  __sanitizer_finish_switch_fiber(scheduler_fake_stack_, nullptr, nullptr);
#endif
}

void Emulator::BeforeLeaveFiber([[maybe_unused]] Fiber* self) {
#ifdef FACTORD_EMULATION_ASAN
  // A finished or abandoned fiber is never resumed: nullptr lets ASan free
  // its fake stack.
  __sanitizer_start_switch_fiber(
      self->state == FiberState::kDone ? nullptr
                                       : &self->sanitizer.asan_fake_stack,
      scheduler_stack_bottom_, scheduler_stack_size_);
#endif
#ifdef FACTORD_EMULATION_TSAN
  __tsan_switch_to_fiber(tsan_scheduler_, 0);
#endif
}

void Emulator::AfterResumeFiber([[maybe_unused]] Fiber* self) {
#ifdef FACTORD_EMULATION_ASAN
  __sanitizer_finish_switch_fiber(self->sanitizer.asan_fake_stack, nullptr,
                                  nullptr);
#endif
}

void Emulator::OnFiberStart() {
#ifdef FACTORD_EMULATION_ASAN
  // The stack this fiber was entered from is the scheduler's.
  __sanitizer_finish_switch_fiber(nullptr, &scheduler_stack_bottom_,
                                  &scheduler_stack_size_);
#endif
}

void Emulator::FiberEntry() {
  Emulator& e = TheEmulator();
  e.OnFiberStart();
  try {
    (*e.body_)();
    e.OnThreadExit();
  } catch (const FiberAbandoned&) {
    // Fail() unwound this thread's frames; it is done, and the launch failed.
  }
  e.SwitchToScheduler();  // a finished fiber is never resumed
  std::abort();
}

void Emulator::Fail(const std::string& why) {
  if (!failed_) {
    failed_ = true;
    error = why;
  }
  if (current_ != nullptr) {
    // Unwind to FiberEntry instead of switching away here: an abandoned
    // fiber's frames would keep what they own (the message built for this
    // call, say) allocated forever, which LeakSanitizer reports.
    current_->state = FiberState::kDone;
    throw FiberAbandoned{};
  }
}

std::string Emulator::DescribeBlock() const {
  std::string text;
  for (int t = 0; t < num_threads_; ++t) {
    const Fiber& f = *fibers_[t];
    if (f.state == FiberState::kAtBarrier) {
      text += " t" + std::to_string(t) + ":__syncthreads";
    } else if (f.state == FiberState::kAtWarpCollective) {
      text += " t" + std::to_string(t) + ":" + KindName(warps_[f.warp].kind) +
              "(" + Hex(warps_[f.warp].mask) + ")";
    }
  }
  return text;
}

cudaError_t Emulator::Run(dim3 grid, dim3 block, size_t shared_bytes,
                          const std::function<void()>& body) {
  if (current_ != nullptr) {
    error = "a kernel launch from inside a kernel is not emulated";
    return last_error = cudaErrorLaunchFailure;
  }
  const int64_t threads = int64_t{block.x} * block.y * block.z;
  const int64_t blocks = int64_t{grid.x} * grid.y * grid.z;
  if (threads <= 0 || threads > kMaxThreadsPerBlock || blocks <= 0) {
    error = "invalid launch configuration";
    return last_error = cudaErrorInvalidConfiguration;
  }
  ++stats.launches;
  error.clear();
  failed_ = false;
  body_ = &body;
  num_threads_ = static_cast<int>(threads);
  while (static_cast<int>(fibers_.size()) < num_threads_) {
    fibers_.push_back(std::make_unique<Fiber>());
  }
  dynamic_shared_.assign((shared_bytes + 7) / 8, ~uint64_t{0});
  // Blocks have no order on a GPU: run them in a random one.
  std::vector<int64_t> order(blocks);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  for (int64_t linear : order) {
    const uint3 block_idx{static_cast<unsigned>(linear % grid.x),
                          static_cast<unsigned>(linear / grid.x % grid.y),
                          static_cast<unsigned>(linear / grid.x / grid.y)};
    std::fill(dynamic_shared_.begin(), dynamic_shared_.end(), ~uint64_t{0});
    RunBlock(block_idx, grid, block);
    if (failed_) {
      error = "block (" + std::to_string(block_idx.x) + "," +
              std::to_string(block_idx.y) + "," + std::to_string(block_idx.z) +
              "): " + error;
      break;
    }
  }
  current_ = nullptr;
  internal::current_coordinates = nullptr;
  body_ = nullptr;
  return last_error = failed_ ? cudaErrorLaunchFailure : cudaSuccess;
}

void Emulator::RunBlock(uint3 block_idx, dim3 grid, dim3 block) {
  ++stats.blocks;
  const int num_warps = (num_threads_ + kWarpSize - 1) / kWarpSize;
  warps_.assign(num_warps, WarpState{});
  runnable_.clear();
  for (int t = 0; t < num_threads_; ++t) {
    Fiber& f = *fibers_[t];
    f.index = t;
    f.warp = t / kWarpSize;
    f.lane = t % kWarpSize;
    f.coordinates.thread_idx = {t % block.x, t / block.x % block.y,
                                t / block.x / block.y};
    f.coordinates.block_idx = block_idx;
    f.coordinates.block_dim = block;
    f.coordinates.grid_dim = grid;
    warps_[f.warp].existing |= 1u << f.lane;
    PrepareFiberStack(&f);
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.usable();
    f.context.uc_stack.ss_size = kFiberStackBytes;
    f.context.uc_link = nullptr;
    makecontext(&f.context, &Emulator::FiberEntry, 0);
    MakeRunnable(&f);
  }
  live_ = num_threads_;
  barrier_arrived_ = 0;
  while (!failed_ && !runnable_.empty()) {
    const size_t pick = rng() % runnable_.size();
    Fiber* next = fibers_[runnable_[pick]].get();
    runnable_[pick] = runnable_.back();
    runnable_.pop_back();
    current_ = next;
    internal::current_coordinates = &next->coordinates;
    ++stats.fiber_switches;
    BeforeEnterFiber(next);
    swapcontext(&scheduler_, &next->context);
    AfterReturnToScheduler();
  }
  current_ = nullptr;
  internal::current_coordinates = nullptr;
  if (!failed_ && live_ > 0) {
    Fail("deadlock, no runnable thread; waiting:" + DescribeBlock());
  }
}

void Emulator::YieldRunnable() {
  MakeRunnable(current_);
  SwitchToScheduler();
}

void Emulator::ReleaseBarrier() {
  barrier_arrived_ = 0;
  for (int t = 0; t < num_threads_; ++t) {
    Fiber* f = fibers_[t].get();
    if (f->state == FiberState::kAtBarrier) MakeRunnable(f);
  }
}

void Emulator::SyncThreads() {
  current_->state = FiberState::kAtBarrier;
  ++barrier_arrived_;
  // The last arrival releases everyone, itself included, and yields too so
  // that the order after the barrier is random as well.
  if (barrier_arrived_ == live_) ReleaseBarrier();
  SwitchToScheduler();
}

void Emulator::OnThreadExit() {
  Fiber* self = current_;
  self->state = FiberState::kDone;
  --live_;
  WarpState& warp = warps_[self->warp];
  warp.exited |= 1u << self->lane;
  if (warp.active && (warp.mask & (1u << self->lane)) != 0) {
    current_ = nullptr;  // report without abandoning: the fiber is done
    Fail("thread " + std::to_string(self->index) +
         " returned while its warp "
         "waits for it in " +
         KindName(warp.kind) + " with mask " + Hex(warp.mask));
    current_ = self;
    return;
  }
  if (barrier_arrived_ > 0 && barrier_arrived_ == live_) ReleaseBarrier();
}

uint64_t Emulator::Collective(CollectiveKind kind, unsigned mask,
                              uint64_t input, int source, bool predicate) {
  Fiber* self = current_;
  WarpState& warp = warps_[self->warp];
  const unsigned bit = 1u << self->lane;
  // Built only on failure: collectives are the hot path of the emulation.
  auto who = [&] {
    return "thread " + std::to_string(self->index) + " (warp " +
           std::to_string(self->warp) + ", lane " + std::to_string(self->lane) +
           ") in " + KindName(kind) + " with mask " + Hex(mask) + ": ";
  };
  if ((mask & bit) == 0) Fail(who() + "the mask excludes the calling lane");
  if ((mask & ~warp.existing) != 0) {
    Fail(who() + "the mask names lanes that do not exist (existing " +
         Hex(warp.existing) + ")");
  }
  if ((mask & warp.exited) != 0) {
    Fail(who() + "the mask names lanes that have returned " +
         Hex(mask & warp.exited));
  }
  if (warp.active) {
    if (warp.kind != kind || warp.mask != mask) {
      Fail(who() + "other lanes wait in " + KindName(warp.kind) +
           " with mask " + Hex(warp.mask));
    }
  } else {
    warp.active = true;
    warp.kind = kind;
    warp.mask = mask;
    warp.arrived = 0;
  }
  warp.input[self->lane] = input;
  warp.source[self->lane] = source;
  warp.predicate[self->lane] = predicate;
  warp.arrived |= bit;
  self->state = FiberState::kAtWarpCollective;
  if (warp.arrived == mask) {
    unsigned ballot = 0;
    for (int l = 0; l < kWarpSize; ++l) {
      if ((mask >> l & 1u) && warp.predicate[l]) ballot |= 1u << l;
    }
    for (int l = 0; l < kWarpSize; ++l) {
      if ((mask >> l & 1u) == 0) continue;
      Fiber* lane_fiber = fibers_[self->warp * kWarpSize + l].get();
      uint64_t result = 0;
      switch (kind) {
        case CollectiveKind::kSyncWarp:
          break;
        case CollectiveKind::kShuffle: {
          const int from = warp.source[l];
          if ((mask >> from & 1u) == 0) {
            Fail(who() + "lane " + std::to_string(l) + " reads lane " +
                 std::to_string(from) + ", which is not in the mask");
          }
          result = warp.input[from];
          break;
        }
        case CollectiveKind::kBallot:
          result = ballot;
          break;
        case CollectiveKind::kAny:
          result = ballot != 0;
          break;
        case CollectiveKind::kAll:
          result = ballot == mask;
          break;
      }
      lane_fiber->collective_result = result;
      MakeRunnable(lane_fiber);
    }
    warp.active = false;
  }
  SwitchToScheduler();
  return self->collective_result;
}

}  // namespace

namespace internal {

void* DynamicSharedArena() { return TheEmulator().DynamicShared(); }

void SyncThreads() { TheEmulator().SyncThreads(); }

void SyncWarp(unsigned mask) {
  TheEmulator().Collective(CollectiveKind::kSyncWarp, mask, 0, 0, false);
}

uint64_t Shuffle(unsigned mask, uint64_t bits, int lane_arg, int width,
                 ShuffleMode mode) {
  Emulator& e = TheEmulator();
  const int lane = e.CurrentLane();
  if (width <= 0 || width > kWarpSize || (width & (width - 1)) != 0) {
    std::fprintf(stderr, "cuda emulation: shuffle width %d\n", width);
    std::abort();
  }
  const int segment = lane - lane % width;
  int source = lane;
  switch (mode) {
    case ShuffleMode::kIndex:
      source = segment + (lane_arg & (width - 1));
      break;
    case ShuffleMode::kUp:
      if (lane % width >= lane_arg) source = lane - lane_arg;
      break;
    case ShuffleMode::kDown:
      if (lane % width + lane_arg < width) source = lane + lane_arg;
      break;
    case ShuffleMode::kXor:
      source = lane ^ lane_arg;
      if (source >= segment + width || source >= kWarpSize) source = lane;
      break;
  }
  return e.Collective(CollectiveKind::kShuffle, mask, bits, source, false);
}

unsigned Vote(unsigned mask, bool predicate, VoteMode mode) {
  const CollectiveKind kind = mode == VoteMode::kBallot
                                  ? CollectiveKind::kBallot
                              : mode == VoteMode::kAny ? CollectiveKind::kAny
                                                       : CollectiveKind::kAll;
  return static_cast<unsigned>(
      TheEmulator().Collective(kind, mask, 0, 0, predicate));
}

void YieldAfterAtomic() {
  if (current_coordinates != nullptr) TheEmulator().YieldRunnable();
}

}  // namespace internal

cudaError_t RunLaunch(dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                      const std::function<void()>& thread_body) {
  return TheEmulator().Run(grid, block, dynamic_shared_bytes, thread_body);
}

void SetScheduleSeed(uint64_t seed) { TheEmulator().rng.seed(seed); }

const std::string& LastLaunchError() { return TheEmulator().error; }

const EmulationStats& Stats() { return TheEmulator().stats; }

}  // namespace factord::emulation

cudaError_t cudaGetLastError() {
  auto& e = factord::emulation::TheEmulator();
  const cudaError_t result = e.last_error;
  e.last_error = cudaSuccess;
  return result;
}

cudaError_t cudaPeekAtLastError() {
  return factord::emulation::TheEmulator().last_error;
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorInvalidConfiguration:
      return "invalid configuration argument";
    case cudaErrorLaunchFailure:
      return "unspecified launch failure (emulation)";
  }
  return "unknown error";
}
