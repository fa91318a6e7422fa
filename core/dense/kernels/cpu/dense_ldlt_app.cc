// Blocked partial LDL^T with a-posteriori pivoting (see dense_ldlt_app.h).
#include "core/dense/kernels/dense_ldlt_app.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "cblas.h"
#include "core/dense/kernels/cpu/dense_chunks.h"
#include "core/dense/kernels/dense_ldlt_blocked.h"
#include "core/kernels/cpu/parallel.h"

namespace factord::internal {
namespace {

using kernels::DenseLdltCounts;
using kernels::DenseLdltParams;

class AppLdlt {
 public:
  AppLdlt(double* f, int m, int p, const DenseLdltParams& params, int* perm,
          int* order, int* size, double* d_diag, double* d_off, int nb,
          int first)
      : f_(f),
        m_(m),
        p_(p),
        nb_(nb),
        params_(params),
        perm_(perm),
        order_(order),
        size_(size),
        d_diag_(d_diag),
        d_off_(d_off),
        first_(first) {}

  DenseLdltCounts Run() {
    for (int t = 0; t < p_; ++t) perm_[t] = t;
    for (int t = 0; t < first_; ++t) {
      size_[t] = 1;
      d_off_[t] = 0;
    }
    int q = first_;
    int stalled = 0;  // columns moved to the end since the last pivot kept
    while (q < p_) {
      const int b = std::min(nb_, p_ - q);
      const int kept = Block(q, b);
      if (kept > 0) {
        q += kept;
        stalled = 0;
        continue;
      }
      // A block without a pivot of its own (columns delayed from the
      // children, say, that need the others eliminated first) goes to the
      // end, once; when every remaining column has been tried since the
      // last pivot, the pivoting kernel takes the rest. At a root (forced
      // elimination) it takes the rest at once: what is left there is
      // mostly what no child could pivot, near-null columns of a singular
      // matrix among them, and its column-by-column sweeps on current
      // values tell them from tiny pivots more reliably (measured on a
      // singular KKT system: every null pivot found, against all but 4 of
      // 1113 by blocks).
      stalled += b;
      if (params_.force || b == p_ - q || stalled >= p_ - q) break;
      MoveToEnd(q, b);
    }
    for (int t = 0; t < q; ++t) order_[t] = t;
    counts_.eliminated = q;
    if (q < p_) Tail(q);
    return counts_;
  }

 private:
  double* Col(int j) { return f_ + static_cast<size_t>(j) * m_; }
  double& At(int i, int j) { return Col(j)[i]; }

