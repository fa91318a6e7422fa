// Blocked partial LDL^T (see dense_ldlt_blocked.h).
#include "core/dense/kernels/dense_ldlt_blocked.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "cblas.h"
#include "core/kernels/cpu/parallel.h"

namespace factord::internal {
namespace {

using kernels::DenseLdltCounts;
using kernels::DenseLdltParams;

// Columns per task of a panel's update (dgemm runs at its speed from about
// this width; narrower pieces would not balance better on a few threads).
constexpr int kUpdateChunk = 256;

class BlockedLdlt {
 public:
  BlockedLdlt(double* f, int m, int p, const DenseLdltParams& params,
              int* order, int* size, double* d_diag, double* d_off, int nb)
      : f_(f),
        m_(m),
        p_(p),
        nb_(nb),
        params_(params),
        order_(order),
        size_(size),
        d_diag_(d_diag),
        d_off_(d_off),
        is_alive_(p, 1),
        in_panel_(p, 0),
        u_(params.threshold) {
    alive_.resize(p);
    for (int t = 0; t < p; ++t) alive_[t] = t;
  }

  DenseLdltCounts Run() {
    int strong = 0;  // pivots taken in the first pass
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) {
        strong = q_;
        if (NumAlive() <= params_.delay_budget || params_.force) break;
        u_ = params_.weak_threshold;
      }
      bool progress = true;
      while (progress && NumAlive() > 0 && Continue(pass)) {
        progress = false;
        int next = 0;  // panels of consecutive alive columns from here
        std::vector<int> candidates;
        while (Continue(pass)) {
          auto it = std::lower_bound(alive_.begin(), alive_.end(), next);
          const auto end = alive_.end() - it > nb_ ? it + nb_ : alive_.end();
          candidates.assign(it, end);
          if (candidates.empty()) break;
          next = candidates.back() + 1;
          StartPanel(candidates);
          bool panel_progress = true;
          while (panel_progress && Continue(pass)) {
            panel_progress = false;
            for (int c : candidates) {
              while (is_alive_[c] && Continue(pass) && TryPivot(c)) {
                panel_progress = progress = true;
              }
            }
          }
          EndPanel();
        }
      }
    }
    counts_.eliminated = q_;
    counts_.weak = q_ - strong;
    if (!params_.force) {
      for (int t = 0; t < NumAlive(); ++t) order_[q_ + t] = alive_[t];
      return counts_;
    }
    ForceRest();
    counts_.weak += q_ - counts_.eliminated;
    counts_.eliminated = q_;
    return counts_;
  }

 private:
  double* Col(int j) { return f_ + static_cast<size_t>(j) * m_; }
  double& At(int i, int j) { return Col(j)[i]; }
  int NumAlive() const { return static_cast<int>(alive_.size()); }
  bool Continue(int pass) const {
    return pass == 0 || NumAlive() > params_.delay_budget;
  }

  void StartPanel(const std::vector<int>& columns) {
    row_lo_ = alive_.front();
    q0_ = q_;
    panel_ = columns;
    for (int k : columns) in_panel_[k] = 1;
  }

