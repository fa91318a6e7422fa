// IKJ incomplete factorization on a fixed pattern (S4 eq. 1) with the
// shifted-IC breakdown strategy, and column-norm scaling (S4 §3).
//
// Why column-norm scaling barely matters here: with a unit L, the factor of
// S A S is (S L S^-1)(S U S) on the same pattern, the shifted matrix scales
// the same way (S (A + alpha diag A) S), and the scalar and block Jacobi
// iteration matrices of the scaled factors are S G S^-1, similarity
// transforms of the unscaled ones; PCG on the scaled preconditioner is the
// unscaled PCG in other coordinates. Only the tiny-pivot threshold and
// rounding differ, which the S4 tables measure (docs/s3_s4_comparison.md).
#include "core/incomplete/incomplete_numeric.h"

#include <algorithm>
#include <cmath>

namespace factord::internal {

absl::StatusOr<IncompleteValues> FactorIncompleteValues(
    const IncompletePattern& pattern, const CsrMatrix& a, bool ic,
    const ExecContext& ctx) {
  const int64_t n = pattern.n();
  const auto& rp = pattern.row_ptr;
  const auto& ci = pattern.col_idx;
  const auto& dg = pattern.diag;
  IncompleteValues out;
  out.lu.assign(ci.size(), 0.0);
  std::vector<double>& lu = out.lu;
  double max_diag = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      if (a.col_idx[p] == i) {
        max_diag = std::max(max_diag, std::abs(a.values[p]));
      }
    }
  }
  const double tiny = 1e-8 * (max_diag > 0 ? max_diag : 1.0);
  std::vector<int64_t> pos(n, -1);  // column -> position in the current row
  // One IKJ pass on A + alpha diag(A); returns the number of breakdowns,
  // each replaced by max(|a_ii|, tiny) (never 0) so that the pass can finish.
  auto factor_pass = [&](double alpha) -> absl::StatusOr<int64_t> {
    int64_t breakdowns = 0;
    std::fill(lu.begin(), lu.end(), 0.0);
    for (int64_t i = 0; i < n; ++i) {
      if ((i & 1023) == 0) {
        if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
      }
      for (int64_t p = rp[i]; p < rp[i + 1]; ++p) pos[ci[p]] = p;
      double a_ii = 0;
      for (int64_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
        const bool diagonal = a.col_idx[p] == i;
        const double v = a.values[p] * (diagonal ? 1.0 + alpha : 1.0);
        lu[pos[a.col_idx[p]]] = v;
        if (diagonal) a_ii = v;
      }
      // S4 eq. 1: l_ij = a_ij / u_jj, then row i -= l_ij * (row j of U),
      // restricted to the pattern.
      for (int64_t p = rp[i]; p < dg[i]; ++p) {
        const int32_t j = ci[p];
        const double lij = lu[p] / lu[dg[j]];
        lu[p] = lij;
        for (int64_t q = dg[j] + 1; q < rp[j + 1]; ++q) {
          const int64_t t = pos[ci[q]];
          if (t >= 0) lu[t] -= lij * lu[q];
        }
      }
      // Relative to the row's own diagonal, so that the test is invariant
      // under symmetric diagonal scaling: IPM blocks span many orders of
      // magnitude, and 1e-8 max|a_jj| flagged exact positive pivots of
      // diagonal H + D blocks as breakdowns (docs/s3_s4_comparison.md).
      const double threshold = a_ii != 0 ? 1e-8 * std::abs(a_ii) : tiny;
      double& pivot = lu[dg[i]];
      const bool breakdown =
          ic ? !(pivot > threshold) : !(std::abs(pivot) > threshold);
      if (breakdown) {
        pivot = std::max(std::abs(a_ii), tiny);
        ++breakdowns;
      }
      for (int64_t p = rp[i]; p < rp[i + 1]; ++p) pos[ci[p]] = -1;
    }
    return breakdowns;
  };
  // Manteuffel's shift, as used with S4's IC(0) on matrices whose IC breaks
  // down: alpha = 1e-3, doubled up to 10 times, until no pivot breaks down.
  for (int attempt = 0; attempt <= 11; ++attempt) {
    absl::StatusOr<int64_t> pass = factor_pass(out.alpha);
    if (!pass.ok()) return pass.status();
    out.breakdowns = *pass;
    if (out.breakdowns == 0 || attempt == 11) break;
    out.alpha = out.alpha == 0 ? 1e-3 : 2 * out.alpha;
  }
  return out;
}

std::vector<double> ColumnNormScaling(const CsrMatrix& a) {
  std::vector<double> sum(a.cols, 0.0);
  for (int64_t p = 0; p < a.nnz(); ++p) {
    sum[a.col_idx[p]] += a.values[p] * a.values[p];
  }
  std::vector<double> s(a.cols, 1.0);
  for (int64_t j = 0; j < a.cols; ++j) {
    const double norm = std::sqrt(sum[j]);
    if (norm > 0 && std::isfinite(norm)) s[j] = 1.0 / std::sqrt(norm);
  }
  return s;
}

void ScaleSymmetric(std::span<const double> s, CsrMatrix* a) {
  for (int64_t i = 0; i < a->rows; ++i) {
    for (int64_t p = a->row_ptr[i]; p < a->row_ptr[i + 1]; ++p) {
      a->values[p] *= s[i] * s[a->col_idx[p]];
    }
  }
}

}  // namespace factord::internal
