// Reconstruction errors of a block LDL^T (S2 §VII: ||L D L^T - A||_inf /
// ||A||_inf), on the scaled matrix, in two variants:
//   on the pattern: only the blocks of L's pattern (both triangles); this is
//     the residual of the fixed-point equations S2 Eq. 2 and is zero for an
//     exact (level-scheduled, unperturbed) incomplete factor;
//   full: every block of the product L D L^T, inside the pattern or not (the
//     fill an incomplete factor leaves out counts), as S2 Fig. 3 compares it.
// Blocks are computed in parallel per block (row), the row sums reduced
// serially in a fixed order, so the value does not depend on the schedule.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/jacobi_ldlt/jacobi_ldlt_blocks.h"
#include "core/jacobi_ldlt/jacobi_ldlt_sweeps.h"

namespace factord::internal {
namespace {

using jacobi_ldlt::AddDiagonalFactorTerm;
using jacobi_ldlt::AddProduct;
using jacobi_ldlt::ForEachIndex;
using jacobi_ldlt::IterateView;
using jacobi_ldlt::kMaxBlock;
using jacobi_ldlt::TimesD;

// max row sum of |A| over the pattern (both triangles).
std::vector<double> PatternRowSums(const BlockIldltStructure& s,
                                   const JacobiLdltPlan& plan,
                                   std::span<const double> blocks) {
  std::vector<double> rows(s.n, 0.0);
  for (int64_t t = 0; t < s.num_slots(); ++t) {
    const int32_t ib = s.row_block[t], jb = plan.column_of[t];
    const int bi = s.block_size(ib), bj = s.block_size(jb);
    const double* a = &blocks[s.value_ptr[t]];
    for (int cc = 0; cc < bj; ++cc) {
      for (int ii = 0; ii < bi; ++ii) {
        const double v = std::abs(a[ii + cc * bi]);
        rows[s.block_ptr[ib] + ii] += v;
        if (ib != jb) rows[s.block_ptr[jb] + cc] += v;
      }
    }
  }
  return rows;
}

double Ratio(const std::vector<double>& r_rows,
             const std::vector<double>& a_rows) {
  if (r_rows.empty()) return 0;
  const double r_norm = *std::max_element(r_rows.begin(), r_rows.end());
  const double a_norm = *std::max_element(a_rows.begin(), a_rows.end());
  return a_norm > 0 ? r_norm / a_norm : r_norm;
}

}  // namespace

double BlockReconstructionError(
    const BlockIldltStructure& s, const JacobiLdltPlan& plan,
    std::span<const double> a_blocks, std::span<const double> values,
    std::span<const uint8_t> kept, std::span<const int32_t> pivot_order,
    std::span<const int8_t> pivot_size, std::span<const double> d_diag,
    std::span<const double> d_off, const ExecContext& ctx) {
  const IterateView f{s, values, kept, pivot_order, pivot_size, d_diag, d_off};
  // R = (L D L^T)(I,J) - A(I,J) per slot, in the slot layout.
  std::vector<double> residual(s.value_ptr.back());
  ForEachIndex(ctx, s.num_blocks(), [&](int64_t i) {
    const int bi = s.block_size(i);
    const int64_t t = s.col_ptr[i];
    double w[kMaxBlock * kMaxBlock];
    double* r = &residual[s.value_ptr[t]];
    const double* a = &a_blocks[s.value_ptr[t]];
    for (int e = 0; e < bi * bi; ++e) r[e] = -a[e];
    for (int64_t q = s.row_ptr[i]; q < s.row_ptr[i + 1]; ++q) {
      const int64_t tik = s.row_slot[q];
      f.AddLdlt(1.0, tik, tik, plan.column_of[tik], r, w);
    }
    AddDiagonalFactorTerm(f, t, static_cast<int32_t>(i), r);
  });
  ForEachIndex(
      ctx, static_cast<int64_t>(plan.offdiag_slots.size()), [&](int64_t o) {
        const int64_t t = plan.offdiag_slots[o];
        const int32_t j = plan.column_of[t];
        const int bi = s.block_size(s.row_block[t]), bj = s.block_size(j);
        double w[kMaxBlock * kMaxBlock];
        double* r = &residual[s.value_ptr[t]];
        const double* a = &a_blocks[s.value_ptr[t]];
        for (int e = 0; e < bi * bj; ++e) r[e] = -a[e];
        for (int64_t q = plan.pair_ptr[o]; q < plan.pair_ptr[o + 1]; ++q) {
          const auto [tik, tjk] = plan.pairs[q];
          f.AddLdlt(1.0, tik, tjk, plan.column_of[tik], r, w);
        }
        if (f.Kept(t)) AddDiagonalFactorTerm(f, t, j, r);
      });
  return Ratio(PatternRowSums(s, plan, residual),
               PatternRowSums(s, plan, a_blocks));
}

double BlockProductError(
    const BlockIldltStructure& s, const JacobiLdltPlan& plan,
    std::span<const double> a_blocks, std::span<const double> values,
    std::span<const uint8_t> kept, std::span<const int32_t> pivot_order,
    std::span<const int8_t> pivot_size, std::span<const double> d_diag,
    std::span<const double> d_off, const ExecContext& ctx) {
  const IterateView f{s, values, kept, pivot_order, pivot_size, d_diag, d_off};
  const int64_t nb = s.num_blocks();
  // Per block row I: the row sums of |R(I,J)|, J <= I, for I's rows, and the
  // column sums of |R(I,J)|, J < I (the mirrored blocks of the upper
  // triangle), kept as (row, value) pairs for the serial reduction.
  std::vector<double> r_rows(s.n, 0.0);
  std::vector<std::vector<std::pair<int64_t, double>>> mirrored(nb);
  ForEachIndex(ctx, nb, [&](int64_t i) {
    const int bi = s.block_size(i);
    // The blocks J <= I that L D L^T reaches in block row I: through
    // every K with (I,K) in L (K = I included), the rows J <= I of column K.
    std::vector<int32_t> js;
    auto for_each_k = [&](auto&& body) {
      for (int64_t q = s.row_ptr[i]; q < s.row_ptr[i + 1]; ++q) {
        const int64_t tik = s.row_slot[q];
        if (f.Kept(tik)) body(tik, plan.column_of[tik]);
      }
      body(s.col_ptr[i], static_cast<int32_t>(i));
    };
    for_each_k([&](int64_t, int32_t k) {
      for (int64_t u = s.col_ptr[k]; u < s.col_ptr[k + 1]; ++u) {
        if (s.row_block[u] > i) break;
        if (f.Kept(u)) js.push_back(s.row_block[u]);
      }
    });
    std::sort(js.begin(), js.end());
    js.erase(std::unique(js.begin(), js.end()), js.end());
    std::vector<int64_t> offset(js.size() + 1, 0);
    for (size_t x = 0; x < js.size(); ++x) {
      offset[x + 1] = offset[x] + int64_t{bi} * s.block_size(js[x]);
    }
    std::vector<double> r(offset.back(), 0.0);
    auto block_of = [&](int32_t j) {
      return &r[offset[std::lower_bound(js.begin(), js.end(), j) - js.begin()]];
    };
    double w[kMaxBlock * kMaxBlock];
    for_each_k([&](int64_t tik, int32_t k) {
      if (k == i) {  // the diagonal factor of I itself
        AddDiagonalFactorTerm(f, tik, k, block_of(k));
        return;
      }
      const int bk = s.block_size(k);
      const int64_t kstart = s.block_ptr[k];
      TimesD(&values[s.value_ptr[tik]], bi, bk, &pivot_size[kstart],
             &d_diag[kstart], &d_off[kstart], w);
      for (int64_t u = s.col_ptr[k]; u < s.col_ptr[k + 1]; ++u) {
        const int32_t j = s.row_block[u];
        if (j > i) break;
        if (!f.Kept(u)) continue;
        if (j == k) {
          AddDiagonalFactorTerm(f, tik, k, block_of(k));
        } else {
          // R(I,J) += (L(I,K) D_K) L(J,K)^T.
          AddProduct(1.0, w, bi, &values[s.value_ptr[u]], s.block_size(j), bk,
                     block_of(j));
        }
      }
    });
    // - A(I,J) on the pattern of row I and the diagonal block.
    auto subtract = [&](int64_t t, int32_t j) {
      const double* a = &a_blocks[s.value_ptr[t]];
      double* rb = block_of(j);
      for (int e = 0; e < bi * s.block_size(j); ++e) rb[e] -= a[e];
    };
    for (int64_t q = s.row_ptr[i]; q < s.row_ptr[i + 1]; ++q) {
      subtract(s.row_slot[q], plan.column_of[s.row_slot[q]]);
    }
    subtract(s.col_ptr[i], static_cast<int32_t>(i));
    for (size_t x = 0; x < js.size(); ++x) {
      const int32_t j = js[x];
      const int bj = s.block_size(j);
      const double* rb = &r[offset[x]];
      for (int cc = 0; cc < bj; ++cc) {
        double column = 0;
        for (int ii = 0; ii < bi; ++ii) {
          const double v = std::abs(rb[ii + cc * bi]);
          r_rows[s.block_ptr[i] + ii] += v;
          column += v;
        }
        if (j != i) mirrored[i].push_back({s.block_ptr[j] + cc, column});
      }
    }
  });
  for (int64_t i = 0; i < nb; ++i) {
    for (const auto& [row, v] : mirrored[i]) r_rows[row] += v;
  }
  return Ratio(r_rows, PatternRowSums(s, plan, a_blocks));
}

}  // namespace factord::internal
