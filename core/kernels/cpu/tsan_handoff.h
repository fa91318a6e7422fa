// The happens-before edges of TBB's fork and join, spelled out for
// ThreadSanitizer. libtbb from Debian is not built with TSan: the work a
// parallel_for, a task_group or task_arena::execute hands to another thread
// travels through TBB's own atomics and futexes, which TSan does not see,
// so without these edges every input written before the fork and every
// output read after the join is reported as a race (and TSan slows to a
// crawl handling the reports). With them TSan checks what it should: two
// tasks of one fork are still unordered, so a race between them (two
// chunks writing one entry) is reported.
//
//   TsanHandoff h;
//   h.Fork();                       // the spawning thread, before
//   ... in each task: h.Enter(); work; h.Leave();
//   h.Join();                       // the spawning thread, after the join
//
// Outside a TSan build (scripts/sanitize.sh tsan) every call is empty.
#ifndef FACTORD_KERNELS_CPU_TSAN_HANDOFF_H_
#define FACTORD_KERNELS_CPU_TSAN_HANDOFF_H_

#include <utility>

#if defined(__SANITIZE_THREAD__)
#define FACTORD_TSAN_HANDOFF 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FACTORD_TSAN_HANDOFF 1
#endif
#endif

#if defined(FACTORD_TSAN_HANDOFF)
#include <sanitizer/tsan_interface.h>
#endif

namespace factord::kernels::cpu {

class TsanHandoff {
 public:
#if defined(FACTORD_TSAN_HANDOFF)
  void Fork() { __tsan_release(&fork_); }
  void Enter() { __tsan_acquire(&fork_); }
  void Leave() { __tsan_release(&join_); }
  void Join() { __tsan_acquire(&join_); }

 private:
  char fork_ = 0, join_ = 0;  // their addresses name the two edges
#else
  void Fork() {}
  void Enter() {}
  void Leave() {}
  void Join() {}
#endif
};

// arena.execute(fn) with its edges: execute may run fn on another thread
// when the arena's slots are taken by concurrent requests.
template <typename Arena, typename Fn>
void ExecuteWithHandoff(Arena& arena, Fn&& fn) {
  TsanHandoff handoff;
  handoff.Fork();
  arena.execute([&] {
    handoff.Enter();
    std::forward<Fn>(fn)();
    handoff.Leave();
  });
  handoff.Join();
}

}  // namespace factord::kernels::cpu

#endif  // FACTORD_KERNELS_CPU_TSAN_HANDOFF_H_