  // The stale alive columns receive the panel's pivots q0_..q_ by dgemm:
  // F(lo:m, K) -= L(lo:m, P) W(K, P)^T with W = L D.
  void EndPanel() {
    const int kq = q_ - q0_;
    if (kq > 0 && NumAlive() > 0) {
      const int lo = alive_.front();
      const int rows = m_ - lo;
      lp_.resize(static_cast<size_t>(rows) * kq);
      wp_.resize(static_cast<size_t>(rows) * kq);
      for (int t = 0; t < kq; ++t) {
        const double* l = Col(order_[q0_ + t]) + lo;
        std::copy(l, l + rows, &lp_[static_cast<size_t>(t) * rows]);
      }
      for (int t = 0; t < kq; ++t) {
        const double* l0 = &lp_[static_cast<size_t>(t) * rows];
        double* w0 = &wp_[static_cast<size_t>(t) * rows];
        if (size_[q0_ + t] == 2) {
          const double* l1 = l0 + rows;
          double* w1 = w0 + rows;
          const double a = d_diag_[q0_ + t], b = d_off_[q0_ + t],
                       c = d_diag_[q0_ + t + 1];
          for (int i = 0; i < rows; ++i) {
            w0[i] = l0[i] * a + l1[i] * b;
            w1[i] = l0[i] * b + l1[i] * c;
          }
          ++t;
        } else {
          const double d = d_diag_[q0_ + t];
          for (int i = 0; i < rows; ++i) w0[i] = l0[i] * d;
        }
      }
      // Runs of consecutive stale alive columns, cut into pieces of at most
      // kUpdateChunk columns, a piece a task of the calling arena.
      runs_.clear();
      int t = 0;
      while (t < NumAlive()) {
        if (in_panel_[alive_[t]]) {
          ++t;
          continue;
        }
        const int k0 = alive_[t];
        int k1 = k0 + 1;
        ++t;
        while (t < NumAlive() && alive_[t] == k1 && !in_panel_[k1] &&
               k1 - k0 < kUpdateChunk) {
          ++k1;
          ++t;
        }
        runs_.push_back({k0, k1});
      }
      kernels::cpu::ForEachChunkInArena(
          static_cast<int64_t>(runs_.size()), [&](int64_t i) {
            const auto [k0, k1] = runs_[i];
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, rows, k1 - k0,
                        kq, -1.0, lp_.data(), rows, wp_.data() + (k0 - lo),
                        rows, 1.0, Col(k0) + lo, m_);
          });
    }
    for (int k : panel_) in_panel_[k] = 0;
    panel_.clear();
    q0_ = q_;
  }

  // Applies the panel's pivots so far to stale column r (alive) and adds it
  // to the panel.
  void MakeCurrent(int r) {
    if (in_panel_[r]) return;
    double* cr = Col(r);
    for (int t = q0_; t < q_;) {
      const double* l0 = Col(order_[t]);
      if (size_[t] == 2) {
        const double* l1 = Col(order_[t + 1]);
        const double a = d_diag_[t], b = d_off_[t], c = d_diag_[t + 1];
        const double w0 = l0[r] * a + l1[r] * b, w1 = l0[r] * b + l1[r] * c;
        for (int i = row_lo_; i < m_; ++i) cr[i] -= l0[i] * w0 + l1[i] * w1;
        t += 2;
      } else {
        const double w = l0[r] * d_diag_[t];
        for (int i = row_lo_; i < m_; ++i) cr[i] -= l0[i] * w;
        ++t;
      }
    }
    in_panel_[r] = 1;
    panel_.push_back(r);
  }

  void Remove(int j) {
    is_alive_[j] = 0;
    alive_.erase(std::find(alive_.begin(), alive_.end(), j));
  }

  // Eliminates the 1x1 pivot j from the panel's alive columns.
  void Take1(int j, double d, int pivot_size = 1) {
    const double inv = 1.0 / d;
    double* cj = Col(j);
    for (int k : panel_) {
      if (k == j || !is_alive_[k]) continue;
      const double wk = cj[k] * inv;
      if (wk == 0) continue;
      double* ck = Col(k);
      for (int i = row_lo_; i < m_; ++i) ck[i] -= cj[i] * wk;
    }
    for (int i = row_lo_; i < m_; ++i) cj[i] *= inv;
    Remove(j);
    kernels::dense_ldlt::RecordPivot(order_, size_, d_diag_, d_off_, q_, j,
                                     pivot_size, d, 0);
    ++q_;
  }

  // Eliminates the 2x2 pivot (j, r), both current.
  void Take2(int j, int r) {
    const double a = At(j, j), b = At(r, j), c = At(r, r);
    const double det = a * c - b * b;
    const double i11 = c / det, i12 = -b / det, i22 = a / det;
    double* cj = Col(j);
    double* cr = Col(r);
    for (int k : panel_) {
      if (k == j || k == r || !is_alive_[k]) continue;
      const double fj = cj[k], fr = cr[k];
      const double lj = fj * i11 + fr * i12, lr = fj * i12 + fr * i22;
      if (lj == 0 && lr == 0) continue;
      double* ck = Col(k);
      for (int i = row_lo_; i < m_; ++i) ck[i] -= cj[i] * lj + cr[i] * lr;
    }
    for (int i = row_lo_; i < m_; ++i) {
      const double fj = cj[i], fr = cr[i];
      cj[i] = fj * i11 + fr * i12;
      cr[i] = fj * i12 + fr * i22;
    }
    Remove(j);
    Remove(r);
    kernels::dense_ldlt::Record2x2Pivot(order_, size_, d_diag_, d_off_, q_, j,
                                        r, a, b, c);
    q_ += 2;
    ++counts_.two_by_two;
  }

  void Perturb(int j) {
    Take1(j,
          kernels::dense_ldlt::PerturbedPivot(At(j, j), params_.perturbation,
                                              &counts_),
          -1);
  }

  // The largest |F(i, j)| over alive fully summed rows i != j, or -1.
  int Partner(int j) {
    return kernels::dense_ldlt::Partner(f_, m_, alive_.data(), NumAlive(), j);
  }

  double ColumnMax(int j, int skip1, int skip2) {
    return kernels::dense_ldlt::ColumnMax(f_, m_, p_, alive_.data(), NumAlive(),
                                          j, skip1, skip2);
  }

  // SearchPivot's front (core/dense/kernels/dense_ldlt.h) over this
  // driver's panel: MakeCurrent applies a column's pending panel updates.
  struct PivotFront {
    BlockedLdlt& b;
    double At(int i, int j) { return b.At(i, j); }
    double ColumnMax(int j, int skip1, int skip2) {
      return b.ColumnMax(j, skip1, skip2);
    }
    int Partner(int j) { return b.Partner(j); }
    void MakeCurrent(int r) { b.MakeCurrent(r); }
    void Take1(int j, double d) { b.Take1(j, d); }
    void Take2(int j, int r) { b.Take2(j, r); }
    void Perturb(int j) { b.Perturb(j); }
  };

  // The pivot search of DensePartialLdlt from candidate column j (current).
  bool TryPivot(int j) {
    PivotFront front{*this};
    return kernels::dense_ldlt::SearchPivot(front, j, params_, u_);
  }

  // Root: the rest without the threshold (all alive columns are current
  // after the last EndPanel), unblocked.
  void ForceRest() {
    if (NumAlive() == 0) return;
    StartPanel(alive_);
    const double tiny = params_.tiny;
    while (NumAlive() > 0) {
      int j = alive_[0];
      for (int i : alive_) {
        if (std::fabs(At(i, i)) > std::fabs(At(j, j))) j = i;
      }
      const double a = At(j, j);
      if (std::fabs(a) > tiny) {
        Take1(j, a);
        continue;
      }
      const int r = Partner(j);
      if (r >= 0 &&
          kernels::dense_ldlt::Nonsingular2x2(a, At(r, j), At(r, r), tiny)) {
        Take2(j, r);
        continue;
      }
      Perturb(j);
    }
    for (int k : panel_) in_panel_[k] = 0;
    panel_.clear();
  }

  double* f_;
  int m_, p_, nb_;
  const DenseLdltParams& params_;
  int* order_;
  int* size_;
  double* d_diag_;
  double* d_off_;
  std::vector<int> alive_;  // alive fully summed columns, ascending
  std::vector<char> is_alive_, in_panel_;
  std::vector<int> panel_;  // current columns of the panel (some eliminated)
  std::vector<double> lp_, wp_;
  std::vector<std::pair<int, int>> runs_;  // column ranges of an update
  int q_ = 0, q0_ = 0, row_lo_ = 0;
  double u_;
  DenseLdltCounts counts_;
};

}  // namespace

kernels::DenseLdltCounts DenseBlockedPartialLdlt(
    double* f, int m, int p, const kernels::DenseLdltParams& params, int* order,
    int* size, double* d_diag, double* d_off, int panel_width, int* work) {
  if (p <= panel_width) {
    std::vector<int> own;
    if (work == nullptr) {
      own.resize(p);
      work = own.data();
    }
    return kernels::DensePartialLdlt(f, m, p, params, order, size, d_diag,
                                     d_off, work);
  }
  BlockedLdlt run(f, m, p, params, order, size, d_diag, d_off, panel_width);
  return run.Run();
}

}  // namespace factord::internal
