// Symmetric QMR (Freund & Nachtigal, "A new Krylov-subspace method for
// symmetric indefinite linear systems", 1994, Alg. 2 with M1 = I, M2 = M):
// a BCG-like Lanczos recurrence in the M-inner product with QMR smoothing,
// so that A and M may both be symmetric indefinite (S1 §IV-C). The residual
// of the smoothed iterate is carried along by the same recurrence as its
// update d (A d is updated with A q, no extra product) and decides when the
// driver checks the true residual.
#include "core/krylov/sqmr.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/krylov/true_residual_driver.h"
#include "core/linalg/blas.h"

namespace factord {

absl::StatusOr<KrylovResult> SolveSqmr(
    const LinearOperator& a, const Preconditioner& m, std::span<const double> b,
    std::span<double> x, const KrylovOptions& options, const ExecContext& ctx) {
  const int64_t n = a.size();
  std::vector<double> r(n), rx(n), q(n), t(n), u(n), d(n), ad(n);
  auto cycle = [&](std::span<double> x, std::span<const double> r0,
                   double r_norm, int budget,
                   double target) -> absl::StatusOr<internal::CycleOutcome> {
    internal::CycleOutcome out;
    linalg::Copy(ctx, r0, r);   // BCG residual
    linalg::Copy(ctx, r0, rx);  // residual of the QMR iterate x
    m.Apply(ctx, r, q);         // q = M^{-1} r
    double tau = r_norm;
    double theta = 0;
    double rho = linalg::Dot(ctx, r, q);  // rho = r' M^{-1} r
    if (rho == 0 || !std::isfinite(rho)) {
      out.breakdown = true;
      out.message = absl::StrFormat("r'M^{-1}r = %g", rho);
      return out;
    }
    std::fill(d.begin(), d.end(), 0.0);
    std::fill(ad.begin(), ad.end(), 0.0);
    while (out.iterations < budget) {
      if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
      a.Apply(ctx, q, t);  // t = A q
      ++out.iterations;
      const double sigma = linalg::Dot(ctx, q, t);
      if (sigma == 0 || !std::isfinite(sigma)) {
        out.breakdown = true;
        out.message = absl::StrFormat("q'Aq = %g", sigma);
        return out;
      }
      const double alpha = rho / sigma;
      linalg::Axpy(ctx, -alpha, t, r);  // r -= alpha A q
      const double theta_old = theta;
      theta = linalg::Norm2(ctx, r) / tau;
      const double c = 1.0 / std::sqrt(1.0 + theta * theta);
      tau = tau * theta * c;
      const double keep = c * c * theta_old * theta_old;
      if (!internal::AllFinite({alpha, theta, c, tau, keep})) {
        out.breakdown = true;
        out.message = "QMR coefficients are not finite";
        return out;
      }
      linalg::Axpby(ctx, c * c * alpha, q, keep, d);   // d = keep d + c^2 a q
      linalg::Axpby(ctx, c * c * alpha, t, keep, ad);  // A d, same recurrence
      linalg::Axpy(ctx, 1.0, d, x);
      linalg::Axpy(ctx, -1.0, ad, rx);
      if (linalg::Norm2(ctx, rx) <= target) {
        out.estimate_converged = true;
        return out;
      }
      m.Apply(ctx, r, u);  // u = M^{-1} r
      const double rho_next = linalg::Dot(ctx, r, u);
      if (rho_next == 0 || !std::isfinite(rho_next)) {
        out.breakdown = true;
        out.message = absl::StrFormat("r'M^{-1}r = %g", rho_next);
        return out;
      }
      const double beta = rho_next / rho;
      rho = rho_next;
      linalg::Axpby(ctx, 1.0, u, beta, q);  // q = u + beta q
    }
    return out;
  };
  return internal::RunWithTrueResidual("sqmr", a, m, b, x, options, ctx, cycle);
}

}  // namespace factord
