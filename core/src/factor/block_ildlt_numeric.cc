// Numeric block incomplete LDL^T (S1 §IV-B, Alg. 1), left-looking: block
// column J pulls the updates L(I,K) D_K L(J,K)^T of every finished column K
// with a kept block (J,K) into the blocks (I,J) its pattern allows (fill
// outside the level-of-fill pattern is discarded), factorizes its diagonal
// block with the dense LDL^T with pivoting inside the block (1x1 and 2x2;
// tiny pivots perturbed and counted: no delays across blocks), solves the
// off-diagonal blocks and applies the dual-threshold dropping (S1 §IV-B3):
// entries <= tau * ||l_c||_2 go, then at most fill_factor * (A's entries in
// the column's off-diagonal blocks) + leftover survive, the largest kept;
// what a column does not use is left over for the next (S1 Alg. 2, the
// conservative protocol reduces to a running sum when run serially).
// Diagonal blocks are dense and never dropped (S1: no dropping in dense
// blocks). Pivoting inside block J permutes its columns; the permutation is
// kept per block (pivot_order_) and applied in the solves.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "factord/factor/block_ildlt.h"
#include "factord/order/scaling.h"
#include "kernels/common/dense_ldlt.h"
#include "src/factor/pivot_params.h"

namespace factord {
namespace {

constexpr int kMaxBlock = 32;

// S1 §IV-B: a diagonal block eliminates all its columns (no delays), so the
// shared parameters run in force mode.
kernels::DenseLdltParams PivotParams(const FactorOptions& options,
                                     double max_abs) {
  kernels::DenseLdltParams params =
      internal::DensePivotParams(options.pivoting, max_abs);
  params.force = true;
  return params;
}

}  // namespace

absl::Status ScatterScaledBlocks(const CsrMatrix& a,
                                 const BlockIldltStructure& s,
                                 const FactorOptions& options,
                                 std::vector<double>* scaling,
                                 std::vector<double>* values_out) {
  if (a.rows != s.n || a.nnz() != static_cast<int64_t>(s.gather.size()) ||
      static_cast<int64_t>(a.values.size()) != a.nnz()) {
    return absl::InvalidArgumentError(
        "the matrix does not have the pattern the block_ildlt structure was "
        "built for");
  }
  const int64_t n = s.n, nb = s.num_blocks();
  // IPM shifts on the stored values (and on diagonals outside the pattern).
  auto shift_of = [&](int64_t i) {
    return i < options.shift_count ? options.shift_first : options.shift_rest;
  };
  std::vector<double> stored = a.values;
  std::vector<uint8_t> has_diagonal(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
      if (a.col_idx[e] == i) {
        stored[e] += shift_of(i);
        has_diagonal[i] = 1;
      }
    }
  }
  for (double v : stored) {
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError("the matrix has a non-finite value");
    }
  }
  *scaling = options.scaling == Scaling::kNone ? std::vector<double>(n, 1.0)
                                               : RuizScaling(a, stored);
  const std::vector<double>& sc = *scaling;

  // Scatter S A S into the dense blocks.
  std::vector<double>& values = *values_out;
  values.assign(s.value_ptr.back(), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
      const double v = stored[e] * sc[i] * sc[a.col_idx[e]];
      values[s.gather[e]] = v;
      if (s.gather_mirror[e] >= 0) values[s.gather_mirror[e]] = v;
    }
  }
  auto diagonal_position = [&](int64_t k, int64_t block) {
    const int64_t local = k - s.block_ptr[block];
    return s.value_ptr[s.col_ptr[block]] + local * s.block_size(block) + local;
  };
  for (int64_t b = 0; b < nb; ++b) {
    for (int64_t k = s.block_ptr[b]; k < s.block_ptr[b + 1]; ++k) {
      const int32_t i = s.perm[k];
      if (!has_diagonal[i] && shift_of(i) != 0) {
        values[diagonal_position(k, b)] += shift_of(i) * sc[i] * sc[i];
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<BlockIldltFactor>> BlockIldltFactor::Create(
    const CsrMatrix& a, std::shared_ptr<const BlockIldltStructure> structure,
    const FactorOptions& options, const ExecContext& ctx) {
  if (structure == nullptr || a.rows != structure->n ||
      a.nnz() != static_cast<int64_t>(structure->gather.size()) ||
      static_cast<int64_t>(a.values.size()) != a.nnz()) {
    return absl::InvalidArgumentError(
        "the matrix does not have the pattern the block_ildlt structure was "
        "built for");
  }
  const BlockIldltStructure& s = *structure;
  const int64_t n = s.n, nb = s.num_blocks();
  std::unique_ptr<BlockIldltFactor> f(new BlockIldltFactor());
  f->structure_ = structure;

  if (absl::Status st =
          ScatterScaledBlocks(a, s, options, &f->scaling_, &f->values_);
      !st.ok()) {
    return st;
  }
  std::vector<double>& values = f->values_;
  double max_abs = 0;
  for (double v : values) max_abs = std::max(max_abs, std::abs(v));
  f->stats_.max_abs = max_abs;
  const kernels::DenseLdltParams params = PivotParams(options, max_abs);

  f->kept_.assign(s.num_slots(), 1);
  f->pivot_order_.resize(n);
  f->pivot_size_.resize(n);
  f->d_diag_.resize(n);
  f->d_off_.resize(n);
  std::vector<int32_t> column_of(s.num_slots());
  for (int64_t j = 0; j < nb; ++j) {
    for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
      column_of[t] = static_cast<int32_t>(j);
    }
  }
  std::vector<int64_t> slot_of_row(nb, -1);
  double front[kMaxBlock * kMaxBlock], w[kMaxBlock * kMaxBlock],
      x[kMaxBlock * kMaxBlock];
  int order[kMaxBlock], size[kMaxBlock], work[kMaxBlock];
  double d_diag[kMaxBlock], d_off[kMaxBlock];
  std::vector<std::pair<double, double*>> survivors;
  std::vector<double> norm2(kMaxBlock);
  const double tau = std::max(options.drop_tolerance, 0.0);
  double leftover = 0;
  BlockIldltStats& stats = f->stats_;

  for (int64_t j = 0; j < nb; ++j) {
    // Every block column: with a high fill level one column's pull updates
    // can take long, and a check is one clock read (cancel-to-stop, issue 8).
    if (absl::Status st = ctx.CheckCancelled(); !st.ok()) return st;
    const int bj = s.block_size(j);
    const int64_t start = s.block_ptr[j];
    for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
      slot_of_row[s.row_block[t]] = t;
    }
    // Pull updates (S1 Alg. 1): A(I,J) -= L(I,K) D_K L(J,K)^T.
    for (int64_t r = s.row_ptr[j]; r < s.row_ptr[j + 1]; ++r) {
      const int64_t tk = s.row_slot[r];
      if (!f->kept_[tk]) continue;
      const int32_t k = column_of[tk];
      const int bk = s.block_size(k);
      const int64_t kstart = s.block_ptr[k];
      const double* ljk = &values[s.value_ptr[tk]];
      // W = L(J,K) D_K, bj x bk.
      for (int c = 0; c < bk; ++c) {
        const int ps = f->pivot_size_[kstart + c];
        if (ps == 2) {
          const double p = f->d_diag_[kstart + c], q = f->d_off_[kstart + c],
                       u = f->d_diag_[kstart + c + 1];
          for (int i = 0; i < bj; ++i) {
            const double l0 = ljk[i + c * bj], l1 = ljk[i + (c + 1) * bj];
            w[i + c * bj] = l0 * p + l1 * q;
            w[i + (c + 1) * bj] = l0 * q + l1 * u;
          }
          ++c;
        } else {
          const double d = f->d_diag_[kstart + c];
          for (int i = 0; i < bj; ++i) w[i + c * bj] = ljk[i + c * bj] * d;
        }
      }
      for (int64_t u = tk; u < s.col_ptr[k + 1]; ++u) {
        const int32_t bi_index = s.row_block[u];
        const int64_t target = slot_of_row[bi_index];
        if (target < 0 || !f->kept_[u]) continue;  // outside the pattern
        const int bi = s.block_size(bi_index);
        const double* lik = &values[s.value_ptr[u]];
        double* aij = &values[s.value_ptr[target]];
        for (int c = 0; c < bk; ++c) {
          const double* lcol = lik + c * bi;
          for (int jj = 0; jj < bj; ++jj) {
            const double wv = w[jj + c * bj];
            if (wv == 0) continue;
            double* acol = aij + jj * bi;
            for (int i = 0; i < bi; ++i) acol[i] -= lcol[i] * wv;
          }
        }
      }
    }
    // Diagonal block: dense LDL^T with pivoting inside the block.
    double* diag = &values[s.value_ptr[s.col_ptr[j]]];
    std::copy(diag, diag + bj * bj, front);
    const kernels::DenseLdltCounts counts = kernels::DensePartialLdlt(
        front, bj, bj, params, order, size, d_diag, d_off, work);
    stats.perturbed_pivots += counts.perturbed;
    stats.two_by_two_pivots += counts.two_by_two;
    // L_JJ in pivot order, unit diagonal, zero inside a 2x2 pair.
    for (int c = 0; c < bj; ++c) {
      for (int r2 = 0; r2 < bj; ++r2) {
        double v = 0;
        if (r2 == c) {
          v = 1;
        } else if (r2 > c && !(size[c] == 2 && r2 == c + 1)) {
          v = front[order[r2] + order[c] * bj];
        }
        diag[r2 + c * bj] = v;
      }
      f->pivot_order_[start + c] = order[c];
      f->pivot_size_[start + c] =
          static_cast<int8_t>(size[c] < 0 ? 1 : size[c]);
      f->d_diag_[start + c] = d_diag[c];
      f->d_off_[start + c] = d_off[c];
    }
    stats.nnz_factor += int64_t{bj} * (bj + 1) / 2 + counts.two_by_two;
    // Off-diagonal blocks: L(I,J) = A(I,J) P_J L_JJ^{-T} D_J^{-1}.
    std::fill(norm2.begin(), norm2.begin() + bj, 0.0);
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      const int bi = s.block_size(s.row_block[t]);
      double* aij = &values[s.value_ptr[t]];
      for (int c = 0; c < bj; ++c) {
        std::copy(aij + order[c] * bi, aij + (order[c] + 1) * bi, x + c * bi);
      }
      for (int c = 0; c < bj; ++c) {  // X L_JJ^{-T}: forward over columns
        for (int p = 0; p < c; ++p) {
          const double l = diag[c + p * bj];
          if (l == 0) continue;
          for (int i = 0; i < bi; ++i) x[i + c * bi] -= x[i + p * bi] * l;
        }
      }
      for (int c = 0; c < bj; ++c) {  // D_J^{-1}
        const int64_t g = start + c;
        if (f->pivot_size_[g] == 2) {
          const double p = f->d_diag_[g], q = f->d_off_[g],
                       u = f->d_diag_[g + 1];
          const double det = p * u - q * q;
          for (int i = 0; i < bi; ++i) {
            const double y0 = x[i + c * bi], y1 = x[i + (c + 1) * bi];
            x[i + c * bi] = (y0 * u - y1 * q) / det;
            x[i + (c + 1) * bi] = (y1 * p - y0 * q) / det;
          }
          ++c;
        } else {
          const double inv = 1.0 / f->d_diag_[g];
          for (int i = 0; i < bi; ++i) x[i + c * bi] *= inv;
        }
      }
      std::copy(x, x + bi * bj, aij);
      for (int c = 0; c < bj; ++c) {
        for (int i = 0; i < bi; ++i)
          norm2[c] += aij[i + c * bi] * aij[i + c * bi];
      }
    }
    // Dual-threshold dropping (S1 §IV-B3) over the off-diagonal blocks.
    survivors.clear();
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      const int bi = s.block_size(s.row_block[t]);
      double* aij = &values[s.value_ptr[t]];
      for (int c = 0; c < bj; ++c) {
        const double limit = tau * std::sqrt(norm2[c]);
        for (int i = 0; i < bi; ++i) {
          double& v = aij[i + c * bi];
          if (v == 0) continue;
          if (std::abs(v) <= limit) {
            v = 0;
            ++stats.dropped_entries;
          } else {
            survivors.push_back({std::abs(v), &v});
          }
        }
      }
    }
    const double budget =
        options.fill_factor > 0
            ? options.fill_factor * s.a_offdiag_count[j] + leftover
            : std::numeric_limits<double>::infinity();
    int64_t kept = static_cast<int64_t>(survivors.size());
    if (kept > budget) {
      const int64_t keep = static_cast<int64_t>(budget);
      std::nth_element(
          survivors.begin(), survivors.begin() + keep, survivors.end(),
          [](const auto& x1, const auto& x2) { return x1.first > x2.first; });
      for (auto it = survivors.begin() + keep; it != survivors.end(); ++it) {
        *it->second = 0;
        ++stats.dropped_entries;
      }
      kept = keep;
    }
    if (options.fill_factor > 0) leftover = budget - kept;  // S1 Alg. 2
    stats.nnz_factor += kept;
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      const double* aij = &values[s.value_ptr[t]];
      const int64_t len = s.value_ptr[t + 1] - s.value_ptr[t];
      f->kept_[t] =
          std::any_of(aij, aij + len, [](double v) { return v != 0; });
      if (!f->kept_[t]) ++stats.dropped_blocks;
    }
    for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
      slot_of_row[s.row_block[t]] = -1;
    }
  }
  return f;
}

}  // namespace factord
