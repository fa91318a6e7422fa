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
#include "tbb/enumerable_thread_specific.h"
#include "tbb/task_group.h"

namespace factord::kernels::cpu {
namespace {

// Subtrees with less estimated work than this run serially.
constexpr int64_t kSerialSubtreeWork = 1 << 20;

class TreeRun {
 public:
  TreeRun(const ExecContext& ctx, const internal::LdltSymbolic& sym,
          std::span<const double> values, const DenseLdltParams& params,
          std::vector<internal::FrontFactor>* factors,
          std::vector<internal::FrontCounts>* counts)
      : ctx_(ctx),
        sym_(sym),
        values_(values),
        params_(params),
        factors_(factors),
        counts_(counts),
        cbs_(sym.num_fronts()),
        first_descendant_(sym.num_fronts()),
        maps_([&] { return std::vector<int32_t>(sym.n, -1); }) {
    for (int32_t f = 0; f < sym.num_fronts(); ++f) {
      first_descendant_[f] = f;
      for (int32_t k = sym.child_ptr[f]; k < sym.child_ptr[f + 1]; ++k) {
        first_descendant_[f] =
            std::min(first_descendant_[f], first_descendant_[sym.children[k]]);
      }
    }
  }

  absl::Status Run() {
    std::vector<int32_t> roots;
    for (int32_t f = 0; f < sym_.num_fronts(); ++f) {
      if (sym_.front_parent[f] == -1) roots.push_back(f);
    }
    ArenaFor(std::max(1, ctx_.threads)).execute([&] { RunSet(roots); });
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

  // Runs the subtrees rooted at `tops` (independent of each other).
  void RunSet(const std::vector<int32_t>& tops) {
    if (tops.size() == 1) {
      RunSubtree(tops[0]);
      return;
    }
    tbb::task_group group;
    for (int32_t f : tops) group.run([this, f] { RunSubtree(f); });
    group.wait();
  }

  void RunSubtree(int32_t top) {
    if (ctx_.threads <= 1 || sym_.subtree_work[top] < kSerialSubtreeWork) {
      for (int32_t f = first_descendant_[top]; f <= top && !Failed(); ++f) {
        Front(f);
      }
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
    std::vector<int32_t> below(
        sym_.children.begin() + sym_.child_ptr[bottom],
        sym_.children.begin() + sym_.child_ptr[bottom + 1]);
    if (chain.size() > 1 || below.size() != 1) {
      RunSet(below);
    } else {
      RunSubtree(below[0]);
    }
    for (auto it = chain.rbegin(); it != chain.rend() && !Failed(); ++it) {
      Front(*it);
    }
  }

  void Front(int32_t f) {
    if (absl::Status s = ctx_.CheckCancelled(); !s.ok()) {
      Fail(std::move(s));
      return;
    }
    std::vector<const internal::ContributionBlock*> children;
    for (int32_t k = sym_.child_ptr[f]; k < sym_.child_ptr[f + 1]; ++k) {
      children.push_back(&cbs_[sym_.children[k]]);
    }
    internal::FactorizeFront(sym_, f, values_, children, params_, &SchurUpdate,
                             maps_.local(), &(*factors_)[f], &cbs_[f],
                             &(*counts_)[f]);
    for (int32_t k = sym_.child_ptr[f]; k < sym_.child_ptr[f + 1]; ++k) {
      cbs_[sym_.children[k]] = internal::ContributionBlock();
    }
  }

  const ExecContext& ctx_;
  const internal::LdltSymbolic& sym_;
  std::span<const double> values_;
  const DenseLdltParams& params_;
  std::vector<internal::FrontFactor>* factors_;
  std::vector<internal::FrontCounts>* counts_;
  std::vector<internal::ContributionBlock> cbs_;
  std::vector<int32_t> first_descendant_;
  tbb::enumerable_thread_specific<std::vector<int32_t>> maps_;
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
                                std::vector<internal::FrontFactor>* factors,
                                std::vector<internal::FrontCounts>* counts) {
  factors->assign(sym.num_fronts(), {});
  counts->assign(sym.num_fronts(), {});
  TreeRun run(ctx, sym, values, params, factors, counts);
  return run.Run();
}

}  // namespace factord::kernels::cpu