  // One block: columns j0..j0+b-1, every earlier pivot applied. Returns the
  // number of pivots kept (now at j0.., in order).
  int Block(int j0, int b) {
    const int j1 = j0 + b;
    const int below = m_ - j1;
    // 1. The diagonal block with both triangles, factorized locally.
    blk_.resize(static_cast<size_t>(b) * b);
    for (int t = 0; t < b; ++t) {
      for (int s = t; s < b; ++s) {
        const double v = At(j0 + s, j0 + t);
        blk_[static_cast<size_t>(t) * b + s] = v;
        blk_[static_cast<size_t>(s) * b + t] = v;
      }
    }
    orig_ = blk_;
    // The largest |entry| below the block of each column, as it is now: the
    // local threshold test folds it in, so that the local pivots are the
    // ones the test on whole columns would take (exact for the first; the
    // later ones are checked below).
    gbelow_.assign(b, 0.0);
    for (int t = 0; t < b; ++t) {
      const double* c = Col(j0 + t) + j1;
      double g = 0;
      for (int i = 0; i < below; ++i) g = std::max(g, std::fabs(c[i]));
      gbelow_[t] = g;
    }
    pi_.resize(b);
    lsize_.resize(b);
    ldiag_.resize(b);
    loff_.resize(b);
    work_.resize(b);
    DenseLdltParams local = params_;
    local.force = false;
    local.delay_budget = b;  // the threshold pass only
    const DenseLdltCounts lc = kernels::DensePartialLdlt(
        blk_.data(), b, b, local, pi_.data(), lsize_.data(), ldiag_.data(),
        loff_.data(), work_.data(), gbelow_.data());
    const int ql = lc.eliminated;
    auto lblk = [&](int s, int t) {  // local L(s, t) in pivot order
      return blk_[static_cast<size_t>(pi_[t]) * b + pi_[s]];
    };

    // 2. The rows below in pivot order (x_), solved in place for the local
    // pivots: W = X L11^{-T} (= L21 D), and L21 = W D^{-1} tested column by
    // column without being stored.
    x_.resize(static_cast<size_t>(below) * b);
    for (int t = 0; t < b; ++t) {
      const double* src = Col(j0 + pi_[t]) + j1;
      std::copy(src, src + below, x_.data() + static_cast<size_t>(t) * below);
    }
    int kept = ql;
    if (below > 0 && ql > 0) {
      l11_.assign(static_cast<size_t>(ql) * ql, 0.0);
      for (int t = 0; t < ql; ++t) {
        const int first = lsize_[t] == 2 ? t + 2 : t + 1;  // (t+1, t) is D's
        for (int s = first; s < ql; ++s) {
          l11_[static_cast<size_t>(t) * ql + s] = lblk(s, t);
        }
      }
      ChunkedUnitLowerTrsmRight(below, ql, l11_.data(), ql, x_.data(), below);
      const double bound = 1.0 / params_.threshold;
      for (int t = 0; t < ql; t += lsize_[t] == 2 ? 2 : 1) {
        if (!(ScaledMax(t, below) <= bound)) {
          kept = t;
          break;
        }
      }
    }
    if (kept == 0) return 0;

    // 3. Commit: rows j0..j1-1 of the earlier pivots' columns, the block's
    // columns (kept pivots: L; the others: their values back, from the
    // front for the columns the solve overwrote in x_), the record of the
    // kept pivots and the permutation.
    const int restored = std::max(0, ql - kept);  // solved, not kept
    saved_.resize(static_cast<size_t>(below) * restored);
    for (int t = kept; t < ql; ++t) {
      const double* src = Col(j0 + pi_[t]) + j1;
      std::copy(src, src + below,
                saved_.data() + static_cast<size_t>(t - kept) * below);
    }
    rowtmp_.resize(b);
    for (int c = 0; c < j0; ++c) {
      double* col = Col(c) + j0;
      for (int s = 0; s < b; ++s) rowtmp_[s] = col[pi_[s]];
      std::copy(rowtmp_.begin(), rowtmp_.end(), col);
    }
    for (int t = 0; t < b; ++t) {
      double* col = Col(j0 + t);
      if (t < kept) {
        col[j0 + t] = 1.0;
        for (int s = t + 1; s < b; ++s) col[j0 + s] = lblk(s, t);
        if (lsize_[t] == 2) col[j0 + t + 1] = 0.0;
        continue;
      }
      for (int s = t; s < b; ++s) {
        col[j0 + s] = orig_[static_cast<size_t>(pi_[t]) * b + pi_[s]];
      }
      const double* x =
          t < ql ? saved_.data() + static_cast<size_t>(t - kept) * below
                 : x_.data() + static_cast<size_t>(t) * below;
      std::copy(x, x + below, col + j1);
    }
    for (int t = 0; t < kept; t += lsize_[t] == 2 ? 2 : 1)
      StoreL21(j0, t, below);
    for (int t = 0; t < kept; ++t) {
      size_[j0 + t] = lsize_[t];
      d_diag_[j0 + t] = ldiag_[t];
      d_off_[j0 + t] = loff_[t];
      if (lsize_[t] == 2) ++counts_.two_by_two;
      if (lsize_[t] == -1) {
        ++counts_.perturbed;
        // A zero pivot: its diagonal was exactly 0 when the block started.
        if (orig_[static_cast<size_t>(pi_[t]) * b + pi_[t]] == 0) {
          ++counts_.zero;
        }
      }
    }
    permtmp_.resize(b);
    for (int s = 0; s < b; ++s) permtmp_[s] = perm_[j0 + pi_[s]];
    std::copy(permtmp_.begin(), permtmp_.end(), perm_ + j0);

    // 4. The kept pivots update the remaining fully summed columns (the
    // block's others included) over their rows r0..m-1:
    // F(c0:m, c0:c1) -= L(c0:m, P) W(c0:c1, P)^T with W = L D: for the
    // columns below the block W is x_ (the solve's result), for the block's
    // other columns it is formed here.
    const int r0 = j0 + kept;
    const int rest = p_ - r0;
    if (rest == 0) return kept;
    const int inside = j1 - r0;  // the block's columns not kept
    wd_.resize(static_cast<size_t>(inside) * kept);
    const double* lp = Col(j0) + r0;  // L's rows r0..m-1, leading dim m
    for (int t = 0; t < kept; ++t) {
      kernels::dense_ldlt::LdColumn(
          t, inside, lp, m_, lsize_.data(), ldiag_.data(), loff_.data(),
          wd_.data() + static_cast<size_t>(t) * inside);
    }
    if (inside > 0) {
      ChunkedLowerUpdate(m_ - r0, inside, kept, lp, m_, wd_.data(), inside,
                         Col(r0) + r0, m_, inside);
    }
    const int outside = rest - inside;  // columns j1..p-1
    ChunkedLowerUpdate(below, outside, kept, lp + inside, m_, x_.data(), below,
                       Col(j1) + j1, m_, UpdateChunkColumns(outside));
    return kept;
  }

