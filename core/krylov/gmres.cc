// Restarted GMRES(m) with right preconditioning (Saad & Schultz 1986; Saad,
// Iterative Methods, Alg. 9.5). The Arnoldi basis V of A M^{-1} is built
// with modified Gram-Schmidt; Givens rotations keep the Hessenberg matrix
// triangular so that |g(j+1)| is the residual norm of the least-squares
// iterate without forming it. At the end of a cycle x += M^{-1} V y.
#include "core/krylov/gmres.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/krylov/true_residual_driver.h"
#include "core/linalg/blas.h"

namespace factord {

absl::StatusOr<KrylovResult> SolveGmres(
    const LinearOperator& a, const Preconditioner& m, std::span<const double> b,
    std::span<double> x, const KrylovOptions& options, const ExecContext& ctx) {
  if (options.restart < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("gmres: restart must be >= 1, got ", options.restart));
  }
  const int64_t n = a.size();
  const int restart = options.restart;
  std::vector<std::vector<double>> v;  // Arnoldi basis, allocated lazily
  std::vector<double> z(n), w(n);
  // h is (restart + 1) x restart, column-major: h[j * (restart + 1) + i].
  std::vector<double> h((restart + 1) * restart), cs(restart), sn(restart),
      g(restart + 1), y(restart);
  auto H = [&](int i, int j) -> double& { return h[j * (restart + 1) + i]; };

  auto cycle = [&](std::span<double> x, std::span<const double> r0,
                   double r_norm, int budget,
                   double target) -> absl::StatusOr<internal::CycleOutcome> {
    internal::CycleOutcome out;
    const int dim = std::min(restart, budget);
    if (static_cast<int>(v.size()) < dim + 1) {
      v.resize(dim + 1, std::vector<double>(n));
    }
    linalg::Axpby(ctx, 1.0 / r_norm, r0, 0.0, v[0]);  // v0 = r / ||r||
    std::fill(g.begin(), g.end(), 0.0);
    g[0] = r_norm;
    int k = 0;  // columns of the Hessenberg matrix built
    bool lucky = false;
    for (int j = 0; j < dim; ++j) {
      if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
      m.Apply(ctx, v[j], z);  // w = A M^{-1} v_j
      a.Apply(ctx, z, w);
      ++out.iterations;
      const double w_norm0 = linalg::Norm2(ctx, w);
      for (int i = 0; i <= j; ++i) {  // modified Gram-Schmidt
        H(i, j) = linalg::Dot(ctx, w, v[i]);
        linalg::Axpy(ctx, -H(i, j), v[i], w);
      }
      H(j + 1, j) = linalg::Norm2(ctx, w);
      if (!internal::AllFinite({w_norm0, H(j + 1, j)})) {
        out.breakdown = true;
        out.message = "A M^{-1} v is not finite";
        break;  // k columns so far remain usable
      }
      // Lucky breakdown: the Krylov space is invariant.
      lucky = H(j + 1, j) <= 1e-14 * w_norm0;
      if (!lucky) linalg::Axpby(ctx, 1.0 / H(j + 1, j), w, 0.0, v[j + 1]);
      for (int i = 0; i < j; ++i) {  // previous rotations on column j
        const double t = cs[i] * H(i, j) + sn[i] * H(i + 1, j);
        H(i + 1, j) = -sn[i] * H(i, j) + cs[i] * H(i + 1, j);
        H(i, j) = t;
      }
      const double d = std::hypot(H(j, j), H(j + 1, j));
      cs[j] = d > 0 ? H(j, j) / d : 1.0;
      sn[j] = d > 0 ? H(j + 1, j) / d : 0.0;
      H(j, j) = d;
      H(j + 1, j) = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] *= cs[j];
      k = j + 1;
      if (std::abs(g[j + 1]) <= target) {
        out.estimate_converged = true;
        break;
      }
      if (lucky) break;
    }
    // Back substitution R y = g on the first k columns; a zero diagonal
    // means A M^{-1} is singular on the Krylov space: use the columns before
    // it and report a breakdown.
    for (int i = 0; i < k; ++i) {
      if (!(std::abs(H(i, i)) > 0)) {
        out.breakdown = true;
        out.estimate_converged = false;
        out.message = absl::StrFormat(
            "singular Hessenberg matrix at column %d (A M^{-1} singular on "
            "the Krylov space)",
            i);
        k = i;
        break;
      }
    }
    for (int i = k - 1; i >= 0; --i) {
      double sum = g[i];
      for (int l = i + 1; l < k; ++l) sum -= H(i, l) * y[l];
      y[i] = sum / H(i, i);
    }
    if (k > 0) {
      std::fill(w.begin(), w.end(), 0.0);  // x += M^{-1} (V y)
      for (int i = 0; i < k; ++i) linalg::Axpy(ctx, y[i], v[i], w);
      m.Apply(ctx, w, z);
      linalg::Axpy(ctx, 1.0, z, x);
    }
    return out;
  };
  return internal::RunWithTrueResidual("gmres", a, m, b, x, options, ctx,
                                       cycle);
}

}  // namespace factord
