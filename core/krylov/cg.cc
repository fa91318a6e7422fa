// Preconditioned conjugate gradients (Hestenes & Stiefel 1952; Saad,
// Iterative Methods, Alg. 9.1) for SPD A and SPD M. Each cycle runs the
// textbook recurrence from the true residual it is given; the driver
// (true_residual_driver.h) decides convergence on b - A x.
#include "core/krylov/cg.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/krylov/true_residual_driver.h"
#include "core/linalg/blas.h"

namespace factord {

absl::StatusOr<KrylovResult> SolveCg(
    const LinearOperator& a, const Preconditioner& m, std::span<const double> b,
    std::span<double> x, const KrylovOptions& options, const ExecContext& ctx) {
  const int64_t n = a.size();
  std::vector<double> r(n), z(n), p(n), q(n);
  auto cycle = [&](std::span<double> x, std::span<const double> r0,
                   double r_norm, int budget,
                   double target) -> absl::StatusOr<internal::CycleOutcome> {
    internal::CycleOutcome out;
    linalg::Copy(ctx, r0, r);
    m.Apply(ctx, r, z);  // z = M^{-1} r
    linalg::Copy(ctx, z, p);
    double rho = linalg::Dot(ctx, r, z);  // rho = r'z
    if (!(rho > 0) || !std::isfinite(rho)) {
      out.breakdown = true;
      out.message = absl::StrFormat(
          "r'M^{-1}r = %g is not positive (preconditioner not SPD)", rho);
      return out;
    }
    while (out.iterations < budget) {
      if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
      a.Apply(ctx, p, q);  // q = A p
      const double pq = linalg::Dot(ctx, p, q);
      ++out.iterations;
      if (!(pq > 0) || !std::isfinite(pq)) {
        out.breakdown = true;
        out.message =
            absl::StrFormat("p'Ap = %g is not positive (matrix not SPD)", pq);
        return out;
      }
      const double alpha = rho / pq;
      linalg::Axpy(ctx, alpha, p, x);   // x += alpha p
      linalg::Axpy(ctx, -alpha, q, r);  // r -= alpha q
      r_norm = linalg::Norm2(ctx, r);
      if (r_norm <= target) {
        out.estimate_converged = true;
        return out;
      }
      m.Apply(ctx, r, z);
      const double rho_next = linalg::Dot(ctx, r, z);
      if (!(rho_next > 0) || !std::isfinite(rho_next)) {
        out.breakdown = true;
        out.message = absl::StrFormat(
            "r'M^{-1}r = %g is not positive (preconditioner not SPD)",
            rho_next);
        return out;
      }
      const double beta = rho_next / rho;
      rho = rho_next;
      linalg::Axpby(ctx, 1.0, z, beta, p);  // p = z + beta p
    }
    return out;
  };
  return internal::RunWithTrueResidual("cg", a, m, b, x, options, ctx, cycle);
}

}  // namespace factord
