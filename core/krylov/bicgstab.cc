// BiCGStab (van der Vorst 1992; Saad, Iterative Methods, Alg. 7.7) with
// right preconditioning: the recursive residual is that of A x = b, and the
// driver checks the true one whenever it claims convergence.
#include "core/krylov/bicgstab.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/krylov/true_residual_driver.h"
#include "core/linalg/blas.h"

namespace factord {

absl::StatusOr<KrylovResult> SolveBicgstab(
    const LinearOperator& a, const Preconditioner& m, std::span<const double> b,
    std::span<double> x, const KrylovOptions& options, const ExecContext& ctx) {
  const int64_t n = a.size();
  std::vector<double> r(n), r_hat(n), p(n), p_hat(n), v(n), s(n), s_hat(n),
      t(n);
  auto cycle = [&](std::span<double> x, std::span<const double> r0, double,
                   int budget,
                   double target) -> absl::StatusOr<internal::CycleOutcome> {
    internal::CycleOutcome out;
    linalg::Copy(ctx, r0, r);
    linalg::Copy(ctx, r0, r_hat);  // shadow residual
    std::fill(p.begin(), p.end(), 0.0);
    std::fill(v.begin(), v.end(), 0.0);
    double rho = 1, alpha = 1, omega = 1;
    while (out.iterations < budget) {
      if (absl::Status st = ctx.CheckCancelled(); !st.ok()) return st;
      const double rho_next = linalg::Dot(ctx, r_hat, r);
      if (rho_next == 0 || !std::isfinite(rho_next)) {
        out.breakdown = true;
        out.message = absl::StrFormat("rhat'r = %g", rho_next);
        return out;
      }
      const double beta = (rho_next / rho) * (alpha / omega);
      rho = rho_next;
      linalg::Axpy(ctx, -omega, v, p);  // p = r + beta (p - omega v)
      linalg::Axpby(ctx, 1.0, r, beta, p);
      m.Apply(ctx, p, p_hat);  // p_hat = M^{-1} p
      a.Apply(ctx, p_hat, v);  // v = A p_hat
      ++out.iterations;
      const double rv = linalg::Dot(ctx, r_hat, v);
      if (rv == 0 || !std::isfinite(rv)) {
        out.breakdown = true;
        out.message = absl::StrFormat("rhat'A p = %g", rv);
        return out;
      }
      alpha = rho / rv;
      linalg::Copy(ctx, r, s);  // s = r - alpha v
      linalg::Axpy(ctx, -alpha, v, s);
      if (linalg::Norm2(ctx, s) <= target) {
        linalg::Axpy(ctx, alpha, p_hat, x);
        out.estimate_converged = true;
        return out;
      }
      if (out.iterations >= budget) {  // half step: keep the BiCG iterate
        linalg::Axpy(ctx, alpha, p_hat, x);
        return out;
      }
      if (absl::Status st = ctx.CheckCancelled(); !st.ok()) return st;
      m.Apply(ctx, s, s_hat);  // s_hat = M^{-1} s
      a.Apply(ctx, s_hat, t);  // t = A s_hat
      ++out.iterations;
      const double tt = linalg::Dot(ctx, t, t);
      omega = tt > 0 ? linalg::Dot(ctx, t, s) / tt : 0.0;
      if (omega == 0 || !std::isfinite(omega)) {
        linalg::Axpy(ctx, alpha, p_hat, x);  // the BiCG half step is valid
        out.breakdown = true;
        out.message = absl::StrFormat("omega = %g", omega);
        return out;
      }
      linalg::Axpy(ctx, alpha, p_hat, x);  // x += alpha p_hat + omega s_hat
      linalg::Axpy(ctx, omega, s_hat, x);
      linalg::Copy(ctx, s, r);  // r = s - omega t
      linalg::Axpy(ctx, -omega, t, r);
      if (linalg::Norm2(ctx, r) <= target) {
        out.estimate_converged = true;
        return out;
      }
    }
    return out;
  };
  return internal::RunWithTrueResidual("bicgstab", a, m, b, x, options, ctx,
                                       cycle);
}

}  // namespace factord
