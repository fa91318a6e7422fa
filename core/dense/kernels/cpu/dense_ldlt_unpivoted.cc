// Blocked LDL^T in natural order with the a-posteriori threshold test (see
// dense_ldlt_unpivoted.h).
#include "core/dense/kernels/dense_ldlt_unpivoted.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "cblas.h"
#include "core/dense/kernels/cpu/dense_chunks.h"
#include "core/kernels/cpu/parallel.h"

extern "C" void dpotrf_(const char* uplo, const int* n, double* a,
                        const int* lda, int* info, size_t uplo_len);

namespace factord::internal {
namespace {

// Columns per block: the diagonal block is factorized by plain loops
// (O(m nb) per column), the rest by dtrsm and dgemm with inner dimension nb.
constexpr int kBlock = 128;
// The 1x1 test of the pivoting kernels (dense_ldlt::SearchPivot, first
// pass) on pivot a with column maximum g.
bool Passes(double a, double g, const kernels::DenseLdltParams& params) {
  if (params.pivoting == kernels::kDenseStatic) {
    return std::fabs(a) > params.tiny;
  }
  return kernels::dense_ldlt::Passes1x1(a, g, params.threshold, params.tiny);
}

// The b x b diagonal block a (leading dimension lda, lower triangle) as
// L D L^T through LAPACK's dpotrf when it is positive definite: L (unit,
// below the diagonal) and d[t] = D(t, t) from its Cholesky factor C,
// L(:, t) = C(:, t) / C(t, t), D(t, t) = C(t, t)^2; g[t] the largest
// |L(i, t)| D(t, t) below the diagonal. False (a unchanged) otherwise.
bool CholeskyBlock(double* a, int lda, int b, double* d, double* g,
                   std::vector<double>* copy) {
  copy->resize(static_cast<size_t>(b) * b);
  for (int j = 0; j < b; ++j) {
    std::copy(a + static_cast<size_t>(j) * lda + j,
              a + static_cast<size_t>(j) * lda + b,
              copy->data() + static_cast<size_t>(j) * b + j);
  }
  const char uplo = 'L';
  int info = 0;
  dpotrf_(&uplo, &b, a, &lda, &info, 1);
  if (info != 0) {
    for (int j = 0; j < b; ++j) {
      std::copy(copy->data() + static_cast<size_t>(j) * b + j,
                copy->data() + static_cast<size_t>(j) * b + b,
                a + static_cast<size_t>(j) * lda + j);
    }
    return false;
  }
  for (int t = 0; t < b; ++t) {
    double* ct = a + static_cast<size_t>(t) * lda;
    const double c = ct[t];
    const double inv = 1.0 / c;
    d[t] = c * c;
    double lmax = 0;
    for (int i = t + 1; i < b; ++i) {
      ct[i] *= inv;
      lmax = std::max(lmax, std::fabs(ct[i]));
    }
    ct[t] = 1.0;
    g[t] = lmax * d[t];
  }
  return true;
}

// The n x n block a (leading dimension lda, lower triangle) as L D L^T in
// natural order, 1x1 pivots, recursively: the leading half, its rows below
// by dtrsm, the trailing half's update by dgemm (the upper part of that
// square is computed and unused), the trailing half; plain loops below 32
// columns. L unit below the diagonal, d[t] = D(t, t). A zero pivot gives
// infinities, which the caller's test rejects.
void RecursiveLdlt(double* a, int lda, int n, double* d,
                   std::vector<double>* w) {
  auto at = [&](int i, int j) -> double& {
    return a[static_cast<size_t>(j) * lda + i];
  };
  if (n <= 32) {
    for (int t = 0; t < n; ++t) {
      const double dt = at(t, t);
      d[t] = dt;
      const double inv = 1.0 / dt;
      for (int j = t + 1; j < n; ++j) {
        const double ljt = at(j, t) * inv;
        if (ljt == 0) continue;
        for (int i = j; i < n; ++i) at(i, j) -= at(i, t) * ljt;
      }
      for (int i = t + 1; i < n; ++i) at(i, t) *= inv;
      at(t, t) = 1.0;
    }
    return;
  }
  const int n1 = n / 2, n2 = n - n1;
  RecursiveLdlt(a, lda, n1, d, w);
  double* a21 = a + n1;  // rows n1..n-1, columns 0..n1-1
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasUnit, n2,
              n1, 1.0, a, lda, a21, lda);  // W21 = A21 L11^{-T}
  w->resize(static_cast<size_t>(n2) * n1);
  for (int t = 0; t < n1; ++t) {
    double* col = a21 + static_cast<size_t>(t) * lda;
    std::copy(col, col + n2, w->data() + static_cast<size_t>(t) * n2);
    const double inv = 1.0 / d[t];
    for (int i = 0; i < n2; ++i) col[i] *= inv;  // L21
  }
  double* a22 = a + static_cast<size_t>(n1) * lda + n1;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n2, n2, n1, -1.0, a21,
              lda, w->data(), n2, 1.0, a22, lda);
  RecursiveLdlt(a22, lda, n2, d + n1, w);
}

}  // namespace

