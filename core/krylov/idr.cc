// IDR(s) with biorthogonalization (van Gijzen & Sonneveld, "Algorithm 913:
// An elegant IDR(s) variant that efficiently exploits biorthogonality
// properties", ACM TOMS 38(1), 2011), right preconditioned. The solver S3
// §4.5 pairs with block-Jacobi.
//
// Each cycle of s+1 products: s steps that build G = A U biorthogonal to
// the shadow space P (M = P'G lower triangular), then one dimension
// reduction step with omega chosen by the "maintaining the convergence"
// rule (kappa = 0.7). P is s pseudo-random vectors from a fixed seed,
// orthonormalized, so solves are reproducible. A driver restart begins with
// G = U = 0, M = I, omega = 1.
#include "core/krylov/idr.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/krylov/true_residual_driver.h"
#include "core/linalg/blas.h"

namespace factord {
namespace {

// s orthonormal vectors of length n from a fixed seed (splitmix64 uniform in
// [-1, 1), modified Gram-Schmidt).
std::vector<std::vector<double>> ShadowSpace(const ExecContext& ctx, int64_t n,
                                             int s) {
  uint64_t state = 0x1d2c3b4a5f6e7d8cULL;
  auto next = [&state] {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
  };
  std::vector<std::vector<double>> p(s, std::vector<double>(n));
  for (int i = 0; i < s; ++i) {
    for (double& v : p[i]) v = next();
    for (int j = 0; j < i; ++j) {
      linalg::Axpy(ctx, -linalg::Dot(ctx, p[i], p[j]), p[j], p[i]);
    }
    linalg::Scale(ctx, 1.0 / linalg::Norm2(ctx, p[i]), p[i]);
  }
  return p;
}

}  // namespace

absl::StatusOr<KrylovResult> SolveIdr(
    const LinearOperator& a, const Preconditioner& m, std::span<const double> b,
    std::span<double> x, const KrylovOptions& options, const ExecContext& ctx) {
  if (options.idr_s < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("idr: s must be >= 1, got ", options.idr_s));
  }
  const int64_t n = a.size();
  const int s = static_cast<int>(
      std::min<int64_t>(options.idr_s, std::max<int64_t>(n, 1)));
  const std::vector<std::vector<double>> p = ShadowSpace(ctx, n, s);
  std::vector<std::vector<double>> g(s, std::vector<double>(n)),
      u(s, std::vector<double>(n));
  std::vector<double> r(n), v(n), t(n), u_new(n);
  std::vector<double> mm(s * s), f(s), c(s);  // mm row-major s x s
  auto M = [&](int i, int j) -> double& { return mm[i * s + j]; };

  auto cycle = [&](std::span<double> x, std::span<const double> r0, double,
                   int budget,
                   double target) -> absl::StatusOr<internal::CycleOutcome> {
    internal::CycleOutcome out;
    linalg::Copy(ctx, r0, r);
    for (int i = 0; i < s; ++i) {
      std::fill(g[i].begin(), g[i].end(), 0.0);
      std::fill(u[i].begin(), u[i].end(), 0.0);
      for (int j = 0; j < s; ++j) M(i, j) = (i == j) ? 1.0 : 0.0;
    }
    double omega = 1;
    auto breakdown = [&out](std::string message) {
      out.breakdown = true;
      out.message = std::move(message);
      return out;
    };
    while (out.iterations < budget) {
      for (int i = 0; i < s; ++i) f[i] = linalg::Dot(ctx, p[i], r);  // P'r
      for (int k = 0; k < s && out.iterations < budget; ++k) {
        if (absl::Status st = ctx.CheckCancelled(); !st.ok()) return st;
        // Solve the lower triangular M(k:s, k:s) c = f(k:s).
        for (int i = k; i < s; ++i) {
          double sum = f[i];
          for (int j = k; j < i; ++j) sum -= M(i, j) * c[j];
          c[i] = sum / M(i, i);
        }
        // v = M^{-1}(r - G(:, k:s) c); u_k = U(:, k:s) c + omega v.
        linalg::Copy(ctx, r, t);
        for (int i = k; i < s; ++i) linalg::Axpy(ctx, -c[i], g[i], t);
        m.Apply(ctx, t, v);
        linalg::Axpby(ctx, omega, v, 0.0, u_new);
        for (int i = k; i < s; ++i) linalg::Axpy(ctx, c[i], u[i], u_new);
        linalg::Copy(ctx, u_new, u[k]);
        a.Apply(ctx, u[k], g[k]);  // g_k = A u_k
        ++out.iterations;
        for (int i = 0; i < k; ++i) {  // biorthogonalize against p_0..p_k-1
          const double alpha = linalg::Dot(ctx, p[i], g[k]) / M(i, i);
          linalg::Axpy(ctx, -alpha, g[i], g[k]);
          linalg::Axpy(ctx, -alpha, u[i], u[k]);
        }
        for (int i = k; i < s; ++i) M(i, k) = linalg::Dot(ctx, p[i], g[k]);
        if (M(k, k) == 0 || !std::isfinite(M(k, k))) {
          return breakdown(absl::StrFormat("p_%d'g_%d = %g", k, k, M(k, k)));
        }
        const double beta = f[k] / M(k, k);
        if (!std::isfinite(beta)) return breakdown("beta is not finite");
        linalg::Axpy(ctx, -beta, g[k], r);  // r -= beta g_k
        linalg::Axpy(ctx, beta, u[k], x);   // x += beta u_k
        if (linalg::Norm2(ctx, r) <= target) {
          out.estimate_converged = true;
          return out;
        }
        for (int i = k + 1; i < s; ++i) f[i] -= beta * M(i, k);
      }
      if (out.iterations >= budget) break;
      if (absl::Status st = ctx.CheckCancelled(); !st.ok()) return st;
      // Dimension reduction: v = M^{-1} r, t = A v.
      m.Apply(ctx, r, v);
      a.Apply(ctx, v, t);
      ++out.iterations;
      const double t_norm = linalg::Norm2(ctx, t);
      const double r_norm = linalg::Norm2(ctx, r);
      const double tr = linalg::Dot(ctx, t, r);
      if (!(t_norm > 0) || !std::isfinite(t_norm)) {
        return breakdown(absl::StrFormat("||A M^{-1} r|| = %g", t_norm));
      }
      omega = tr / (t_norm * t_norm);
      const double angle = std::abs(tr) / (t_norm * r_norm);
      if (angle < 0.7 && angle > 0) omega *= 0.7 / angle;
      if (omega == 0 || !std::isfinite(omega)) {
        return breakdown(absl::StrFormat("omega = %g", omega));
      }
      linalg::Axpy(ctx, -omega, t, r);  // r -= omega t
      linalg::Axpy(ctx, omega, v, x);   // x += omega v
      if (linalg::Norm2(ctx, r) <= target) {
        out.estimate_converged = true;
        return out;
      }
    }
    return out;
  };
  return internal::RunWithTrueResidual("idr", a, m, b, x, options, ctx, cycle);
}

}  // namespace factord
