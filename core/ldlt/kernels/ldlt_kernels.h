// Kernels of the multifrontal LDL^T (method ldlt): the Schur update of a
// contribution block and the traversal of the front tree. One signature,
// two implementations: `reference` runs the fronts one after another in
// postorder with a plain-loop Schur update (the source of truth), `cpu`
// runs independent subtrees as TBB tasks on an arena of ctx.threads, does
// the Schur update with BLAS 3 (dgemm on column panels of the lower
// triangle) and lets large fronts try the unpivoted blocked kernel first,
// then the blocked a-posteriori pivoting kernel. Both keep the contribution
// blocks of a postorder run on the thread's workspace stack
// (core/ldlt/kernels/front_types.h); a block that crosses threads (the top
// of a parallel subtree), or that would make the stack grow past its
// capacity, lives on the heap. Every front is processed by the same code
// (core/ldlt/kernels/front.cc). Where the cpu backend's unpivoted kernel
// takes a whole front, the pivots are the ones the reference's pivoting
// kernel takes; where the a-posteriori kernel takes part of it, the pivot
// order differs and both factors meet the same threshold.
#ifndef FACTORD_LDLT_KERNELS_LDLT_KERNELS_H_
#define FACTORD_LDLT_KERNELS_LDLT_KERNELS_H_

#include <span>
#include <vector>

#include "absl/status/status.h"
#include "core/base/exec_context.h"
#include "core/dense/kernels/dense_ldlt.h"
#include "core/ldlt/kernels/front_types.h"
#include "core/ldlt/kernels/symbolic_types.h"

namespace factord::kernels {

namespace reference {
// S -= L W^T on the lower triangle (see internal::SchurUpdateFn).
void SchurUpdate(int r, int q, const double* l, int ldl, const double* w,
                 int ldw, double* s, int lds);
// Factorizes every front of `sym` with `values` (sym.col_ptr[n] permuted,
// scaled and shifted values). factors is allocated (FrontFactors::Allocate)
// and gets sym.num_fronts() fronts, counts as many entries. Returns
// Cancelled/DeadlineExceeded from ctx, checked per front.
absl::Status FactorizeFrontTree(const ExecContext& ctx,
                                const internal::LdltSymbolic& sym,
                                std::span<const double> values,
                                const DenseLdltParams& params,
                                internal::FrontFactors* factors,
                                std::vector<internal::FrontCounts>* counts);
}  // namespace reference

namespace cpu {
void SchurUpdate(int r, int q, const double* l, int ldl, const double* w,
                 int ldw, double* s, int lds);
absl::Status FactorizeFrontTree(const ExecContext& ctx,
                                const internal::LdltSymbolic& sym,
                                std::span<const double> values,
                                const DenseLdltParams& params,
                                internal::FrontFactors* factors,
                                std::vector<internal::FrontCounts>* counts);
}  // namespace cpu

}  // namespace factord::kernels

#endif  // FACTORD_LDLT_KERNELS_LDLT_KERNELS_H_
