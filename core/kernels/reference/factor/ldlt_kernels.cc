// Reference multifrontal traversal: fronts in postorder (children first),
// one at a time; plain-loop Schur update.
#include "kernels/factor/ldlt_kernels.h"

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

absl::Status FactorizeFrontTree(const ExecContext& ctx,
                                const internal::LdltSymbolic& sym,
                                std::span<const double> values,
                                const DenseLdltParams& params,
                                std::vector<internal::FrontFactor>* factors,
                                std::vector<internal::FrontCounts>* counts) {
  const int64_t num_fronts = sym.num_fronts();
  factors->assign(num_fronts, {});
  counts->assign(num_fronts, {});
  std::vector<internal::ContributionBlock> cbs(num_fronts);
  std::vector<int32_t> map(sym.n, -1);
  std::vector<const internal::ContributionBlock*> children;
  for (int32_t f = 0; f < num_fronts; ++f) {
    if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
    children.clear();
    for (int32_t k = sym.child_ptr[f]; k < sym.child_ptr[f + 1]; ++k) {
      children.push_back(&cbs[sym.children[k]]);
    }
    internal::FactorizeFront(sym, f, values, children, params, &SchurUpdate,
                             map, &(*factors)[f], &cbs[f], &(*counts)[f]);
    for (int32_t k = sym.child_ptr[f]; k < sym.child_ptr[f + 1]; ++k) {
      cbs[sym.children[k]] = internal::ContributionBlock();
    }
  }
  return absl::OkStatus();
}

}  // namespace factord::kernels::reference
