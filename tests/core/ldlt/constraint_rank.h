// The rank of the constraint block A of a KKT matrix, computed without
// factord's ldlt, so that a test can say how many zero eigenvalues a
// saddle-point system [-E A^T; A 0] has (m - rank(A) for E positive
// definite) before asking ldlt.
//
// A splits into the connected components of its bipartite graph (rows and
// columns linked by entries); rank(A) is the sum of the components' ranks.
// A component whose shorter side is small gets LAPACK's SVD (dgesvd): its
// rank is the number of singular values above max(r, c) eps sigma_max. A
// larger one is certified to have full rank (its shorter side) by a sparse
// Cholesky factorization (CHOLMOD) of its Gram matrix G on the shorter
// side, A_c A_c^T or A_c^T A_c, which must be positive definite with
// CHOLMOD's estimate of 1 / cond(G) (about 1 / cond(A_c)^2) above
// kMinGramRcond; a larger component that fails this gets no rank (an
// error): its rank needs a dense SVD too large for a test.
#ifndef FACTORD_TESTS_CORE_LDLT_CONSTRAINT_RANK_H_
#define FACTORD_TESTS_CORE_LDLT_CONSTRAINT_RANK_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "cholmod.h"
#include "core/matrix/csr.h"

extern "C" void dgesvd_(const char* jobu, const char* jobvt, const int* m,
                        const int* n, double* a, const int* lda, double* s,
                        double* u, const int* ldu, double* vt, const int* ldvt,
                        double* work, const int* lwork, int* info);

