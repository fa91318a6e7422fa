// Small systems with known answers for the Krylov method tests.
#ifndef FACTORD_TESTS_CORE_KRYLOV_KRYLOV_TEST_SYSTEMS_H_
#define FACTORD_TESTS_CORE_KRYLOV_KRYLOV_TEST_SYSTEMS_H_

#include <cmath>
#include <vector>

#include "core/krylov/operator.h"
#include "core/matrix/csr.h"

namespace factord::testing {

// General CSR from a dense row-major n x n matrix (zeros dropped).
inline CsrMatrix DenseToCsr(int n, const std::vector<double>& dense) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (dense[i * n + j] == 0) continue;
      a.col_idx.push_back(j);
      a.values.push_back(dense[i * n + j]);
    }
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

// Tridiagonal (lower, diag, upper) of order n, general storage.
inline CsrMatrix Tridiagonal(int n, double lower, double diag, double upper) {
  std::vector<double> dense(n * n, 0.0);
  for (int i = 0; i < n; ++i) {
    dense[i * n + i] = diag;
    if (i > 0) dense[i * n + i - 1] = lower;
    if (i + 1 < n) dense[i * n + i + 1] = upper;
  }
  return DenseToCsr(n, dense);
}

// x_i = sin(i + 1): a known solution; b = A x.
inline std::vector<double> KnownSolution(int64_t n) {
  std::vector<double> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = std::sin(i + 1.0);
  return x;
}

inline std::vector<double> Multiply(const CsrMatrix& a,
                                    const std::vector<double>& x) {
  std::vector<double> y(a.rows, 0.0);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      y[i] += a.values[k] * x[a.col_idx[k]];
    }
  }
  return y;
}

inline double MaxError(const std::vector<double>& x,
                       const std::vector<double>& y) {
  double e = 0;
  for (size_t i = 0; i < x.size(); ++i) e = std::max(e, std::abs(x[i] - y[i]));
  return e;
}

inline bool AllFinite(const std::vector<double>& x) {
  for (double v : x) {
    if (!std::isfinite(v)) return false;
  }
  return true;
}

// M^{-1} = diag(d)^{-1} (a symmetric, possibly indefinite preconditioner).
class DiagonalPreconditioner final : public Preconditioner {
 public:
  explicit DiagonalPreconditioner(std::vector<double> d) : d_(std::move(d)) {}
  int64_t size() const override { return static_cast<int64_t>(d_.size()); }
  void Apply(const ExecContext&, std::span<const double> r,
             std::span<double> z) const override {
    for (size_t i = 0; i < d_.size(); ++i) z[i] = r[i] / d_[i];
  }

 private:
  std::vector<double> d_;
};

}  // namespace factord::testing

#endif  // FACTORD_TESTS_CORE_KRYLOV_KRYLOV_TEST_SYSTEMS_H_
