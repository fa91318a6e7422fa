// Helpers of the ldlt tests: dense lower-triangle matrices to CSR, a full
// factorize-and-solve through the facade, and dense reference inertia.
#ifndef FACTORD_TESTS_CORE_LDLT_LDLT_TEST_UTIL_H_
#define FACTORD_TESTS_CORE_LDLT_LDLT_TEST_UTIL_H_

#include <cmath>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/matrix/csr.h"
#include "core/solver/solver.h"

namespace factord::testing {

// Symmetric-lower CSR of the n x n dense row-major matrix `dense`; entries
// with keep[i*n+j] (or nonzero when keep is empty) are stored.
inline CsrMatrix LowerFromDense(int n, const std::vector<double>& dense,
                                const std::vector<bool>& keep = {}) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      const bool stored =
          keep.empty() ? dense[i * n + j] != 0 : keep[i * n + j];
      if (stored) {
        a.col_idx.push_back(j);
        a.values.push_back(dense[i * n + j]);
      }
    }
    a.row_ptr.push_back(a.col_idx.size());
  }
  return a;
}

// Inertia of a small dense symmetric matrix (row-major n x n) from its
// eigenvalues by cyclic Jacobi rotations; |lambda| <= zero_tol is zero.
inline Inertia DenseInertia(int n, std::vector<double> a,
                            double zero_tol = 1e-10) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (i != j) off += a[i * n + j] * a[i * n + j];
    if (off < 1e-30) break;
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1 : -1) /
                         (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {  // columns p, q
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {  // rows p, q
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
    }
  }
  Inertia inertia;
  for (int i = 0; i < n; ++i) {
    const double v = a[i * n + i];
    if (std::abs(v) <= zero_tol) {
      ++inertia.zero;
    } else if (v > 0) {
      ++inertia.positive;
    } else {
      ++inertia.negative;
    }
  }
  return inertia;
}

}  // namespace factord::testing

extern "C" void dsytrf_(const char* uplo, const int* n, double* a,
                        const int* lda, int* ipiv, double* work,
                        const int* lwork, int* info);

namespace factord::testing {

// Inertia of the symmetric-lower CSR matrix `a` from LAPACK's dense
// Bunch-Kaufman dsytrf (an independent reference: another code, ordering
// and pivoting). O(n^3): for n up to a few thousand.
inline Inertia LapackInertia(const CsrMatrix& a) {
  const int n = static_cast<int>(a.rows);
  std::vector<double> dense(static_cast<size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int j = a.col_idx[k];
      dense[static_cast<size_t>(j) * n + i] = a.values[k];  // lower, col-major
    }
  }
  std::vector<int> ipiv(n);
  int lwork = 64 * n, info = 0;
  std::vector<double> work(lwork);
  dsytrf_("L", &n, dense.data(), &n, ipiv.data(), work.data(), &lwork, &info);
  Inertia inertia;
  for (int k = 0; k < n; ++k) {
    const double d = dense[static_cast<size_t>(k) * n + k];
    if (ipiv[k] < 0 && k + 1 < n) {  // 2x2 block
      const double b = dense[static_cast<size_t>(k) * n + k + 1];
      const double c = dense[static_cast<size_t>(k + 1) * n + k + 1];
      const double det = d * c - b * b;
      if (det < 0) {
        ++inertia.positive;
        ++inertia.negative;
      } else if (d + c > 0) {
        inertia.positive += 2;
      } else {
        inertia.negative += 2;
      }
      ++k;
    } else if (d > 0) {
      ++inertia.positive;
    } else if (d < 0) {
      ++inertia.negative;
    } else {
      ++inertia.zero;
    }
  }
  return inertia;
}

struct LdltRun {
  FactorReport factor;
  SolveReport solve;
  std::vector<double> x;
};

// Analyze + factorize + solve A x = b (b = ones when empty) with method
// ldlt on the given backend.
inline absl::StatusOr<LdltRun> RunLdlt(std::shared_ptr<const CsrMatrix> a,
                                       std::vector<double> b,
                                       FactorOptions options = {},
                                       Backend backend = Backend::kCpu,
                                       int threads = 2) {
  options.method = Method::kLdlt;
  ExecContext ctx;
  ctx.backend = backend;
  ctx.threads = threads;
  auto analysis = Analyze(*a, options, ctx);
  if (!analysis.ok()) return analysis.status();
  auto factorization = Factorize(a, *analysis, options, ctx);
  if (!factorization.ok()) return factorization.status();
  if (b.empty()) b.assign(a->rows, 1.0);
  LdltRun run;
  run.factor = (*factorization)->report();
  run.x.assign(a->rows, 0.0);
  SolveOptions solve_options;
  solve_options.tolerance = 1e-10;
  absl::Status s =
      (*factorization)->Solve(b, run.x, solve_options, ctx, &run.solve);
  if (!s.ok()) return s;
  return run;
}

}  // namespace factord::testing

#endif  // FACTORD_TESTS_CORE_LDLT_LDLT_TEST_UTIL_H_
