// Multifrontal front processing (see ldlt_front.h). The front is an m x m
// dense column-major matrix over [delayed from children | own columns |
// update rows]; its first p = delayed + own columns are fully summed.
#include "src/factor/ldlt_front.h"

#include <algorithm>
#include <vector>

#include "src/factor/dense_ldlt_blocked.h"

namespace factord::internal {
namespace {
constexpr int kMinDelayBudget = 0;

// Per-thread scratch reused from front to front (no allocation, no fresh
// pages for the many small fronts of a KKT tree). FactorizeFront does not
// nest on a thread, so one set a thread suffices.
struct FrontScratch {
  std::vector<int32_t> global;
  std::vector<double> front;
  std::vector<int> order, size, local_row;
  std::vector<double> d_diag, d_off, w;
};
FrontScratch& Scratch() {
  thread_local FrontScratch scratch;
  return scratch;
}
}  // namespace

void FactorizeFront(const LdltSymbolic& sym, int32_t f,
                    std::span<const double> values,
                    std::span<const ContributionBlock* const> children,
                    const kernels::DenseLdltParams& params,
                    SchurUpdateFn schur_update, std::span<int32_t> map,
                    FrontFactor* factor, ContributionBlock* cb,
                    FrontCounts* counts) {
  const int32_t col_begin = sym.front_begin[f];
  const int32_t col_end = sym.front_begin[f + 1];
  const int64_t upd_begin = sym.update_ptr[f];
  const int r = static_cast<int>(sym.update_ptr[f + 1] - upd_begin);
  int nd = 0;
  for (const ContributionBlock* child : children) nd += child->num_delayed;
  const int p = nd + (col_end - col_begin);
  const int m = p + r;
  counts->max_front = std::max<int64_t>(counts->max_front, m);

  // Local numbering: delayed variables, own columns, update rows.
  FrontScratch& scratch = Scratch();
  std::vector<int32_t>& global = scratch.global;
  global.resize(m);
  {
    int t = 0;
    for (const ContributionBlock* child : children) {
      for (int k = 0; k < child->num_delayed; ++k) global[t++] = child->rows[k];
    }
    for (int32_t c = col_begin; c < col_end; ++c) global[t++] = c;
    for (int k = 0; k < r; ++k) global[t++] = sym.update_rows[upd_begin + k];
  }
  for (int t = 0; t < m; ++t) map[global[t]] = t;

  // Assembly: original entries (the fully summed block kept symmetric) ...
  std::vector<double>& front = scratch.front;
  front.assign(static_cast<size_t>(m) * m, 0.0);
  auto at = [&](int i, int j) -> double& {
    return front[static_cast<size_t>(j) * m + i];
  };
  for (int32_t c = col_begin; c < col_end; ++c) {
    const int lc = map[c];
    for (int64_t e = sym.col_ptr[c]; e < sym.col_ptr[c + 1]; ++e) {
      const int li = map[sym.col_rows[e]];
      at(li, lc) += values[e];
      if (li < p && li != lc) at(lc, li) += values[e];
    }
  }
  // ... and the children's contribution blocks (extend-add).
  for (const ContributionBlock* child : children) {
    const int rc = static_cast<int>(child->rows.size());
    for (int b = 0; b < rc; ++b) {
      const int lb = map[child->rows[b]];
      const double* col = &child->values[static_cast<size_t>(b) * rc];
      for (int a = 0; a < rc; ++a) at(map[child->rows[a]], lb) += col[a];
    }
  }

  // Partial factorization of the fully summed columns.
  kernels::DenseLdltParams front_params = params;
  front_params.force = sym.front_parent[f] == -1;
  // Delays beyond a quarter of the own columns snowball towards the root.
  front_params.delay_budget =
      std::max(kMinDelayBudget, (col_end - col_begin) / 4);
  // Blocked (BLAS 3) beyond one panel; exactly DensePartialLdlt below.
  std::vector<int>& order = scratch.order;
  std::vector<int>& size = scratch.size;
  std::vector<double>& d_diag = scratch.d_diag;
  std::vector<double>& d_off = scratch.d_off;
  order.resize(p);
  size.resize(p);
  d_diag.resize(p);
  d_off.resize(p);
  const kernels::DenseLdltCounts dense =
      DenseBlockedPartialLdlt(front.data(), m, p, front_params, order.data(),
                              size.data(), d_diag.data(), d_off.data());
  const int q = dense.eliminated;
  const int nd_out = p - q;
  const int rc = nd_out + r;
  counts->delayed += nd_out;
  counts->two_by_two += dense.two_by_two;
  counts->perturbed += dense.perturbed;

  // The factor: rows are the pivots in order, then the delayed columns,
  // then the update rows. Local row of each factor row:
  std::vector<int>& local_row = scratch.local_row;
  local_row.resize(q + rc);
  for (int t = 0; t < p; ++t) local_row[t] = order[t];
  for (int k = 0; k < r; ++k) local_row[p + k] = p + k;
  const int ld = q + rc;
  factor->q = q;
  factor->rows.resize(ld);
  for (int t = 0; t < ld; ++t) factor->rows[t] = global[local_row[t]];
  factor->l.assign(static_cast<size_t>(ld) * q, 0.0);
  factor->d_diag.assign(d_diag.begin(), d_diag.begin() + q);
  factor->d_off.assign(d_off.begin(), d_off.begin() + q);
  factor->pivot_size.assign(size.begin(), size.begin() + q);
  for (int t = 0; t < q; ++t) {
    double* col = &factor->l[static_cast<size_t>(t) * ld];
    col[t] = 1.0;
    const int lj = order[t];
    // Rows after the pivot (a 2x2 partner's entry is part of D, not L).
    const int first = factor->pivot_size[t] == 2 ? t + 2 : t + 1;
    for (int s = first; s < ld; ++s) col[s] = at(local_row[s], lj);
  }

  // Contribution block: delayed and update rows, Schur-updated.
  cb->num_delayed = nd_out;
  cb->rows.assign(factor->rows.begin() + q, factor->rows.end());
  if (sym.front_parent[f] == -1) {
    cb->rows.clear();
    cb->values.clear();
  } else if (rc > 0) {
    if (r > 0 && q > 0) {
      // W = L_u D over the update rows, then S -= L_u W^T.
      const double* lu = &factor->l[q + nd_out];
      std::vector<double>& w = scratch.w;
      w.resize(static_cast<size_t>(r) * q);
      for (int t = 0; t < q; ++t) {
        const double* l0 = lu + static_cast<size_t>(t) * ld;
        double* w0 = &w[static_cast<size_t>(t) * r];
        if (factor->pivot_size[t] == 2) {
          const double* l1 = l0 + ld;
          double* w1 = w0 + r;
          const double a = factor->d_diag[t], b = factor->d_off[t],
                       c = factor->d_diag[t + 1];
          for (int i = 0; i < r; ++i) {
            w0[i] = l0[i] * a + l1[i] * b;
            w1[i] = l0[i] * b + l1[i] * c;
          }
          ++t;
        } else {
          const double d = factor->d_diag[t];
          for (int i = 0; i < r; ++i) w0[i] = l0[i] * d;
        }
      }
      schur_update(r, q, lu, ld, w.data(), r, &at(p, p), m);
    }
    cb->values.assign(static_cast<size_t>(rc) * rc, 0.0);
    auto cbv = [&](int a, int b) -> double& {
      return cb->values[static_cast<size_t>(b) * rc + a];
    };
    for (int b = 0; b < rc; ++b) {
      const int lb = local_row[q + b];
      for (int a = b; a < rc; ++a) {
        const double v = at(local_row[q + a], lb);
        cbv(a, b) = v;
        cbv(b, a) = v;
      }
    }
  }
  for (int t = 0; t < m; ++t) map[global[t]] = -1;
  // Large fronts give their memory back: a thread keeps at most 8 MB.
  constexpr size_t kKeepDoubles = size_t{1} << 20;
  if (front.capacity() > kKeepDoubles) std::vector<double>().swap(front);
  if (scratch.w.capacity() > kKeepDoubles) {
    std::vector<double>().swap(scratch.w);
  }
}

}  // namespace factord::internal
