// Supernodal solves with the multifrontal LDL^T factor. A front holds q
// pivots and ld = rows.size() rows: L = [L11; L21], L11 q x q unit lower
// (a 2x2 pivot's coupling lives in D, not in L), L21 (ld - q) x q. With B
// the front's rows of the right-hand sides, gathered into an ld x nrhs
// block:
//   forward:  X1 = L11^{-1} B1, B2 -= L21 X1, X1 = D^{-1} X1   (postorder)
//   backward: X1 -= L21^T B2, X1 = L11^{-T} X1                 (reverse)
// and the block is scattered back. dtrsv/dgemv for one right-hand side,
// dtrsm/dgemm for several, so that many right-hand sides read L once.
// Fronts below blas_min_entries use plain loops on y in place: for them
// the calls and the gather cost more than the arithmetic. The solve is
// serial on the calling thread (OpenBLAS may thread a large front's call).
#include "core/ldlt/ldlt_solve.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cblas.h"

namespace factord::internal {
namespace {

// x <- D^{-1} x on a front's pivots, x[t * inc] for pivot t: 1x1 and
// perturbed 1x1 pivots divide, a 2x2 block is inverted by its determinant.
void SolveDiagonal(const FrontFactor& fr, double* x, int64_t inc) {
  for (int t = 0; t < fr.q; ++t) {
    if (fr.pivot_size[t] == 2) {
      const double a = fr.d_diag[t], b = fr.d_off[t], c = fr.d_diag[t + 1];
      const double det = a * c - b * b;
      double& x0 = x[t * inc];
      double& x1 = x[(t + 1) * inc];
      const double v0 = x0, v1 = x1;
      x0 = (c * v0 - b * v1) / det;
      x1 = (a * v1 - b * v0) / det;
      ++t;
    } else {
      x[t * inc] /= fr.d_diag[t];
    }
  }
}

// Forward (L, then D) on one front by columns of L, in place on y.
void ForwardLoops(const FrontFactor& fr, int nrhs, double* y, int64_t ldy) {
  const int q = fr.q;
  const int ld = static_cast<int>(fr.rows.size());
  const int32_t* rows = fr.rows.data();
  for (int k = 0; k < nrhs; ++k) {
    double* x = y + k * ldy;
    for (int t = 0; t < q; ++t) {
      const double xt = x[rows[t]];
      if (xt == 0) continue;
      const double* col = &fr.l[static_cast<size_t>(t) * ld];
      for (int s = t + 1; s < ld; ++s) x[rows[s]] -= col[s] * xt;
    }
    for (int t = 0; t < q; ++t) {
      if (fr.pivot_size[t] == 2) {
        const double a = fr.d_diag[t], b = fr.d_off[t], c = fr.d_diag[t + 1];
        const double det = a * c - b * b;
        const double v0 = x[rows[t]], v1 = x[rows[t + 1]];
        x[rows[t]] = (c * v0 - b * v1) / det;
        x[rows[t + 1]] = (a * v1 - b * v0) / det;
        ++t;
      } else {
        x[rows[t]] /= fr.d_diag[t];
      }
    }
  }
}

// Backward (L^T) on one front by dot products with columns of L.
void BackwardLoops(const FrontFactor& fr, int nrhs, double* y, int64_t ldy) {
  const int ld = static_cast<int>(fr.rows.size());
  const int32_t* rows = fr.rows.data();
  for (int k = 0; k < nrhs; ++k) {
    double* x = y + k * ldy;
    for (int t = fr.q - 1; t >= 0; --t) {
      const double* col = &fr.l[static_cast<size_t>(t) * ld];
      double sum = 0;
      for (int s = t + 1; s < ld; ++s) sum += col[s] * x[rows[s]];
      x[rows[t]] -= sum;
    }
  }
}

// w (ld x nrhs, leading dimension ld) <- y's rows `rows`.
void Gather(std::span<const int32_t> rows, int nrhs, const double* y,
            int64_t ldy, double* w) {
  const int64_t ld = static_cast<int64_t>(rows.size());
  for (int k = 0; k < nrhs; ++k) {
    const double* x = y + k * ldy;
    double* b = w + k * ld;
    for (int64_t i = 0; i < ld; ++i) b[i] = x[rows[i]];
  }
}

// y's rows rows[0..count) <- w's first `count` rows (leading dimension ld).
void Scatter(std::span<const int32_t> rows, int64_t count, int nrhs,
             const double* w, double* y, int64_t ldy) {
  const int64_t ld = static_cast<int64_t>(rows.size());
  for (int k = 0; k < nrhs; ++k) {
    double* x = y + k * ldy;
    const double* b = w + k * ld;
    for (int64_t i = 0; i < count; ++i) x[rows[i]] = b[i];
  }
}

void ForwardBlas(const FrontFactor& fr, int nrhs, double* y, int64_t ldy,
                 double* w) {
  const int q = fr.q;
  const int ld = static_cast<int>(fr.rows.size());
  const int r = ld - q;
  const double* l11 = fr.l.data();
  const double* l21 = l11 + q;
  Gather(fr.rows, nrhs, y, ldy, w);
  if (nrhs == 1) {
    // X1 = L11^{-1} B1; B2 -= L21 X1
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, q, l11, ld,
                w, 1);
    if (r > 0) {
      cblas_dgemv(CblasColMajor, CblasNoTrans, r, q, -1.0, l21, ld, w, 1, 1.0,
                  w + q, 1);
    }
  } else {
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit,
                q, nrhs, 1.0, l11, ld, w, ld);
    if (r > 0) {
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, r, nrhs, q, -1.0,
                  l21, ld, w, ld, 1.0, w + q, ld);
    }
  }
  // X1 = D^{-1} X1
  for (int k = 0; k < nrhs; ++k) SolveDiagonal(fr, w + int64_t{k} * ld, 1);
  Scatter(fr.rows, ld, nrhs, w, y, ldy);
}

