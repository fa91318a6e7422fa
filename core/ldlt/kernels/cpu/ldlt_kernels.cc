// Threaded multifrontal traversal: tree-level parallelism (independent
// subtrees are TBB tasks, each run serially in postorder; the fronts above
// them run after, on the calling thread) and a BLAS 3 Schur update. Each front
// is computed by the same code as in the reference and children are assembled
// in a fixed order, so the result does not depend on the schedule.
#include "core/ldlt/kernels/ldlt_kernels.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "core/dense/kernels/cpu/dense_chunks.h"
#include "core/dense/kernels/dense_ldlt_app.h"
#include "core/dense/kernels/dense_ldlt_unpivoted.h"
#include "core/kernels/cpu/blas_threads.h"
#include "core/kernels/cpu/parallel.h"
#include "core/kernels/cpu/tsan_handoff.h"
#include "tbb/task_group.h"

namespace factord::kernels::cpu {
namespace {

// Every front tries the unpivoted blocked kernel first when it is large
// (core/ldlt/kernels/front.cc), with the blocked a-posteriori pivoting
// kernel as its fallback (and the pivoting kernel as that one's).
constexpr internal::FrontKernels kFrontKernels{&SchurUpdate,
                                               &internal::DenseUnpivotedLdlt,
                                               &internal::DenseAppPartialLdlt};

// Subtrees with less estimated work than this are not split further.
constexpr int64_t kSerialSubtreeWork = 1 << 20;
// A tree with less work than this runs serially: waking a second thread,
// moving contribution blocks between cores and waiting for the slowest
// task cost more than they save on the many-small-front trees of KKT
// systems (measured: liswet1 3.1 ms on one thread, 4.7 ms on two).
constexpr int64_t kParallelTreeWork = 16 * kSerialSubtreeWork;
// The independent subtrees are split until none has more than 1/(kSplit *
// threads) of the work, so that tasks balance over the threads.
constexpr int64_t kSplit = 4;

// Two phases (Geist & Ng's subtree-to-thread mapping, as in MUMPS' layer
// L0): the largest subtree is replaced by its children until the subtrees
// are small enough; they run as TBB tasks, each serially in postorder on
// its thread's stack, and then the fronts above them run in postorder on
// the calling thread. Only the blocks of the subtrees' tops cross threads
// (heap); every other contribution block lives on a stack.
class TreeRun {
 public:
  TreeRun(const ExecContext& ctx, const internal::LdltSymbolic& sym,
          std::span<const double> values, const DenseLdltParams& params,
          internal::FrontFactors* factors,
          std::vector<internal::FrontCounts>* counts)
      : ctx_(ctx),
        sym_(sym),
        values_(values),
        params_(params),
        factors_(factors),
        counts_(counts),
        cbs_(sym.num_fronts()) {}

  absl::Status Run() {
    const int threads = std::max(1, ctx_.threads);
    int64_t total = 0;
    for (int32_t r : sym_.roots) total += sym_.subtree_work[r];
    std::vector<int32_t> subtrees;
    std::vector<char> above(sym_.num_fronts(), 0);
    if (threads > 1 && total >= kParallelTreeWork) {
      subtrees = Split(total / (kSplit * threads), &above);
      // Worth it only when the independent part is (the fronts above run
      // serially: a tree dominated by a few large top fronts gains nothing
      // from threads here, its dgemm calls are threaded by BLAS).
      int64_t independent = 0;
      for (int32_t top : subtrees) independent += sym_.subtree_work[top];
      if (independent < kParallelTreeWork) {
        subtrees.clear();
        std::fill(above.begin(), above.end(), 0);
      }
    }
    if (subtrees.size() > 1) {
      // Largest first, so that the last tasks to start are the short ones.
      std::sort(subtrees.begin(), subtrees.end(), [&](int32_t a, int32_t b) {
        return sym_.subtree_work[a] > sym_.subtree_work[b];
      });
      ExecuteWithHandoff(ArenaFor(threads), [&] {
        // Small subtrees are batched into tasks of at least
        // kSerialSubtreeWork (a KKT forest has thousands of tiny trees).
        tbb::task_group group;
        TsanHandoff handoff;
        handoff.Fork();
        size_t begin = 0;
        int64_t work = 0;
        for (size_t i = 0; i < subtrees.size(); ++i) {
          work += sym_.subtree_work[subtrees[i]];
          if (work < kSerialSubtreeWork && i + 1 < subtrees.size()) continue;
          const std::span<const int32_t> batch(subtrees.data() + begin,
                                               i + 1 - begin);
          group.run([this, batch, &handoff] {
            handoff.Enter();
            for (int32_t top : batch) {
              RunRange(sym_.first_descendant[top], top, /*top_on_heap=*/true);
            }
            handoff.Leave();
          });
          begin = i + 1;
          work = 0;
        }
        group.wait();
        handoff.Join();
      });
      // The fronts above the subtrees, in postorder on this thread (their
      // dense kernels spread over the arena).
      InArena(threads, [&] {
        internal::FrontWorkspace& ws = internal::ThreadFrontWorkspace();
        const int64_t base = ws.stack_top;
        ws.Reserve(sym_);
        for (int32_t f = 0; f < sym_.num_fronts() && !Failed(); ++f) {
          if (above[f]) Front(f, ws, /*cb_on_stack=*/true);
        }
        ws.stack_top = base;
        ws.Trim();
      });
    } else {
      InArena(threads, [&] {
        RunRange(0, static_cast<int32_t>(sym_.num_fronts()) - 1,
                 /*top_on_heap=*/false);
      });
    }
    return status();
  }