int DenseUnpivotedLdlt(double* f, int m, int p,
                       const kernels::DenseLdltParams& params, double* d,
                       std::vector<double>* w) {
  auto col = [&](int j) { return f + static_cast<size_t>(j) * m; };
  std::vector<double> gmax(kBlock), block, saved;
  for (int c0 = 0; c0 < p; c0 += kBlock) {
    const int b = std::min(kBlock, p - c0);
    const int c1 = c0 + b;
    const int below = m - c1;
    // The diagonal block as it is, to give it back when the block fails
    // (the rows below are solved out of place, so they need no copy).
    saved.resize(static_cast<size_t>(b) * b);
    for (int j = 0; j < b; ++j) {
      std::copy(col(c0 + j) + c0 + j, col(c0 + j) + c1,
                saved.data() + static_cast<size_t>(j) * b + j);
    }
    auto fail = [&]() {
      for (int j = 0; j < b; ++j) {
        std::copy(saved.data() + static_cast<size_t>(j) * b + j,
                  saved.data() + static_cast<size_t>(j) * b + b,
                  col(c0 + j) + c0 + j);
      }
      return c0;
    };
    // Diagonal block: dpotrf when it is positive definite, L D L^T read off
    // its Cholesky factor; otherwise a recursive blocked L D L^T. Each
    // column's largest current entry in the block, |L(i, t)| |D(t)| (the
    // entries the pivoting kernel tests), is kept for the test.
    if (CholeskyBlock(col(c0) + c0, m, b, d + c0, gmax.data(), &block)) {
      for (int t = 0; t < b; ++t) {
        if (!(std::fabs(d[c0 + t]) > params.tiny)) return fail();
      }
    } else {
      RecursiveLdlt(col(c0) + c0, m, b, d + c0, &block);
      for (int t = 0; t < b; ++t) {
        if (!(std::fabs(d[c0 + t]) > params.tiny)) return fail();
        const double* lt = col(c0 + t) + c0;
        double lmax = 0;
        for (int i = t + 1; i < b; ++i) lmax = std::max(lmax, std::fabs(lt[i]));
        gmax[t] = lmax * std::fabs(d[c0 + t]);
      }
    }
    // A pivot that fails on the block's own rows fails: no need to solve
    // the rows below.
    for (int t = 0; t < b; ++t) {
      if (!Passes(d[c0 + t], gmax[t], params)) return fail();
    }
    // The current columns of the rows below, out of place:
    // W = A21 L11^{-T} (= L21 D), tested before anything is written.
    w->resize(static_cast<size_t>(below) * b);
    double* wd = w->data();
    if (below > 0) {
      for (int t = 0; t < b; ++t) {
        const double* a21 = col(c0 + t) + c1;
        std::copy(a21, a21 + below, wd + static_cast<size_t>(t) * below);
      }
      ChunkedUnitLowerTrsmRight(below, b, col(c0) + c0, m, wd, below);
      for (int t = 0; t < b; ++t) {
        const double* wt = wd + static_cast<size_t>(t) * below;
        double g = gmax[t];
        for (int i = 0; i < below; ++i) g = std::max(g, std::fabs(wt[i]));
        gmax[t] = g;
      }
    }
    for (int t = 0; t < b; ++t) {
      if (!Passes(d[c0 + t], gmax[t], params)) return fail();
    }
    if (below == 0) continue;
    // L21 = W D^{-1} into the front; W stays for the update.
    for (int t = 0; t < b; ++t) {
      const double* wt = wd + static_cast<size_t>(t) * below;
      double* lt = col(c0 + t) + c1;
      const double inv = 1.0 / d[c0 + t];
      for (int i = 0; i < below; ++i) lt[i] = wt[i] * inv;
    }
    // The remaining fully summed columns c1..p-1 over their rows j..m-1:
    // F(j0:m, j0:j1) -= L21(j0:m, :) W(j0:j1, :)^T, a chunk a task (a
    // chunk's diagonal block is computed whole; its upper part is unused).
    const int rest = p - c1;
    const double* l21 = col(c0) + c1;
    ChunkedLowerUpdate(below, rest, b, l21, m, wd, below, col(c1) + c1, m,
                       UpdateChunkColumns(rest));
  }
  return p;
}

}  // namespace factord::internal
