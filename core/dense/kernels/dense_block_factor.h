// The per-block work of the batched dense factorizations (S2 §IV), written
// once for the reference and cpu loops (and a future device kernel): pick
// the routine by kind and pivoting, scale the tiny/perturbation thresholds,
// and write the factors in the layout batched_dense_kernels.h documents.
#ifndef FACTORD_DENSE_KERNELS_DENSE_BLOCK_FACTOR_H_
#define FACTORD_DENSE_KERNELS_DENSE_BLOCK_FACTOR_H_

#include <cmath>

#include "core/dense/kernels/batched_dense_kernels.h"
#include "core/dense/kernels/dense_cholesky.h"
#include "core/dense/kernels/dense_ldlt.h"
#include "core/dense/kernels/dense_ldlt_full.h"
#include "core/dense/kernels/dense_lu.h"

namespace factord::kernels {

// Factorizes block b of `batch` and records its status.
inline void FactorDenseBlock(const DenseBatchParams& params,
                             const DenseBatch& batch, int64_t b) {
  const int m = batch.size[b];
  double* a = &batch.values[batch.value_offset[b]];
  const int64_t x = batch.index_offset[b];
  int* row_perm = &batch.row_perm[x];
  int* col_perm = &batch.col_perm[x];
  double scale = 1.0;
  if (params.relative) {
    scale = 0;
    for (int e = 0; e < m * m; ++e) scale = fmax(scale, fabs(a[e]));
    if (!(scale > 0) || !IsFiniteValue(scale)) scale = 1.0;
  }
  const double tiny = params.tiny * scale;
  DenseBlockResult result;
  for (int i = 0; i < m; ++i) {
    batch.pivot_size[x + i] = 1;
    batch.d_diag[x + i] = 0;
    batch.d_off[x + i] = 0;
  }
  if (params.kind == DenseFactorKind::kLu) {
    result = DenseLu(m, a, params.pivoting, tiny, row_perm, col_perm);
  } else if (params.kind == DenseFactorKind::kLlt) {
    result = DenseCholesky(m, a, params.pivoting, tiny, row_perm);
    for (int i = 0; i < m; ++i) col_perm[i] = row_perm[i];
  } else {
    DenseLdltParams ldlt;
    ldlt.tiny = tiny;
    ldlt.perturbation = params.perturbation * scale;
    ldlt.threshold = params.threshold;
    ldlt.force = true;
    double front[kMaxDenseBlockSize * kMaxDenseBlockSize];
    int order[kMaxDenseBlockSize], size[kMaxDenseBlockSize],
        work[kMaxDenseBlockSize];
    double d_diag[kMaxDenseBlockSize], d_off[kMaxDenseBlockSize];
    bool finite = true;
    for (int j = 0; j < m; ++j) {  // symmetric copy of the lower triangle
      for (int i = 0; i < m; ++i) {
        front[j * m + i] = i >= j ? a[j * m + i] : a[i * m + j];
        finite = finite && IsFiniteValue(front[j * m + i]);
      }
    }
    if (!finite) {
      result.status = kDenseNotFinite;
      result.step = 0;
      for (int i = 0; i < m; ++i) row_perm[i] = col_perm[i] = i;
    } else {
      DenseLdltCounts counts;
      if (params.pivoting == kBlockPivotFull) {
        counts = DenseLdltBunchParlett(front, m, ldlt, order, size, d_diag,
                                       d_off, work);
      } else {
        ldlt.pivoting = params.pivoting == kBlockPivotStatic ? kDenseStatic
                        : params.pivoting == kBlockPivotRook
                            ? kDenseRook
                            : kDenseBunchKaufman;
        counts = DensePartialLdlt(front, m, m, ldlt, order, size, d_diag, d_off,
                                  work);
      }
      for (int c = 0; c < m; ++c) {
        for (int r = 0; r < m; ++r) {
          double v = 0;
          if (r == c) {
            v = 1;
          } else if (r > c && !(size[c] == 2 && r == c + 1)) {
            v = front[order[c] * m + order[r]];
          }
          a[c * m + r] = v;
        }
        row_perm[c] = col_perm[c] = order[c];
        if (size[c] < 0 && result.step < 0) result.step = c;
        batch.pivot_size[x + c] =
            static_cast<int8_t>(size[c] < 0 ? 1 : size[c]);
        batch.d_diag[x + c] = d_diag[c];
        batch.d_off[x + c] = d_off[c];
      }
      if (counts.zero > 0) {
        result.status = kDenseZeroPivot;
      } else if (counts.perturbed > 0) {
        result.status = kDenseTinyPivot;
      }
    }
  }
  batch.status[b] = result.status;
  batch.step[b] = result.step;
}

}  // namespace factord::kernels

#endif  // FACTORD_DENSE_KERNELS_DENSE_BLOCK_FACTOR_H_
