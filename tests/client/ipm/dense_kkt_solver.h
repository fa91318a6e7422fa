// An in-process dense KktSolver for tests of the IPM logic on tiny problems:
// LAPACK dsytrf (Bunch-Kaufman LDL^T) with the inertia read from D's 1x1 and
// 2x2 blocks, dsytrs for the solves. O(dim^3): afiro-size problems only.
#ifndef FACTORD_TESTS_CLIENT_IPM_DENSE_KKT_SOLVER_H_
#define FACTORD_TESTS_CLIENT_IPM_DENSE_KKT_SOLVER_H_

#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "client/ipm/kkt_solver.h"

extern "C" {
void dsytrf_(const char* uplo, const int* n, double* a, const int* lda,
             int* ipiv, double* work, const int* lwork, int* info);
void dsytrs_(const char* uplo, const int* n, const int* nrhs, const double* a,
             const int* lda, const int* ipiv, double* b, const int* ldb,
             int* info);
}

namespace factord::ipm::test_support {

class DenseKktSolver : public KktSolver {
 public:
  absl::Status SetValues(const SymmetricLowerCsr& kkt) override {
    if (values_set_ && (kkt.dim != kkt_.dim || kkt.nnz() != kkt_.nnz())) {
      return absl::InvalidArgumentError("pattern changed");
    }
    bytes_ += values_set_ ? 8 * kkt.nnz() : 20 * kkt.nnz() + 8 * kkt.dim;
    values_set_ = true;
    kkt_ = kkt;
    ++set_values_calls;
    ++calls_;
    return absl::OkStatus();
  }

  absl::StatusOr<KktFactorReport> Factorize(
      const DiagonalShift& shift) override {
    const int n = static_cast<int>(kkt_.dim);
    factor_.assign(static_cast<size_t>(n) * n, 0.0);
    // Column-major lower triangle: a(i, j) at i + j * n for i >= j.
    for (int i = 0; i < n; ++i) {
      for (int64_t k = kkt_.row_start[i]; k < kkt_.row_start[i + 1]; ++k) {
        const int j = kkt_.col_index[k];
        factor_[i + static_cast<size_t>(j) * n] += kkt_.values[k];
      }
      factor_[i + static_cast<size_t>(i) * n] +=
          i < shift.shift_count ? shift.shift_first : shift.shift_rest;
    }
    pivots_.assign(n, 0);
    int info = 0, lwork = -1;
    double query = 0;
    dsytrf_("L", &n, factor_.data(), &n, pivots_.data(), &query, &lwork, &info);
    lwork = std::max(1, static_cast<int>(query));
    std::vector<double> work(lwork);
    dsytrf_("L", &n, factor_.data(), &n, pivots_.data(), work.data(), &lwork,
            &info);
    ++calls_;
    KktFactorReport report;
    report.inertia_known = true;
    report.analysis_reused = factorizations++ > 0;
    report.ok = info == 0;
    for (int k = 0; k < n; ++k) {
      const double d = factor_[k + static_cast<size_t>(k) * n];
      if (pivots_[k] > 0) {
        if (std::abs(d) < 1e-300)
          report.zero++;
        else
          (d > 0 ? report.positive : report.negative)++;
      } else {  // a 2x2 block [d e; e f] with det < 0: one of each sign
        const double e = factor_[k + 1 + static_cast<size_t>(k) * n];
        const double f = factor_[k + 1 + static_cast<size_t>(k + 1) * n];
        const double det = d * f - e * e;
        if (det < 0)
          report.positive++, report.negative++;
        else if (d + f > 0)
          report.positive += 2;
        else
          report.negative += 2;
        ++k;
      }
    }
    return report;
  }

  absl::StatusOr<KktSolveReport> Solve(
      std::vector<std::vector<double>>& rhs) override {
    const int n = static_cast<int>(kkt_.dim), one = 1;
    ++calls_;
    for (std::vector<double>& b : rhs) {
      bytes_ += 8 * n;
      int info = 0;
      dsytrs_("L", &n, &one, factor_.data(), &n, pivots_.data(), b.data(), &n,
              &info);
      if (info != 0) return absl::InternalError("dsytrs failed");
    }
    return KktSolveReport{};
  }

  int64_t bytes_sent() const override { return bytes_; }
  // Each SetValues, Factorize and Solve counts as one request.
  int64_t round_trips() const override { return calls_; }

  int factorizations = 0;
  int set_values_calls = 0;

 private:
  bool values_set_ = false;
  SymmetricLowerCsr kkt_;
  std::vector<double> factor_;
  std::vector<int> pivots_;
  int64_t bytes_ = 0;
  int64_t calls_ = 0;
};

}  // namespace factord::ipm::test_support

#endif  // FACTORD_TESTS_CLIENT_IPM_DENSE_KKT_SOLVER_H_