  // Calls emit(i, l0, l1) for the rows i of pivot t's L21 = W D^{-1}, from
  // its W column(s) in x_ (l1: the second column of a 2x2, else unused).
  template <typename Emit>
  void ForEachL21(int t, int below, Emit&& emit) const {
    const double* w0 = x_.data() + static_cast<size_t>(t) * below;
    if (lsize_[t] == 2) {
      const double a = ldiag_[t], c = ldiag_[t + 1], o = loff_[t];
      const double det = a * c - o * o;
      const double i11 = c / det, i12 = -o / det, i22 = a / det;
      const double* w1 = w0 + below;
      for (int i = 0; i < below; ++i) {
        emit(i, w0[i] * i11 + w1[i] * i12, w0[i] * i12 + w1[i] * i22);
      }
      return;
    }
    const double inv = 1.0 / ldiag_[t];
    for (int i = 0; i < below; ++i) emit(i, w0[i] * inv, 0.0);
  }

  // The largest |L21| of pivot t (both columns of a 2x2).
  double ScaledMax(int t, int below) const {
    double lmax = 0;
    if (lsize_[t] == 2) {
      ForEachL21(t, below, [&](int, double l0, double l1) {
        lmax = std::max(lmax, std::max(std::fabs(l0), std::fabs(l1)));
      });
    } else {
      ForEachL21(t, below, [&](int, double l0, double) {
        lmax = std::max(lmax, std::fabs(l0));
      });
    }
    return lmax;
  }

  // Pivot t's L21 into the front's column(s) j0 + t below the block.
  void StoreL21(int j0, int t, int below) {
    const bool pair = lsize_[t] == 2;
    double* l0 = Col(j0 + t) + (m_ - below);
    double* l1 = pair ? l0 + m_ : nullptr;  // a 2x2's second column
    ForEachL21(t, below, [&](int i, double v0, double v1) {
      l0[i] = v0;
      if (pair) l1[i] = v1;
    });
  }

