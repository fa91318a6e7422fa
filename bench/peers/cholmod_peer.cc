#include <cholmod.h>

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "core/base/timer.h"
#include "mumps_peer.h"

namespace factord::bench {

PeerResult RunCholmod(const CsrMatrix& a, std::span<const double> b) {
  PeerResult result;
  cholmod_common common;
  cholmod_l_start(&common);
  common.print = 0;
  // A CSR lower triangle read as CSC is the upper triangle: stype = +1.
  cholmod_sparse* s = cholmod_l_allocate_sparse(
      a.rows, a.rows, a.nnz(), /*sorted=*/1, /*packed=*/1, /*stype=*/1,
      CHOLMOD_REAL, &common);
  auto* p = static_cast<SuiteSparse_long*>(s->p);
  auto* i = static_cast<SuiteSparse_long*>(s->i);
  auto* x = static_cast<double*>(s->x);
  for (int64_t r = 0; r <= a.rows; ++r) p[r] = a.row_ptr[r];
  for (int64_t k = 0; k < a.nnz(); ++k) {
    i[k] = a.col_idx[k];
    x[k] = a.values[k];
  }
  Timer timer;
  cholmod_factor* l = cholmod_l_analyze(s, &common);
  result.analyze_s = timer.Seconds();
  result.factor_flops = common.fl;
  timer.Reset();
  cholmod_l_factorize(s, l, &common);
  result.factorize_s = timer.Seconds();
  if (common.status != CHOLMOD_OK || l->minor < l->n) {
    result.error = absl::StrCat("CHOLMOD status ", common.status,
                                ", not positive definite at column ", l->minor);
  } else {
    result.nnz_factor = static_cast<int64_t>(common.lnz);
    if (l->is_super) {
      const auto* pi = static_cast<const SuiteSparse_long*>(l->pi);
      for (size_t s = 0; s < l->nsuper; ++s) {
        result.largest_front =
            std::max<int64_t>(result.largest_front, pi[s + 1] - pi[s]);
      }
    }
    cholmod_dense* rhs =
        cholmod_l_allocate_dense(a.rows, 1, a.rows, CHOLMOD_REAL, &common);
    std::copy(b.begin(), b.end(), static_cast<double*>(rhs->x));
    timer.Reset();
    cholmod_dense* sol = cholmod_l_solve(CHOLMOD_A, l, rhs, &common);
    result.solve_s = timer.Seconds();
    const auto* sx = static_cast<const double*>(sol->x);
    result.x.assign(sx, sx + a.rows);
    result.negative_pivots = 0;
    result.ok = true;
    cholmod_l_free_dense(&sol, &common);
    cholmod_l_free_dense(&rhs, &common);
  }
  cholmod_l_free_factor(&l, &common);
  cholmod_l_free_sparse(&s, &common);
  cholmod_l_finish(&common);
  return result;
}

}  // namespace factord::bench
