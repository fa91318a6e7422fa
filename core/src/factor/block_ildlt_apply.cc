// z = M^{-1} r for the block incomplete LDL^T (S1 §IV-C): scale and permute,
// block forward substitution (the diagonal block's unit L_JJ in its pivot
// order, then the off-diagonal blocks pushed to later block rows), the
// block diagonal D^{-1} (1x1 and 2x2), the block backward substitution with
// L^T, permute back and scale. Serial, block column by block column; dropped
// blocks are skipped.
#include <algorithm>
#include <vector>

#include "factord/factor/block_ildlt.h"

namespace factord {

int64_t BlockIldltFactor::bytes() const {
  return static_cast<int64_t>(
      (scaling_.size() + values_.size() + d_diag_.size() + d_off_.size()) *
          sizeof(double) +
      kept_.size() + pivot_order_.size() * sizeof(int32_t) +
      pivot_size_.size());
}

void BlockIldltFactor::Apply(const ExecContext& ctx, std::span<const double> r,
                             std::span<double> z) const {
  (void)ctx;
  const BlockIldltStructure& s = *structure_;
  const int64_t n = s.n, nb = s.num_blocks();
  // y: the ordered right-hand side (block-local analysis order); w: the
  // forward solution in pivot order.
  std::vector<double> y(n), w(n);
  for (int64_t k = 0; k < n; ++k) {
    const int32_t i = s.perm[k];
    y[k] = r[i] * scaling_[i];
  }
  // Forward: L w = P y.
  for (int64_t j = 0; j < nb; ++j) {
    const int bj = s.block_size(j);
    const int64_t start = s.block_ptr[j];
    const double* diag = &values_[s.value_ptr[s.col_ptr[j]]];
    double* wj = &w[start];
    for (int c = 0; c < bj; ++c) wj[c] = y[start + pivot_order_[start + c]];
    for (int c = 0; c < bj; ++c) {
      const double v = wj[c];
      if (v == 0) continue;
      for (int r2 = c + 1; r2 < bj; ++r2) wj[r2] -= diag[r2 + c * bj] * v;
    }
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      if (!kept_[t]) continue;
      const int32_t ib = s.row_block[t];
      const int bi = s.block_size(ib);
      const double* l = &values_[s.value_ptr[t]];
      double* yi = &y[s.block_ptr[ib]];
      for (int c = 0; c < bj; ++c) {
        const double v = wj[c];
        if (v == 0) continue;
        for (int i = 0; i < bi; ++i) yi[i] -= l[i + c * bi] * v;
      }
    }
  }
  // D^{-1}, 1x1 and 2x2 pivots.
  for (int64_t k = 0; k < n; ++k) {
    if (pivot_size_[k] == 2) {
      const double p = d_diag_[k], q = d_off_[k], u = d_diag_[k + 1];
      const double det = p * u - q * q;
      const double w0 = w[k], w1 = w[k + 1];
      w[k] = (w0 * u - w1 * q) / det;
      w[k + 1] = (w1 * p - w0 * q) / det;
      ++k;
    } else {
      w[k] /= d_diag_[k];
    }
  }
  // Backward: L^T x = w, x in block-local analysis order (reusing y).
  std::vector<double>& x = y;
  for (int64_t j = nb - 1; j >= 0; --j) {
    const int bj = s.block_size(j);
    const int64_t start = s.block_ptr[j];
    const double* diag = &values_[s.value_ptr[s.col_ptr[j]]];
    double* uj = &w[start];
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      if (!kept_[t]) continue;
      const int32_t ib = s.row_block[t];
      const int bi = s.block_size(ib);
      const double* l = &values_[s.value_ptr[t]];
      const double* xi = &x[s.block_ptr[ib]];
      for (int c = 0; c < bj; ++c) {
        double sum = 0;
        for (int i = 0; i < bi; ++i) sum += l[i + c * bi] * xi[i];
        uj[c] -= sum;
      }
    }
    for (int c = bj - 1; c >= 0; --c) {
      double sum = uj[c];
      for (int r2 = c + 1; r2 < bj; ++r2) sum -= diag[r2 + c * bj] * uj[r2];
      uj[c] = sum;
    }
    for (int c = 0; c < bj; ++c) x[start + pivot_order_[start + c]] = uj[c];
  }
  for (int64_t k = 0; k < n; ++k) {
    const int32_t i = s.perm[k];
    z[i] = x[k] * scaling_[i];
  }
}

}  // namespace factord
