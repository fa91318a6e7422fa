// Reference multifrontal traversal: fronts in postorder (children first),
// one at a time; plain-loop Schur update.
#include "core/ldlt/kernels/ldlt_kernels.h"

#include "core/kernels/cpu/parallel.h"

namespace factord::kernels::reference {

void SchurUpdate(int r, int q, const double* l, int ldl, const double* w,
                 int ldw, double* s, int lds) {
  for (int t = 0; t < q; ++t) {
    const double* lt = l + static_cast<size_t>(t) * ldl;
    const double* wt = w + static_cast<size_t>(t) * ldw;
    for (int j = 0; j < r; ++j) {
      const double wj = wt[j];
      if (wj == 0) continue;
      double* sj = s + static_cast<size_t>(j) * lds;
      for (int i = j; i < r; ++i) sj[i] -= lt[i] * wj;
    }
  }
}

namespace {
// The pivoting kernel on every front: the source of truth.
constexpr internal::FrontKernels kFrontKernels{&SchurUpdate, nullptr};
}  // namespace

absl::Status FactorizeFrontTree(const ExecContext& ctx,
                                const internal::LdltSymbolic& sym,
                                std::span<const double> values,
                                const DenseLdltParams& params,
                                internal::FrontFactors* factors,
                                std::vector<internal::FrontCounts>* counts) {
  const int64_t num_fronts = sym.num_fronts();
  factors->Allocate(sym);
  counts->assign(num_fronts, {});
  std::vector<internal::ContributionBlock> cbs(num_fronts);
  // One thread: the pivoting kernel's chunked panel updates run in order.
  cpu::SerialChunks serial;
  internal::FrontWorkspace& ws = internal::ThreadFrontWorkspace();
  const int64_t base = ws.stack_top;
  ws.Reserve(sym);
  absl::Status status;
  for (int32_t f = 0; f < num_fronts; ++f) {
    status = ctx.CheckCancelled();
    if (!status.ok()) break;
    // Postorder: every contribution block goes on the stack.
    internal::FactorizeFront(sym, f, values, std::span(cbs),
                             /*cb_on_stack=*/true, params, kFrontKernels, ws,
                             factors, &(*counts)[f]);
  }
  ws.stack_top = base;
  ws.Trim();
  return status;
}

}  // namespace factord::kernels::reference
