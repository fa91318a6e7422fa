// ic and ilu (S4): level-based incomplete factorizations ILU(k) / IC(k) used
// as Krylov preconditioners.
//
// Analysis: symbolic level-of-fill on the full (expanded) pattern in natural
// order (S4 §2.1: lev(a_ij) = 0 for nonzeros, fill (i,j) gets
// lev_ik + lev_kj + 1 and is kept when <= k = FactorOptions.fill_level).
// Reused when only values change.
// Factorization: the IKJ ILU on that pattern, per call. For ic the matrix is
// symmetric, so the ILU on a symmetric pattern yields U = D L^T, i.e. the
// IC(k) factor in LDL^T form (S4 eq. 1). IC breakdown (a non-positive pivot)
// restarts the factorization on A + alpha diag(A), alpha = 1e-3 doubled up
// to 10 times (Manteuffel shift); reported in FactorReport.message and
// perturbed_pivots (see FactorizeIncomplete).
// Solve: z = U^{-1} L^{-1} r with trisolve exact (forward/backward
// substitution) or jacobi: trisolve_sweeps sweeps x_{k+1} = D^{-1}(b - (T-D)
// x_k) from x_0 = D^{-1} b (S4 eqs. 2-3). block_jacobi (S4 eqs. 4-5) is not
// implemented yet and returns UNIMPLEMENTED.
// Ordering: RCM by default (ordering auto), any ComputeOrdering choice
// otherwise; the factor is of P A P^T and Apply permutes r and z.
// Scaling: not applied. With exact trisolves IC(k)/ILU(k) of D A D is
// D L D^-1 (D^-1 U D) of the same pattern, i.e. the same preconditioned
// iteration; the Jacobi sweeps on D L D^-1 are a similarity transform of
// those on L, so column-norm scaling would only move the breakdown threshold.
#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "factord/base/timer.h"
#include "factord/krylov/operator.h"
#include "factord/krylov/preconditioned_solve.h"
#include "factord/order/ordering.h"
#include "factord/order/rcm.h"
#include "src/solver/methods.h"

namespace factord::internal {
namespace {

// Pattern of L+U (unit L strictly lower, U upper with diagonal), rows sorted.
class IncompleteAnalysis final : public Analysis {
 public:
  IncompleteAnalysis(Method method, int64_t n, std::vector<int64_t> row_ptr,
                     std::vector<int32_t> col_idx, std::vector<int64_t> diag,
                     std::vector<int32_t> perm)
      : method_(method),
        n_(n),
        row_ptr_(std::move(row_ptr)),
        col_idx_(std::move(col_idx)),
        diag_(std::move(diag)),
        perm_(std::move(perm)) {}
  Method method() const override { return method_; }
  int64_t bytes() const override {
    return row_ptr_.size() * 16 + col_idx_.size() * 4;
  }
  int64_t factor_bytes_estimate() const override {
    return col_idx_.size() * 12 + row_ptr_.size() * 8;
  }
  int64_t n() const { return n_; }
  const std::vector<int64_t>& row_ptr() const { return row_ptr_; }
  const std::vector<int32_t>& col_idx() const { return col_idx_; }
  const std::vector<int64_t>& diag() const { return diag_; }
  // perm[new] = old, size n.
  const std::vector<int32_t>& perm() const { return perm_; }

 private:
  Method method_;
  int64_t n_;
  std::vector<int64_t> row_ptr_;
  std::vector<int32_t> col_idx_;
  std::vector<int64_t> diag_;  // position of (i,i) in row i
  std::vector<int32_t> perm_;
};

// P A P^T of the general matrix `full` with perm[new] = old; rows sorted.
CsrMatrix PermuteSymmetric(const CsrMatrix& full,
                           const std::vector<int32_t>& perm) {
  const std::vector<int32_t> inverse = InversePermutation(perm);
  CsrMatrix out;
  out.rows = out.cols = full.rows;
  out.structure = Structure::kGeneral;
  out.row_ptr.assign(1, 0);
  std::vector<std::pair<int32_t, double>> row;
  for (int64_t k = 0; k < full.rows; ++k) {
    const int32_t old = perm[k];
    row.clear();
    for (int64_t p = full.row_ptr[old]; p < full.row_ptr[old + 1]; ++p) {
      row.emplace_back(inverse[full.col_idx[p]], full.values[p]);
    }
    std::sort(row.begin(), row.end());
    for (const auto& [c, v] : row) {
      out.col_idx.push_back(c);
      out.values.push_back(v);
    }
    out.row_ptr.push_back(static_cast<int64_t>(out.col_idx.size()));
  }
  return out;
}

// z = U^{-1} L^{-1} r on the combined factor.
class IncompletePreconditioner final : public Preconditioner {
 public:
  IncompletePreconditioner(std::shared_ptr<const IncompleteAnalysis> pattern,
                           std::vector<double> lu, TriangularSolve trisolve,
                           int sweeps)
      : pattern_(std::move(pattern)),
        lu_(std::move(lu)),
        trisolve_(trisolve),
        sweeps_(sweeps) {}
  int64_t size() const override { return pattern_->n(); }
  int64_t bytes() const { return lu_.size() * sizeof(double); }