  // Moves the fully summed variables j0..j0+b-1 after the others (j0+b..p-1),
  // a symmetric permutation of the current columns j0..p-1: their rows in
  // the earlier pivots' columns, their lower triangle and their update rows.
  void MoveToEnd(int j0, int b) {
    const int n = p_ - j0;
    auto old = [&](int k) { return k < n - b ? j0 + b + k : j0 + k - (n - b); };
    rowtmp_.resize(n);
    for (int c = 0; c < j0; ++c) {
      double* col = Col(c);
      for (int k = 0; k < n; ++k) rowtmp_[k] = col[old(k)];
      std::copy(rowtmp_.begin(), rowtmp_.end(), col + j0);
    }
    // The fully summed block, both triangles read from the lower one, and
    // the update rows, as they were; then written in the new order.
    const int below = m_ - p_;
    std::vector<double> block(static_cast<size_t>(n) * n);
    std::vector<double> rows(static_cast<size_t>(below) * n);
    for (int l = 0; l < n; ++l) {
      const int j = j0 + l;
      for (int k = l; k < n; ++k) {
        const double v = At(j0 + k, j);
        block[static_cast<size_t>(l) * n + k] = v;
        block[static_cast<size_t>(k) * n + l] = v;
      }
      std::copy(Col(j) + p_, Col(j) + m_,
                rows.data() + static_cast<size_t>(l) * below);
    }
    for (int l = 0; l < n; ++l) {
      const int ol = old(l) - j0;
      double* col = Col(j0 + l);
      for (int k = l; k < n; ++k) {
        col[j0 + k] = block[static_cast<size_t>(ol) * n + (old(k) - j0)];
      }
      const double* src = rows.data() + static_cast<size_t>(ol) * below;
      std::copy(src, src + below, col + p_);
    }
    permtmp_.resize(n);
    for (int k = 0; k < n; ++k) permtmp_[k] = perm_[old(k)];
    std::copy(permtmp_.begin(), permtmp_.end(), perm_ + j0);
  }

  // The columns q..p-1, current, to the pivoting kernel on a compact copy
  // (rows q..m-1, both triangles of the fully summed rows), and back.
  void Tail(int q) {
    const int mt = m_ - q, pt = p_ - q;
    std::vector<double> sub(static_cast<size_t>(mt) * pt);
    for (int j = 0; j < pt; ++j) {
      double* dst = sub.data() + static_cast<size_t>(j) * mt;
      const double* src = Col(q + j) + q;
      std::copy(src + j, src + mt, dst + j);
      for (int i = 0; i < j; ++i) dst[i] = At(q + j, q + i);
    }
    std::vector<int> sub_order(pt), work(pt);
    const DenseLdltCounts tc = DenseBlockedPartialLdlt(
        sub.data(), mt, pt, params_, sub_order.data(), size_ + q, d_diag_ + q,
        d_off_ + q, /*panel_width=*/32, work.data());
    for (int j = 0; j < pt; ++j) {
      const double* src = sub.data() + static_cast<size_t>(j) * mt;
      std::copy(src, src + mt, Col(q + j) + q);
    }
    for (int t = 0; t < pt; ++t) order_[q + t] = q + sub_order[t];
    counts_.eliminated = q + tc.eliminated;
    counts_.two_by_two += tc.two_by_two;
    counts_.perturbed += tc.perturbed;
    counts_.zero += tc.zero;
    counts_.weak += tc.weak;
  }

  double* f_;
  int m_, p_, nb_;
  const DenseLdltParams& params_;
  int* perm_;
  int* order_;
  int* size_;
  double* d_diag_;
  double* d_off_;
  const int first_;
  DenseLdltCounts counts_;
  // Per-block scratch, kept across blocks.
  std::vector<double> blk_, orig_, x_, saved_, l11_, wd_, rowtmp_;
  std::vector<double> ldiag_, loff_, gbelow_;
  std::vector<int> pi_, lsize_, work_, permtmp_;
};

}  // namespace

kernels::DenseLdltCounts DenseAppPartialLdlt(
    double* f, int m, int p, const kernels::DenseLdltParams& params, int* perm,
    int* order, int* size, double* d_diag, double* d_off, int block,
    int first) {
  AppLdlt run(f, m, p, params, perm, order, size, d_diag, d_off, block, first);
  return run.Run();
}

}  // namespace factord::internal
