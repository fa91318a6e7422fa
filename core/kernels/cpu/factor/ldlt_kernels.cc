// Threaded multifrontal traversal: tree-level parallelism (independent
// subtrees are TBB tasks; small subtrees run serially in postorder) and a
// BLAS 3 Schur update. Each front is computed by the same code as in the
// reference and children are assembled in a fixed order, so the result does
// not depend on the schedule.
#include "kernels/factor/ldlt_kernels.h"

#include <atomic>
#include <mutex>

#include "cblas.h"
#include "kernels/cpu/common/parallel.h"
#include "tbb/task_group.h"

namespace factord::kernels::cpu {
namespace {

// Subtrees with less estimated work than this run serially.
constexpr int64_t kSerialSubtreeWork = 1 << 20;

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
    ArenaFor(std::max(1, ctx_.threads)).execute([&] { RunSet(sym_.roots); });
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

  // Runs the subtrees rooted at `tops` (independent of each other). Small
  // subtrees are batched into tasks of at least kSerialSubtreeWork (a KKT
  // forest has thousands of tiny trees; a task each costs more than them).
  void RunSet(std::span<const int32_t> tops) {
    if (tops.size() == 1 || ctx_.threads <= 1) {
      for (int32_t f : tops) RunSubtree(f);
      return;
    }
    tbb::task_group group;
    size_t begin = 0;
    int64_t work = 0;
    for (size_t i = 0; i < tops.size(); ++i) {
      work += sym_.subtree_work[tops[i]];
      if (work >= kSerialSubtreeWork || i + 1 == tops.size()) {
        const std::span<const int32_t> batch =
            tops.subspan(begin, i + 1 - begin);
        group.run([this, batch] {
          for (int32_t f : batch) RunSubtree(f);
        });
        begin = i + 1;
        work = 0;
      }
    }
    group.wait();
  }

  void RunSubtree(int32_t top) {
    if (ctx_.threads <= 1 || sym_.subtree_work[top] < kSerialSubtreeWork) {
      // Postorder on this thread: the blocks stay on its stack except the
      // top's, which its parent may read on another thread.
      internal::FrontWorkspace& ws = internal::ThreadFrontWorkspace();
      const int64_t base = ws.stack_top;
      ws.Reserve(sym_);
      for (int32_t f = sym_.first_descendant[top]; f <= top && !Failed(); ++f) {
        Front(f, ws, /*cb_on_stack=*/f != top);
      }
      ws.stack_top = base;
      return;
    }
    // Follow single-child chains without recursing, then run the children
    // of the chain's bottom in parallel and the chain bottom-up.
    std::vector<int32_t> chain = {top};
    while (sym_.child_ptr[chain.back() + 1] - sym_.child_ptr[chain.back()] ==
           1) {
      const int32_t child = sym_.children[sym_.child_ptr[chain.back()]];
      if (sym_.subtree_work[child] < kSerialSubtreeWork) break;
      chain.push_back(child);
    }
    const int32_t bottom = chain.back();
    const std::span<const int32_t> below(
        sym_.children.data() + sym_.child_ptr[bottom],
        sym_.child_ptr[bottom + 1] - sym_.child_ptr[bottom]);
    if (chain.size() > 1 || below.size() != 1) {
      RunSet(below);
    } else {
      RunSubtree(below[0]);
    }
    for (auto it = chain.rbegin(); it != chain.rend() && !Failed(); ++it) {
      internal::FrontWorkspace& ws = internal::ThreadFrontWorkspace();
      ws.Reserve(sym_);
      Front(*it, ws, /*cb_on_stack=*/false);
    }
  }

  void Front(int32_t f, internal::FrontWorkspace& ws, bool cb_on_stack) {
    if (absl::Status s = ctx_.CheckCancelled(); !s.ok()) {
      Fail(std::move(s));
      return;
    }
    internal::FactorizeFront(sym_, f, values_, std::span(cbs_), cb_on_stack,
                             params_, &SchurUpdate, ws, factors_,
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
  // Lower triangle by column panels: S[j:, j:j+nb] -= L[j:, :] W[j:j+nb, :]^T.
  constexpr int kPanel = 64;
  for (int j = 0; j < r; j += kPanel) {
    const int nb = std::min(kPanel, r - j);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, r - j, nb, q, -1.0,
                l + j, ldl, w + j, ldw, 1.0,
                s + static_cast<size_t>(j) * lds + j, lds);
  }
}

absl::Status FactorizeFrontTree(const ExecContext& ctx,
                                const internal::LdltSymbolic& sym,
                                std::span<const double> values,
                                const DenseLdltParams& params,
                                internal::FrontFactors* factors,
                                std::vector<internal::FrontCounts>* counts) {
  factors->Allocate(sym);
  counts->assign(sym.num_fronts(), {});
  TreeRun run(ctx, sym, values, params, factors, counts);
  return run.Run();
}

}  // namespace factord::kernels::cpu
