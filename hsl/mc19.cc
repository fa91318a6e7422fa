// mc19ad_ (factord_hsl.h): Curtis-Reid scaling with MC19's interface.
//
// Curtis and Reid ("On the automatic scaling of matrices for Gaussian
// elimination", J. Inst. Maths Applics 10, 1972) choose row and column
// factors exp(r_i), exp(c_j) minimizing
//   sum over nonzero entries a_ij of (log|a_ij| + r_i + c_j)^2,
// a linear least-squares problem whose normal equations are
//   n_i r_i + sum_{j in row i} c_j = -sum_{j in row i} log|a_ij|
//   m_j c_j + sum_{i in col j} r_i = -sum_{i in col j} log|a_ij|
// (n_i, m_j: the entries of row i, column j). The system is singular
// (r + t, c - t solve it for every t) but consistent; conjugate gradients
// with the diagonal as preconditioner reach a solution in a few
// iterations (at most kMaxIterations). Entries that are zero, not finite or
// outside 1..N do not count; a row or column without entries gets factor 1.
// Repeated entries count as often as they appear. R and C receive r and c
// (single precision, as MC19's arguments are); W is not used.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hsl/factord_hsl.h"
#include "hsl/messages.h"
#include "hsl/registry.h"

namespace factord::hsl {
namespace {

constexpr int kMaxIterations = 100;
constexpr double kTolerance = 1e-8;  // on the preconditioned residual

struct Entry {
  int row, col;  // 0-based
  double log_abs;
};

// y = M x for the normal equations (x = [r; c], 2n values).
void Multiply(int n, const std::vector<Entry>& entries,
              const std::vector<double>& degree, const std::vector<double>& x,
              std::vector<double>* y) {
  for (int i = 0; i < 2 * n; ++i) (*y)[i] = degree[i] * x[i];
  for (const Entry& e : entries) {
    (*y)[e.row] += x[n + e.col];
    (*y)[n + e.col] += x[e.row];
  }
}

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Returns the conjugate-gradient iterations taken.
int CurtisReid(int n, int na, const double* a, const int* irn, const int* icn,
               float* r, float* c) {
  std::vector<Entry> entries;
  entries.reserve(na);
  std::vector<double> degree(2 * n, 0.0), rhs(2 * n, 0.0);
  for (int k = 0; k < na; ++k) {
    const int i = irn[k], j = icn[k];
    if (i < 1 || i > n || j < 1 || j > n) continue;
    const double v = std::fabs(a[k]);
    if (!(v > 0) || !std::isfinite(v)) continue;
    const Entry e{i - 1, j - 1, std::log(v)};
    entries.push_back(e);
    degree[e.row] += 1;
    degree[n + e.col] += 1;
    rhs[e.row] -= e.log_abs;
    rhs[n + e.col] -= e.log_abs;
  }
  // Preconditioned conjugate gradients from x = 0.
  std::vector<double> x(2 * n, 0.0), res = rhs, z(2 * n), p(2 * n), q(2 * n);
  auto precondition = [&] {
    for (int i = 0; i < 2 * n; ++i)
      z[i] = degree[i] > 0 ? res[i] / degree[i] : 0;
  };
  precondition();
  p = z;
  double rz = Dot(res, z);
  const double rz0 = rz;
  int it = 0;
  for (; it < kMaxIterations && rz > kTolerance * kTolerance * rz0; ++it) {
    Multiply(n, entries, degree, p, &q);
    const double pq = Dot(p, q);
    if (!(pq > 0)) break;
    const double alpha = rz / pq;
    for (int i = 0; i < 2 * n; ++i) {
      x[i] += alpha * p[i];
      res[i] -= alpha * q[i];
    }
    precondition();
    const double rz_next = Dot(res, z);
    const double beta = rz_next / rz;
    rz = rz_next;
    for (int i = 0; i < 2 * n; ++i) p[i] = z[i] + beta * p[i];
  }
  for (int i = 0; i < n; ++i) {
    r[i] = static_cast<float>(x[i]);
    c[i] = static_cast<float>(x[n + i]);
  }
  return it;
}

}  // namespace
}  // namespace factord::hsl

extern "C" FACTORD_HSL_EXPORT void mc19ad_(int* n, int* na, double* a, int* irn,
                                           int* icn, float* r, float* c,
                                           float* w) {
  (void)w;
  if (n == nullptr || na == nullptr || r == nullptr || c == nullptr || *n < 1 ||
      *na < 0 ||
      (*na > 0 && (a == nullptr || irn == nullptr || icn == nullptr))) {
    std::fprintf(stderr,
                 "factord hsl: mc19ad: N < 1, NA < 0 or a NULL array: no "
                 "scaling computed\n");
    if (n != nullptr && r != nullptr && c != nullptr) {
      for (int i = 0; i < *n; ++i) r[i] = c[i] = 0.0f;
    }
    return;
  }
  try {
    const int iterations = factord::hsl::CurtisReid(*n, *na, a, irn, icn, r, c);
    if (factord::hsl::Registry::Get().verbose()) {
      factord::hsl::Trace(
          "mc19ad", absl::StrCat("n ", *n, ", ", *na, " entries: ", iterations,
                                 " conjugate-gradient iterations"));
    }
  } catch (...) {  // out of memory: no scaling rather than a crash
    std::fprintf(stderr, "factord hsl: mc19ad: out of memory: no scaling\n");
    for (int i = 0; i < *n; ++i) r[i] = c[i] = 0.0f;
  }
}