  void Apply(const ExecContext&, std::span<const double> r,
             std::span<double> z) const override {
    const int64_t n = pattern_->n();
    const auto& perm = pattern_->perm();
    std::vector<double> rp(n), y(n), zp(n);
    for (int64_t k = 0; k < n; ++k) rp[k] = r[perm[k]];
    if (trisolve_ == TriangularSolve::kExact) {
      Forward(rp, y);
      Backward(y, zp);
    } else {
      // S4 eq. 3: x_{k+1} = D^{-1}(b - (T - D) x_k), D = diag(T); for unit
      // L D = I. Fixed number of sweeps, no convergence test.
      JacobiSweeps(/*lower=*/true, rp, y);
      JacobiSweeps(/*lower=*/false, y, zp);
    }
    for (int64_t k = 0; k < n; ++k) z[perm[k]] = zp[k];
  }

 private:
  void Forward(std::span<const double> b, std::span<double> y) const {
    const auto& rp = pattern_->row_ptr();
    const auto& ci = pattern_->col_idx();
    const auto& dg = pattern_->diag();
    for (int64_t i = 0; i < pattern_->n(); ++i) {
      double s = b[i];
      for (int64_t p = rp[i]; p < dg[i]; ++p) s -= lu_[p] * y[ci[p]];
      y[i] = s;
    }
  }
  void Backward(std::span<const double> y, std::span<double> x) const {
    const auto& rp = pattern_->row_ptr();
    const auto& ci = pattern_->col_idx();
    const auto& dg = pattern_->diag();
    for (int64_t i = pattern_->n() - 1; i >= 0; --i) {
      double s = y[i];
      for (int64_t p = dg[i] + 1; p < rp[i + 1]; ++p) s -= lu_[p] * x[ci[p]];
      x[i] = s / lu_[dg[i]];
    }
  }
  void JacobiSweeps(bool lower, std::span<const double> b,
                    std::span<double> x) const {
    const auto& rp = pattern_->row_ptr();
    const auto& ci = pattern_->col_idx();
    const auto& dg = pattern_->diag();
    const int64_t n = pattern_->n();
    auto d = [&](int64_t i) { return lower ? 1.0 : lu_[dg[i]]; };
    for (int64_t i = 0; i < n; ++i) x[i] = b[i] / d(i);
    std::vector<double> prev(n);
    for (int s = 1; s < sweeps_; ++s) {
      std::copy(x.begin(), x.end(), prev.begin());
      for (int64_t i = 0; i < n; ++i) {
        double acc = b[i];
        const int64_t lo = lower ? rp[i] : dg[i] + 1;
        const int64_t hi = lower ? dg[i] : rp[i + 1];
        for (int64_t p = lo; p < hi; ++p) acc -= lu_[p] * prev[ci[p]];
        x[i] = acc / d(i);
      }
    }
  }

  std::shared_ptr<const IncompleteAnalysis> pattern_;
  std::vector<double> lu_;
  TriangularSolve trisolve_;
  int sweeps_;
};

class IncompleteFactorization final : public Factorization {
 public:
  IncompleteFactorization(Method method, std::shared_ptr<const CsrMatrix> a,
                          std::shared_ptr<const CsrMatrix> full,
                          std::unique_ptr<IncompletePreconditioner> m,
                          FactorReport report)
      : method_(method),
        a_(std::move(a)),
        full_(std::move(full)),
        m_(std::move(m)),
        report_(std::move(report)) {}
  const FactorReport& report() const override { return report_; }
  int64_t bytes() const override {
    return (full_ != a_ ? full_->bytes() : 0) + m_->bytes();
  }
  absl::Status Solve(std::span<const double> b, std::span<double> x,
                     const SolveOptions& options, const ExecContext& ctx,
                     SolveReport* report) const override {
    Timer timer;
    if (static_cast<int64_t>(b.size()) != full_->rows ||
        static_cast<int64_t>(x.size()) != full_->rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("right-hand side and solution need ", full_->rows,
                       " entries, got ", b.size(), " and ", x.size()));
    }
    Krylov krylov = options.krylov;
    if (krylov == Krylov::kAuto) {
      krylov = method_ == Method::kIc ? Krylov::kCg : Krylov::kGmres;
    }
    if (krylov == Krylov::kNone) {
      return absl::InvalidArgumentError(
          "ic/ilu are preconditioners and need a Krylov method");
    }
    if (absl::Status s = SolvePreconditioned(*full_, *a_, *m_, krylov, b, x,
                                             options, ctx, report);
        !s.ok()) {
      return s;
    }
    report->solve_s = timer.Seconds();
    return absl::OkStatus();
  }

