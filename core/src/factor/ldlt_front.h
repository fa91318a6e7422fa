// One front of the multifrontal LDL^T: assembly of the original entries and
// of the children's contribution blocks (extend-add), partial factorization
// of the fully summed columns with pivoting (kernels/common/dense_ldlt.h,
// blocked with BLAS 3 beyond 32 columns: src/factor/dense_ldlt_blocked.h),
// delayed pivots passed up in the contribution block (S2 §V push-back), and
// the Schur update of the contribution block through a backend kernel.
// Written once; the reference and cpu backends differ only in the Schur
// update kernel and in how the fronts of the tree are scheduled.
#ifndef FACTORD_SRC_FACTOR_LDLT_FRONT_H_
#define FACTORD_SRC_FACTOR_LDLT_FRONT_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "kernels/common/dense_ldlt.h"
#include "src/factor/ldlt_symbolic.h"

namespace factord::internal {

// The factor of one front: q pivots, the unit lower block L (rows: the q
// pivots then the contribution rows) and the block diagonal D.
struct FrontFactor {
  int32_t q = 0;
  std::vector<int32_t> rows;       // q + rc permuted variable indices
  std::vector<double> l;           // rows.size() x q, column-major
  std::vector<double> d_diag;      // q
  std::vector<double> d_off;       // q: D(t+1, t) for a 2x2 start, else 0
  std::vector<int8_t> pivot_size;  // q: 1, 2 (first of a pair), 0 (its
                                   // second) or -1 (a perturbed 1x1)
  int64_t bytes() const {
    return static_cast<int64_t>(rows.size() * sizeof(int32_t) +
                                (l.size() + d_diag.size() + d_off.size()) *
                                    sizeof(double) +
                                pivot_size.size());
  }
};

// What a front passes to its parent: the delayed variables first, then the
// update rows, with the full symmetric Schur complement over them.
struct ContributionBlock {
  int32_t num_delayed = 0;
  std::vector<int32_t> rows;   // rc permuted variable indices
  std::vector<double> values;  // rc x rc, column-major, both triangles
};

struct FrontCounts {
  int64_t delayed = 0;  // pivots this front passed to its parent
  int64_t two_by_two = 0;
  int64_t perturbed = 0;
  int64_t max_front = 0;
};

// S -= L W^T on the lower triangle of the r x r block S (leading dimension
// lds), with L and W r x q (leading dimensions ldl, ldw). The upper
// triangle of S is not read or written.
using SchurUpdateFn = void (*)(int r, int q, const double* l, int ldl,
                               const double* w, int ldw, double* s, int lds);

// Factorizes front f of `sym` with the permuted, scaled and shifted values
// `values` (sym.col_ptr[n] entries, in the order of sym.col_rows). The
// children's contribution blocks are read (and may be released by the
// caller afterwards). `map` has sym.n entries, all -1 on entry and on
// return (scratch for the local numbering). Fills `factor`, `cb` (left
// empty for a root) and adds to `counts`.
void FactorizeFront(const LdltSymbolic& sym, int32_t f,
                    std::span<const double> values,
                    std::span<const ContributionBlock* const> children,
                    const kernels::DenseLdltParams& params,
                    SchurUpdateFn schur_update, std::span<int32_t> map,
                    FrontFactor* factor, ContributionBlock* cb,
                    FrontCounts* counts);

}  // namespace factord::internal

#endif  // FACTORD_SRC_FACTOR_LDLT_FRONT_H_
