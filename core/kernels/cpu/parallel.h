// The one way the cpu kernels run in parallel: a tbb::task_arena of
// ctx.threads threads and tbb::parallel_for with static partitioning over a
// number of chunks fixed by the problem size, so that which chunk computes
// what never depends on scheduling. One arena per thread count is kept for
// the life of the process (creating one per call costs more than a small
// kernel).
#ifndef FACTORD_KERNELS_CPU_PARALLEL_H_
#define FACTORD_KERNELS_CPU_PARALLEL_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "core/base/exec_context.h"
#include "core/kernels/cpu/tsan_handoff.h"
#include "tbb/blocked_range.h"
#include "tbb/parallel_for.h"
#include "tbb/partitioner.h"
#include "tbb/task_arena.h"

namespace factord::kernels::cpu {

inline tbb::task_arena& ArenaFor(int threads) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<tbb::task_arena>>* arenas =
      new std::map<int, std::unique_ptr<tbb::task_arena>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto& arena = (*arenas)[threads];
  if (arena == nullptr) arena = std::make_unique<tbb::task_arena>(threads);
  return *arena;
}

namespace detail {
// body(chunk) for every chunk as tasks of the current arena, with the
// fork and join edges for TSan. The partitioner decides only which thread
// runs a chunk.
template <typename Body, typename Partitioner>
void RunChunks(int64_t num_chunks, Body& body, const Partitioner& partitioner) {
  TsanHandoff handoff;
  handoff.Fork();
  tbb::parallel_for(
      tbb::blocked_range<int64_t>(0, num_chunks),
      [&](const tbb::blocked_range<int64_t>& range) {
        handoff.Enter();
        for (int64_t c = range.begin(); c < range.end(); ++c) body(c);
        handoff.Leave();
      },
      partitioner);
  handoff.Join();
}
}  // namespace detail

// Calls body(chunk) for chunk in [0, num_chunks), in parallel when
// ctx.threads > 1 and there is more than one chunk. body must only write
// data owned by its chunk.
template <typename Body>
void ForEachChunk(const ExecContext& ctx, int64_t num_chunks, Body&& body) {
  if (num_chunks <= 0) return;
  const int threads = std::max(1, ctx.threads);
  if (threads == 1 || num_chunks == 1) {
    for (int64_t c = 0; c < num_chunks; ++c) body(c);
    return;
  }
  ExecuteWithHandoff(ArenaFor(threads), [&] {
    detail::RunChunks(num_chunks, body, tbb::static_partitioner());
  });
}

// Calls body(chunk) for chunk in [0, num_chunks) as tasks of the arena the
// caller runs in (ForEachChunk's, or ArenaFor(threads).execute), one task a
// chunk (chunks of uneven cost balance; which thread runs a chunk does not
// change what it computes). Isolated: while it waits, the calling thread runs
// only these chunks, never another task of the arena, so that a caller's
// thread-local workspace is not taken over by a task it did not spawn. body
// must only write data owned by its chunk.
// While one lives on a thread, ForEachChunkInArena runs its chunks there,
// one after another: for a job of one thread, and for the reference
// backend, which must not spread over the process' default arena.
class SerialChunks {
 public:
  SerialChunks() : saved_(serial()) { serial() = true; }
  ~SerialChunks() { serial() = saved_; }
  SerialChunks(const SerialChunks&) = delete;
  SerialChunks& operator=(const SerialChunks&) = delete;
  static bool& serial() {
    thread_local bool value = false;
    return value;
  }

 private:
  bool saved_;
};

template <typename Body>
void ForEachChunkInArena(int64_t num_chunks, Body&& body) {
  if (num_chunks <= 0) return;
  if (num_chunks == 1 || SerialChunks::serial() ||
      tbb::this_task_arena::max_concurrency() <= 1) {
    for (int64_t c = 0; c < num_chunks; ++c) body(c);
    return;
  }
  tbb::this_task_arena::isolate(
      [&] { detail::RunChunks(num_chunks, body, tbb::simple_partitioner()); });
}

// Number of chunks of `chunk` items covering n items.
inline int64_t ChunkCount(int64_t n, int64_t chunk) {
  return (n + chunk - 1) / chunk;
}

}  // namespace factord::kernels::cpu

#endif  // FACTORD_KERNELS_CPU_PARALLEL_H_