 private:
  bool Failed() const { return failed_.load(std::memory_order_relaxed); }
  absl::Status status() {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_;
  }
  void Fail(absl::Status s) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_.ok()) status_ = std::move(s);
    failed_.store(true, std::memory_order_relaxed);
  }

  // Independent subtrees of at most `limit` work (or leaves, or at most
  // kSerialSubtreeWork); the fronts split off are marked in `above`.
  std::vector<int32_t> Split(int64_t limit, std::vector<char>* above) {
    limit = std::max(limit, kSerialSubtreeWork);
    auto lighter = [&](int32_t a, int32_t b) {
      return sym_.subtree_work[a] < sym_.subtree_work[b];
    };
    std::vector<int32_t> heap(sym_.roots.begin(), sym_.roots.end());
    std::make_heap(heap.begin(), heap.end(), lighter);
    while (!heap.empty()) {
      const int32_t f = heap.front();
      if (sym_.subtree_work[f] <= limit ||
          sym_.child_ptr[f + 1] == sym_.child_ptr[f]) {
        break;
      }
      std::pop_heap(heap.begin(), heap.end(), lighter);
      heap.pop_back();
      (*above)[f] = 1;
      for (int32_t k = sym_.child_ptr[f]; k < sym_.child_ptr[f + 1]; ++k) {
        heap.push_back(sym_.children[k]);
        std::push_heap(heap.begin(), heap.end(), lighter);
      }
    }
    return heap;
  }

  // Fronts first..last (a union of whole subtrees in postorder) on this
  // thread; with top_on_heap, the block of `last` goes to the heap (its
  // parent runs elsewhere), all others on the stack.
  void RunRange(int32_t first, int32_t last, bool top_on_heap) {
    internal::FrontWorkspace& ws = internal::ThreadFrontWorkspace();
    const int64_t base = ws.stack_top;
    ws.Reserve(sym_);
    for (int32_t f = first; f <= last && !Failed(); ++f) {
      Front(f, ws, /*cb_on_stack=*/!(top_on_heap && f == last));
    }
    ws.stack_top = base;
    ws.Trim();
  }

  // fn() on this thread as a task of the arena of `threads` threads, where
  // the dense kernels' chunks (ForEachChunkInArena) find their workers.
  template <typename Fn>
  static void InArena(int threads, Fn&& fn) {
    if (threads <= 1) {
      SerialChunks serial;
      fn();
      return;
    }
    ExecuteWithHandoff(ArenaFor(threads), std::forward<Fn>(fn));
  }

  void Front(int32_t f, internal::FrontWorkspace& ws, bool cb_on_stack) {
    if (absl::Status s = ctx_.CheckCancelled(); !s.ok()) {
      Fail(std::move(s));
      return;
    }
    internal::FactorizeFront(sym_, f, values_, std::span(cbs_), cb_on_stack,
                             params_, kFrontKernels, ws, factors_,
                             &(*counts_)[f]);
  }

  const ExecContext& ctx_;
  const internal::LdltSymbolic& sym_;
  std::span<const double> values_;
  const DenseLdltParams& params_;
  internal::FrontFactors* factors_;
  std::vector<internal::FrontCounts>* counts_;
  std::vector<internal::ContributionBlock> cbs_;
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  absl::Status status_;
};

}  // namespace

void SchurUpdate(int r, int q, const double* l, int ldl, const double* w,
                 int ldw, double* s, int lds) {
  if (r <= 0 || q <= 0) return;
  if (static_cast<int64_t>(r) * r * q < 4096) {
    reference::SchurUpdate(r, q, l, ldl, w, ldw, s, lds);
    return;
  }
  // Lower triangle by column panels, S[j:, j:j+nb] -= L[j:, :] W[j:j+nb, :]^T,
  // a panel a task of the calling arena (single-threaded BLAS each: the
  // result does not depend on the thread count). Wide panels for large
  // updates, where dgemm needs them; narrow ones waste less of the upper
  // triangle on small ones.
  const int panel = r >= 1024 ? 256 : 64;
  internal::ChunkedLowerUpdate(r, r, q, l, ldl, w, ldw, s, lds, panel);
}

absl::Status FactorizeFrontTree(const ExecContext& ctx,
                                const internal::LdltSymbolic& sym,
                                std::span<const double> values,
                                const DenseLdltParams& params,
                                internal::FrontFactors* factors,
                                std::vector<internal::FrontCounts>* counts) {
  UseSingleThreadedBlas();
  factors->Allocate(sym);
  counts->assign(sym.num_fronts(), {});
  TreeRun run(ctx, sym, values, params, factors, counts);
  return run.Run();
}

}  // namespace factord::kernels::cpu