namespace factord::testing {

// Components whose shorter side is at most this get the dense SVD.
inline constexpr int64_t kDenseRankMaxSide = 400;
// A Gram matrix whose Cholesky factor has min(diag L) / max(diag L) below
// this is not taken as a certificate of full rank: a rank-deficient one
// leaves a pivot at rounding level (about 1e-8 of the largest in L, the
// square root of eps relative to G).
inline constexpr double kMinGramRcond = 1e-6;

struct ConstraintRank {
  int64_t rows = 0;  // m
  int64_t cols = 0;  // columns of A (n1)
  int64_t rank = 0;
  int64_t components = 0;          // with at least one row
  int64_t gram_components = 0;     // certified by the Gram Cholesky
  double smallest_gram_rcond = 1;  // over those
};

namespace internal_rank {

// A dense r x c matrix's numerical rank by its singular values.
inline absl::StatusOr<int64_t> DenseRank(int r, int c, std::vector<double> a) {
  const int k = std::min(r, c);
  std::vector<double> s(k);
  int lwork = -1, info = 0, one = 1;
  double query = 0, unused = 0;
  dgesvd_("N", "N", &r, &c, a.data(), &r, s.data(), &unused, &one, &unused,
          &one, &query, &lwork, &info);
  lwork = static_cast<int>(query);
  std::vector<double> work(std::max(1, lwork));
  dgesvd_("N", "N", &r, &c, a.data(), &r, s.data(), &unused, &one, &unused,
          &one, work.data(), &lwork, &info);
  if (info != 0) {
    return absl::InternalError(absl::StrCat("dgesvd info ", info));
  }
  const double tol = std::max(r, c) * std::numeric_limits<double>::epsilon() *
                     (k > 0 ? s[0] : 0.0);
  return static_cast<int64_t>(
      std::count_if(s.begin(), s.end(), [&](double v) { return v > tol; }));
}

// Whether the r x c matrix (entries (row, col, value), local indices) has
// full rank min(r, c), by the Cholesky factorization of its Gram matrix on
// the shorter side; its min(diag L) / max(diag L) in *rcond.
inline absl::StatusOr<bool> GramIsDefinite(
    int r, int c, const std::vector<std::array<double, 3>>& entries,
    double* rcond) {
  cholmod_common cc;
  cholmod_start(&cc);
  cc.print = 0;
  // Rows of the Gram matrix: the shorter side. B = A when r <= c (G = A
  // A^T), else B = A^T (G = A^T A); B is stored by columns.
  const bool by_rows = r <= c;
  const int brows = by_rows ? r : c, bcols = by_rows ? c : r;
  cholmod_triplet* t = cholmod_allocate_triplet(brows, bcols, entries.size(), 0,
                                                CHOLMOD_REAL, &cc);
  auto* ti = static_cast<int*>(t->i);
  auto* tj = static_cast<int*>(t->j);
  auto* tx = static_cast<double*>(t->x);
  for (size_t k = 0; k < entries.size(); ++k) {
    const int row = static_cast<int>(entries[k][0]);
    const int col = static_cast<int>(entries[k][1]);
    ti[k] = by_rows ? row : col;
    tj[k] = by_rows ? col : row;
    tx[k] = entries[k][2];
  }
  t->nnz = entries.size();
  cholmod_sparse* b = cholmod_triplet_to_sparse(t, entries.size(), &cc);
  cholmod_sparse* g = cholmod_aat(b, nullptr, 0, 1, &cc);
  cholmod_sparse* upper = cholmod_copy(g, /*stype=*/1, /*mode=*/1, &cc);
  cholmod_factor* l = cholmod_analyze(upper, &cc);
  const bool ok = l != nullptr && cholmod_factorize(upper, l, &cc) != 0;
  const bool definite = ok && cc.status == CHOLMOD_OK && l->minor == l->n;
  *rcond = definite ? cholmod_rcond(l, &cc) : 0.0;
  const int status = cc.status;
  cholmod_free_factor(&l, &cc);
  cholmod_free_sparse(&upper, &cc);
  cholmod_free_sparse(&g, &cc);
  cholmod_free_sparse(&b, &cc);
  cholmod_free_triplet(&t, &cc);
  cholmod_finish(&cc);
  if (!ok && status != CHOLMOD_NOT_POSDEF) {
    return absl::InternalError(absl::StrCat("CHOLMOD status ", status));
  }
  return definite && *rcond > kMinGramRcond;
}

inline int64_t Find(std::vector<int64_t>& parent, int64_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

}  // namespace internal_rank

// rank(A) for the lower triangle `kkt` of [-E A^T; A F] whose first `n1`
// rows are E's: A is rows n1.. by columns 0..n1-1.
inline absl::StatusOr<ConstraintRank> RankOfConstraintBlock(
    const CsrMatrix& kkt, int64_t n1) {
  using internal_rank::Find;
  const int64_t n = kkt.rows, m = n - n1;
  ConstraintRank out;
  out.rows = m;
  out.cols = n1;
  // Nodes: columns 0..n1-1, rows n1..n-1 (their KKT indices).
  std::vector<int64_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (int64_t i = n1; i < n; ++i) {
    for (int64_t k = kkt.row_ptr[i]; k < kkt.row_ptr[i + 1]; ++k) {
      const int64_t j = kkt.col_idx[k];
      if (j < n1) parent[Find(parent, i)] = Find(parent, j);
    }
  }
  // Each component's rows and columns, in increasing order.
  std::vector<int64_t> component(n, -1), local(n);
  std::vector<int64_t> rows_of, cols_of;  // per component
  for (int64_t v = 0; v < n; ++v) {
    const int64_t root = Find(parent, v);
    if (component[root] < 0) {
      component[root] = static_cast<int64_t>(rows_of.size());
      rows_of.push_back(0);
      cols_of.push_back(0);
    }
    const int64_t c = component[root];
    component[v] = c;
    local[v] = v < n1 ? cols_of[c]++ : rows_of[c]++;
  }
  std::vector<std::vector<std::array<double, 3>>> entries(rows_of.size());
  for (int64_t i = n1; i < n; ++i) {
    for (int64_t k = kkt.row_ptr[i]; k < kkt.row_ptr[i + 1]; ++k) {
      const int64_t j = kkt.col_idx[k];
      if (j >= n1 || kkt.values[k] == 0.0) continue;
      entries[component[i]].push_back({static_cast<double>(local[i]),
                                       static_cast<double>(local[j]),
                                       kkt.values[k]});
    }
  }
  for (size_t c = 0; c < rows_of.size(); ++c) {
    const int r = static_cast<int>(rows_of[c]);
    const int cols = static_cast<int>(cols_of[c]);
    if (r == 0) continue;  // columns only: no constraint
    ++out.components;
    if (entries[c].empty()) continue;  // an empty row: rank 0
    if (std::min(r, cols) <= kDenseRankMaxSide) {
      std::vector<double> dense(static_cast<size_t>(r) * cols, 0.0);
      for (const auto& e : entries[c]) {
        dense[static_cast<size_t>(e[1]) * r + static_cast<size_t>(e[0])] +=
            e[2];
      }
      absl::StatusOr<int64_t> rank =
          internal_rank::DenseRank(r, cols, std::move(dense));
      if (!rank.ok()) return rank.status();
      out.rank += *rank;
      continue;
    }
    double rcond = 0;
    absl::StatusOr<bool> definite =
        internal_rank::GramIsDefinite(r, cols, entries[c], &rcond);
    if (!definite.ok()) return definite.status();
    if (!*definite) {
      return absl::FailedPreconditionError(absl::StrCat(
          "a ", r, " x ", cols,
          " component of A is not certified full rank by its Gram matrix "
          "(min(diag L) / max(diag L) = ",
          rcond, "); its rank needs a dense SVD"));
    }
    ++out.gram_components;
    out.smallest_gram_rcond = std::min(out.smallest_gram_rcond, rcond);
    out.rank += std::min(r, cols);
  }
  return out;
}

}  // namespace factord::testing

#endif  // FACTORD_TESTS_CORE_LDLT_CONSTRAINT_RANK_H_
