// How block_ildlt runs the blocks of one level set (S1 §IV-A: level sets
// "dictate the processing order for factorization"; §IV-C: the solves reuse
// them). Backend kReference runs everything on the calling thread; kCpu (and
// kCuda, which falls back to it) with ctx.threads > 1 enters the arena of
// ctx.threads threads once per factorization or solve and runs the blocks of
// each level with tbb::parallel_for.
//
// Why a dynamic partitioner is allowed here, unlike the static chunks of
// core/kernels/cpu/parallel.h: a level's blocks are independent (each
// writes only what it owns and reads only blocks of earlier levels), so no
// value depends on which thread ran which block or in which order; and the
// columns of a level differ widely in cost, which static chunks balance
// badly.
#ifndef FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_LEVELS_H_
#define FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_LEVELS_H_

#include <atomic>
#include <cstdint>
#include <utility>

#include "core/base/exec_context.h"
#include "core/kernels/cpu/parallel.h"
#include "core/kernels/cpu/tsan_handoff.h"
#include "tbb/blocked_range.h"
#include "tbb/parallel_for.h"
#include "tbb/partitioner.h"
#include "tbb/task_arena.h"

namespace factord::internal {

// True when the blocks of a level run in parallel: a threaded backend
// (kCpu, or kCuda's host path) with more than one thread.
inline bool LevelsRunThreaded(const ExecContext& ctx) {
  switch (ctx.backend) {
    case Backend::kReference:
      return false;
    case Backend::kCpu:
    case Backend::kCuda:  // the host path: no device context or kernels
      break;
  }
  return ctx.threads > 1;
}

// The number of threads, hence of per-thread workspaces, a threaded run may
// use (the arena's slots); 1 when LevelsRunThreaded(ctx) is false.
inline int LevelThreadCount(const ExecContext& ctx) {
  if (!LevelsRunThreaded(ctx)) return 1;
  return kernels::cpu::ArenaFor(ctx.threads).max_concurrency();
}

// Runs fn() inside the arena of ctx.threads threads when
// LevelsRunThreaded(ctx), on the calling thread otherwise.
template <typename Fn>
void InLevelArena(const ExecContext& ctx, Fn&& fn) {
  if (!LevelsRunThreaded(ctx)) {
    fn();
    return;
  }
  kernels::cpu::ExecuteWithHandoff(kernels::cpu::ArenaFor(ctx.threads),
                                   std::forward<Fn>(fn));
}

// The workspace index of the calling thread inside InLevelArena, in
// [0, LevelThreadCount(ctx)); 0 outside an arena. A body of ForEachInLevel
// does not wait on other tasks, so no two running bodies share an index.
inline int LevelThreadIndex() {
  const int index = tbb::this_task_arena::current_thread_index();
  return index < 0 ? 0 : index;
}

// Tests set this so that every level of two or more blocks runs in
// parallel, however little work it holds (the work thresholds of the
// callers decide where time goes, never a bit of the result).
inline std::atomic<bool>& ForceParallelLevelsForTesting() {
  static std::atomic<bool> force{false};
  return force;
}

// Calls body(i) for i in [0, count), in parallel when `worth_it` (the
// caller's work estimate says so) and count >= 2 * grain, in ascending
// order on the calling thread otherwise. Call it inside InLevelArena.
// body(i) must write only what item i owns and read nothing another item
// of the same call writes.
template <typename Body>
void ForEachInLevel(bool worth_it, int64_t count, int64_t grain, Body&& body) {
  if (ForceParallelLevelsForTesting().load(std::memory_order_relaxed)) {
    worth_it = true;
    grain = 1;
  }
  if (!worth_it || count < 2 * grain) {
    for (int64_t i = 0; i < count; ++i) body(i);
    return;
  }
  kernels::cpu::TsanHandoff handoff;
  handoff.Fork();
  tbb::parallel_for(tbb::blocked_range<int64_t>(0, count, grain),
                    [&](const tbb::blocked_range<int64_t>& range) {
                      handoff.Enter();
                      for (int64_t i = range.begin(); i < range.end(); ++i) {
                        body(i);
                      }
                      handoff.Leave();
                    });
  handoff.Join();
}

}  // namespace factord::internal

#endif  // FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_LEVELS_H_