void BackwardBlas(const FrontFactor& fr, int nrhs, double* y, int64_t ldy,
                  double* w) {
  const int q = fr.q;
  const int ld = static_cast<int>(fr.rows.size());
  const int r = ld - q;
  const double* l11 = fr.l.data();
  const double* l21 = l11 + q;
  Gather(fr.rows, nrhs, y, ldy, w);
  if (nrhs == 1) {
    // X1 -= L21^T B2; X1 = L11^{-T} X1
    if (r > 0) {
      cblas_dgemv(CblasColMajor, CblasTrans, r, q, -1.0, l21, ld, w + q, 1, 1.0,
                  w, 1);
    }
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasUnit, q, l11, ld, w,
                1);
  } else {
    if (r > 0) {
      cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, q, nrhs, r, -1.0,
                  l21, ld, w + q, ld, 1.0, w, ld);
    }
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasUnit, q,
                nrhs, 1.0, l11, ld, w, ld);
  }
  Scatter(fr.rows, q, nrhs, w, y, ldy);
}

}  // namespace

void SolveWithFronts(std::span<const FrontFactor> fronts, int64_t n, int nrhs,
                     double* y, int64_t ldy, std::vector<double>* work,
                     int64_t blas_min_entries) {
  (void)n;
  if (nrhs <= 0) return;
  size_t max_ld = 0;
  for (const FrontFactor& fr : fronts) {
    max_ld = std::max(max_ld, fr.rows.size());
  }
  if (work->size() < max_ld * nrhs) work->resize(max_ld * nrhs);
  double* w = work->data();
  auto uses_blas = [&](const FrontFactor& fr) {
    return static_cast<int64_t>(fr.rows.size()) * fr.q >= blas_min_entries;
  };
  // Forward, D fused: L D z = y.
  for (const FrontFactor& fr : fronts) {
    if (fr.q == 0) continue;
    if (uses_blas(fr)) {
      ForwardBlas(fr, nrhs, y, ldy, w);
    } else {
      ForwardLoops(fr, nrhs, y, ldy);
    }
  }
  // Backward: L^T x = z.
  for (auto it = fronts.rbegin(); it != fronts.rend(); ++it) {
    const FrontFactor& fr = *it;
    if (fr.q == 0) continue;
    if (uses_blas(fr)) {
      BackwardBlas(fr, nrhs, y, ldy, w);
    } else {
      BackwardLoops(fr, nrhs, y, ldy);
    }
  }
}

}  // namespace factord::internal