 private:
  Method method_;
  std::shared_ptr<const CsrMatrix> a_;
  std::shared_ptr<const CsrMatrix> full_;
  std::unique_ptr<IncompletePreconditioner> m_;
  FactorReport report_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeIncomplete(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx) {
  Timer timer;
  if (a.rows != a.cols) {
    return absl::InvalidArgumentError("ic/ilu need a square matrix");
  }
  if (options.method == Method::kIc && !IsSymmetric(a.structure)) {
    return absl::InvalidArgumentError(
        "ic needs a symmetric (lower) matrix; use ilu");
  }
  if (options.fill_level < 0) {
    return absl::InvalidArgumentError("fill_level must be >= 0");
  }
  if (options.trisolve == TriangularSolve::kBlockJacobi) {
    return absl::UnimplementedError(
        "trisolve=block_jacobi for ic/ilu is not implemented yet");
  }
  const CsrMatrix expanded = IsSymmetric(a.structure) ? ExpandSymmetric(a) : a;
  std::vector<int32_t> perm;
  if (options.ordering == Ordering::kAuto) {
    perm = ReverseCuthillMcKee(expanded);
  } else {
    absl::StatusOr<std::vector<int32_t>> ordering =
        ComputeOrdering(expanded, options.ordering);
    if (!ordering.ok()) return ordering.status();
    perm = *std::move(ordering);
  }
  const CsrMatrix full = PermuteSymmetric(expanded, perm);
  const int64_t n = a.rows;
  const int k = options.fill_level;
  // S4 §2.1 symbolic ILU(k): row i merges the rows of its pivots in order.
  std::vector<int64_t> rp{0};
  std::vector<int32_t> ci;
  std::vector<int> lev_all;
  std::vector<int64_t> dg(n);
  std::vector<int> level(n, -1);  // dense work row, -1 = absent
  std::vector<int32_t> cols;
  for (int64_t i = 0; i < n; ++i) {
    if ((i & 1023) == 0) {
      if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
    }
    cols.clear();
    for (int64_t p = full.row_ptr[i]; p < full.row_ptr[i + 1]; ++p) {
      level[full.col_idx[p]] = 0;
      cols.push_back(full.col_idx[p]);
    }
    if (level[i] < 0) {
      level[i] = 0;
      cols.push_back(static_cast<int32_t>(i));
    }
    // Process pivots j < i in increasing order (cols grows with fill).
    std::sort(cols.begin(), cols.end());
    for (size_t t = 0; t < cols.size() && cols[t] < i; ++t) {
      const int32_t j = cols[t];
      const int lij = level[j];
      for (int64_t q = dg[j] + 1; q < rp[j + 1]; ++q) {
        const int32_t c = ci[q];
        const int lev = lij + lev_all[q] + 1;
        if (lev > k) continue;
        if (level[c] < 0) {
          level[c] = lev;
          // Keep cols sorted beyond t.
          cols.insert(std::upper_bound(cols.begin() + t + 1, cols.end(), c), c);
        } else {
          level[c] = std::min(level[c], lev);
        }
      }
    }
    for (int32_t c : cols) {
      if (c == i) dg[i] = static_cast<int64_t>(ci.size());
      ci.push_back(c);
      lev_all.push_back(level[c]);
      level[c] = -1;
    }
    rp.push_back(static_cast<int64_t>(ci.size()));
  }
  auto analysis = std::make_shared<IncompleteAnalysis>(
      options.method, n, std::move(rp), std::move(ci), std::move(dg),
      std::move(perm));
  analysis->analyze_s = timer.Seconds();
  return analysis;
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeIncomplete(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx) {
  auto pattern = std::dynamic_pointer_cast<const IncompleteAnalysis>(analysis);
  if (a == nullptr || pattern == nullptr || pattern->n() != a->rows ||
      pattern->method() != options.method) {
    return absl::InvalidArgumentError(
        "FactorizeIncomplete needs an ic/ilu analysis of this matrix");
  }
  if (options.trisolve == TriangularSolve::kBlockJacobi) {
    return absl::UnimplementedError(
        "trisolve=block_jacobi for ic/ilu is not implemented yet");
  }
  if (options.trisolve == TriangularSolve::kJacobi &&
      options.trisolve_sweeps < 1) {
    return absl::InvalidArgumentError("trisolve_sweeps must be >= 1");
  }
  FactorReport report;
  report.analyze_s = analysis->analyze_s;
  Timer timer;
  std::shared_ptr<const CsrMatrix> full =
      IsSymmetric(a->structure)
          ? std::make_shared<const CsrMatrix>(ExpandSymmetric(*a))
          : a;
  const CsrMatrix permuted = PermuteSymmetric(*full, pattern->perm());
  const int64_t n = a->rows;
  const auto& rp = pattern->row_ptr();
  const auto& ci = pattern->col_idx();
  const auto& dg = pattern->diag();
  std::vector<double> lu(ci.size(), 0.0);
  double max_diag = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = permuted.row_ptr[i]; p < permuted.row_ptr[i + 1]; ++p) {
      if (permuted.col_idx[p] == i) {
        max_diag = std::max(max_diag, std::abs(permuted.values[p]));
      }
    }
  }
  const double tiny = 1e-8 * (max_diag > 0 ? max_diag : 1.0);
  std::vector<int64_t> pos(n, -1);  // column -> position in current row
  // One IKJ pass on A + alpha diag(A); returns the number of breakdowns
  // (non-positive pivots for ic, |pivot| <= tiny for ilu), each replaced by
  // max(|a_ii|, tiny) so that the pass can finish.
  auto factor_pass = [&](double alpha) -> absl::StatusOr<int64_t> {
    int64_t breakdowns = 0;
    std::fill(lu.begin(), lu.end(), 0.0);
    for (int64_t i = 0; i < n; ++i) {
      if ((i & 1023) == 0) {
        if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
      }
      for (int64_t p = rp[i]; p < rp[i + 1]; ++p) pos[ci[p]] = p;
      double a_ii = 0;
      for (int64_t p = permuted.row_ptr[i]; p < permuted.row_ptr[i + 1]; ++p) {
        const bool diagonal = permuted.col_idx[p] == i;
        const double v = permuted.values[p] * (diagonal ? 1.0 + alpha : 1.0);
        lu[pos[permuted.col_idx[p]]] = v;
        if (diagonal) a_ii = v;
      }
      // IKJ elimination restricted to the pattern (S4 eq. 1).
      for (int64_t p = rp[i]; p < dg[i]; ++p) {
        const int32_t j = ci[p];
        const double lij = lu[p] / lu[dg[j]];
        lu[p] = lij;
        for (int64_t q = dg[j] + 1; q < rp[j + 1]; ++q) {
          const int64_t t = pos[ci[q]];
          if (t >= 0) lu[t] -= lij * lu[q];
        }
      }
      double& pivot = lu[dg[i]];
      const bool breakdown = options.method == Method::kIc
                                 ? !(pivot > tiny)
                                 : !(std::abs(pivot) > tiny);
      if (breakdown) {
        pivot = std::max(std::abs(a_ii), tiny);
        ++breakdowns;
      }
      for (int64_t p = rp[i]; p < rp[i + 1]; ++p) pos[ci[p]] = -1;
    }
    return breakdowns;
  };
  // Breakdown strategy (Manteuffel's shifted IC, as used with S4's IC(0)):
  // refactor A + alpha diag(A) with alpha = 1e-3, doubled up to 10 times,
  // until no pivot breaks down; the last attempt keeps its replaced pivots.
  // FactorReport.perturbed_pivots counts the pivots replaced in the factor
  // that is used; the message states alpha.
  double alpha = 0;
  int64_t breakdowns = 0;
  for (int attempt = 0; attempt <= 11; ++attempt) {
    absl::StatusOr<int64_t> pass = factor_pass(alpha);
    if (!pass.ok()) return pass.status();
    breakdowns = *pass;
    if (breakdowns == 0 || attempt == 11) break;
    alpha = alpha == 0 ? 1e-3 : 2 * alpha;
  }
  report.perturbed_pivots = breakdowns;
  if (alpha > 0 || breakdowns > 0) {
    report.message = absl::StrCat(
        "incomplete factorization broke down; factored A + ", alpha, " diag(A)",
        breakdowns > 0 ? absl::StrCat(", ", breakdowns,
                                      " pivots still replaced by "
                                      "max(|a_ii|, 1e-8 max|a_jj|)")
                       : std::string());
  }
  report.nnz_factor = static_cast<int64_t>(ci.size());
  report.factorize_s = timer.Seconds();
  auto m = std::make_unique<IncompletePreconditioner>(
      pattern, std::move(lu), options.trisolve, options.trisolve_sweeps);
  report.factor_bytes = (full != a ? full->bytes() : 0) + m->bytes();
  return std::make_shared<IncompleteFactorization>(
      options.method, std::move(a), std::move(full), std::move(m),
      std::move(report));
}

}  // namespace factord::internal
