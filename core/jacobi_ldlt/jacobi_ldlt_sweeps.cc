// S2 Alg. 2 (the modified Jacobi LDL^T), see jacobi_ldlt_sweeps.h. Dense
// block products are plain loops on blocks of at most 32 x 32; the diagonal
// blocks go through the batched dense LDL^T of kernels/dense (S2 §IV).
#include "core/jacobi_ldlt/jacobi_ldlt_sweeps.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/dense/kernels/batched_dense_kernels.h"
#include "core/dense/pivot_params.h"
#include "core/jacobi_ldlt/jacobi_ldlt_blocks.h"

namespace factord::internal {
namespace {

using jacobi_ldlt::ForEachIndex;
using jacobi_ldlt::IterateView;
using jacobi_ldlt::kMaxBlock;
using jacobi_ldlt::View;

}  // namespace

int64_t JacobiLdltPlan::bytes() const {
  return static_cast<int64_t>(column_of.size() * sizeof(int32_t) +
                              (offdiag_slots.size() + pair_ptr.size()) *
                                  sizeof(int64_t) +
                              pairs.size() * sizeof(pairs[0]));
}

JacobiLdltPlan BuildJacobiLdltPlan(const BlockIldltStructure& s) {
  JacobiLdltPlan plan;
  const int64_t nb = s.num_blocks();
  plan.column_of.resize(s.num_slots());
  for (int64_t j = 0; j < nb; ++j) {
    for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
      plan.column_of[t] = static_cast<int32_t>(j);
      if (t > s.col_ptr[j]) plan.offdiag_slots.push_back(t);
    }
  }
  // slot_in_row_j[K] = slot (J, K) while column J is processed.
  std::vector<int64_t> slot_in_row_j(nb, -1);
  plan.pair_ptr.push_back(0);
  for (int64_t j = 0; j < nb; ++j) {
    for (int64_t r = s.row_ptr[j]; r < s.row_ptr[j + 1]; ++r) {
      slot_in_row_j[plan.column_of[s.row_slot[r]]] = s.row_slot[r];
    }
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      const int32_t i = s.row_block[t];
      for (int64_t r = s.row_ptr[i]; r < s.row_ptr[i + 1]; ++r) {
        const int64_t tik = s.row_slot[r];
        const int32_t k = plan.column_of[tik];
        if (k >= j) break;  // row slots ascend in K
        if (slot_in_row_j[k] >= 0)
          plan.pairs.push_back({tik, slot_in_row_j[k]});
      }
      plan.pair_ptr.push_back(static_cast<int64_t>(plan.pairs.size()));
    }
    for (int64_t r = s.row_ptr[j]; r < s.row_ptr[j + 1]; ++r) {
      slot_in_row_j[plan.column_of[s.row_slot[r]]] = -1;
    }
  }
  return plan;
}

absl::StatusOr<BlockLdltIterate> RunJacobiLdltSweeps(
    const BlockIldltStructure& s, const JacobiLdltPlan& plan,
    std::span<const double> a_blocks, const JacobiSweepOptions& options,
    const ExecContext& ctx, std::vector<double>* sweep_errors,
    const BlockLdltIterate* start) {
  const int64_t n = s.n, nb = s.num_blocks();
  double max_abs = 0;
  for (double v : a_blocks) max_abs = std::max(max_abs, std::abs(v));
  if (!(max_abs > 0)) max_abs = 1.0;

  // Alg. 2 line 1: L = tril(A), D = I, p = identity.
  BlockLdltIterate prev;
  prev.values.assign(a_blocks.begin(), a_blocks.end());
  prev.pivot_size.assign(n, 1);
  prev.d_diag.assign(n, 1.0);
  prev.d_off.assign(n, 0.0);
  prev.pivot_order.resize(n);
  for (int64_t b = 0; b < nb; ++b) {
    for (int32_t c = 0; c < s.block_size(b); ++c) {
      prev.pivot_order[s.block_ptr[b] + c] = c;
    }
  }
  if (start != nullptr) prev = *start;
  BlockLdltIterate next = prev;

  // The batch of diagonal blocks B (S2 §IV batched LDL^T), one per block.
  std::vector<int32_t> sizes(nb);
  std::vector<int64_t> value_offset(nb), index_offset(nb);
  int64_t batch_values = 0;
  for (int64_t b = 0; b < nb; ++b) {
    sizes[b] = s.block_size(b);
    value_offset[b] = batch_values;
    index_offset[b] = s.block_ptr[b];
    batch_values += int64_t{sizes[b]} * sizes[b];
  }
  std::vector<double> batch(batch_values);
  std::vector<int32_t> order(n), col_perm(n), step(nb);
  std::vector<int8_t> status(nb);
  kernels::DenseBatchParams dense;
  dense.kind = kernels::DenseFactorKind::kLdlt;
  dense.pivoting =
      options.pivoting == Pivoting::kStatic ? kernels::kBlockPivotStatic
      : options.pivoting == Pivoting::kRook ? kernels::kBlockPivotRook
                                            : kernels::kBlockPivotPartial;
  dense.relative = false;
  dense.threshold =
      DensePivotParams(options.pivoting, options.pivot_threshold, max_abs)
          .threshold;
  const double sqrt_eps = std::sqrt(std::numeric_limits<double>::epsilon());

  double epsilon = options.epsilon;
  for (int sweep = 0; sweep < options.sweeps; ++sweep) {
    if (absl::Status st = ctx.CheckCancelled(); !st.ok()) return st;
    const IterateView old = View(s, prev);
    // Diagonal phase (Alg. 2 lines 4-6): B = (A(I,I) - sum L D L^T)(p', p').
    ForEachIndex(ctx, nb, [&](int64_t i) {
      const int bi = s.block_size(i);
      double c[kMaxBlock * kMaxBlock], w[kMaxBlock * kMaxBlock];
      const double* a = &a_blocks[s.value_ptr[s.col_ptr[i]]];
      std::copy(a, a + bi * bi, c);
      for (int64_t r = s.row_ptr[i]; r < s.row_ptr[i + 1]; ++r) {
        const int64_t tik = s.row_slot[r];
        old.AddLdlt(-1.0, tik, tik, plan.column_of[tik], c, w);
      }
      const int32_t* p = &prev.pivot_order[s.block_ptr[i]];
      double* b = &batch[value_offset[i]];
      for (int jj = 0; jj < bi; ++jj) {
        for (int ii = 0; ii < bi; ++ii) b[ii + jj * bi] = c[p[ii] + p[jj] * bi];
      }
    });
    dense.tiny = epsilon * max_abs;
    dense.perturbation = std::max(epsilon, sqrt_eps) * max_abs;
    kernels::DenseBatch view{
        sizes,           value_offset, index_offset, batch,  order, col_perm,
        next.pivot_size, next.d_diag,  next.d_off,   status, step};
    kernels::FactorDenseBatch(ctx, dense, view);
    // Line 7: p''(I) = p'(I)(q); L''(I,I) in pivot order.
    ForEachIndex(ctx, nb, [&](int64_t i) {
      const int bi = s.block_size(i);
      const int64_t start = s.block_ptr[i];
      for (int c = 0; c < bi; ++c) {
        next.pivot_order[start + c] =
            prev.pivot_order[start + order[start + c]];
      }
      std::copy(&batch[value_offset[i]], &batch[value_offset[i]] + bi * bi,
                &next.values[s.value_ptr[s.col_ptr[i]]]);
    });
    if (absl::Status st = ctx.CheckCancelled(); !st.ok()) return st;
    // Off-diagonal phase (lines 9-12).
    ForEachIndex(
        ctx, static_cast<int64_t>(plan.offdiag_slots.size()), [&](int64_t o) {
          const int64_t t = plan.offdiag_slots[o];
          const int32_t j = plan.column_of[t];
          const int bi = s.block_size(s.row_block[t]), bj = s.block_size(j);
          double c[kMaxBlock * kMaxBlock], w[kMaxBlock * kMaxBlock];
          const double* a = &a_blocks[s.value_ptr[t]];
          std::copy(a, a + bi * bj, c);
          for (int64_t q = plan.pair_ptr[o]; q < plan.pair_ptr[o + 1]; ++q) {
            const auto [tik, tjk] = plan.pairs[q];
            old.AddLdlt(-1.0, tik, tjk, plan.column_of[tik], c, w);
          }
          // X = C(:, p''(J)), then X L''(J,J)^{-T} D''(J)^{-1}.
          const int64_t start = s.block_ptr[j];
          const int32_t* p = &next.pivot_order[start];
          const double* ljj = &next.values[s.value_ptr[s.col_ptr[j]]];
          double* x = &next.values[s.value_ptr[t]];
          for (int cc = 0; cc < bj; ++cc) {
            std::copy(c + p[cc] * bi, c + (p[cc] + 1) * bi, x + cc * bi);
          }
          for (int cc = 0; cc < bj; ++cc) {
            for (int k = 0; k < cc; ++k) {
              const double l = ljj[cc + k * bj];
              if (l == 0) continue;
              for (int ii = 0; ii < bi; ++ii)
                x[ii + cc * bi] -= x[ii + k * bi] * l;
            }
          }
          for (int cc = 0; cc < bj; ++cc) {
            const int64_t g = start + cc;
            if (next.pivot_size[g] == 2) {
              const double pp = next.d_diag[g], q = next.d_off[g],
                           u = next.d_diag[g + 1];
              const double det = pp * u - q * q;
              for (int ii = 0; ii < bi; ++ii) {
                const double y0 = x[ii + cc * bi], y1 = x[ii + (cc + 1) * bi];
                x[ii + cc * bi] = (y0 * u - y1 * q) / det;
                x[ii + (cc + 1) * bi] = (y1 * pp - y0 * q) / det;
              }
              ++cc;
            } else {
              const double inv = 1.0 / next.d_diag[g];
              for (int ii = 0; ii < bi; ++ii) x[ii + cc * bi] *= inv;
            }
          }
        });
    // Counts of this sweep: a perturbed pivot is exactly +-perturbation.
    next.perturbed_pivots = 0;
    next.two_by_two_pivots = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (next.pivot_size[k] == 2) ++next.two_by_two_pivots;
      if (next.pivot_size[k] == 1 &&
          std::abs(next.d_diag[k]) == dense.perturbation &&
          (k == 0 || next.pivot_size[k - 1] != 2)) {
        ++next.perturbed_pivots;
      }
    }
    next.block_status = status;
    std::swap(prev, next);
    if (sweep_errors != nullptr) {
      const auto error = options.pattern_error ? &BlockReconstructionError
                                               : &BlockProductError;
      sweep_errors->push_back(error(s, plan, a_blocks, prev.values, {},
                                    prev.pivot_order, prev.pivot_size,
                                    prev.d_diag, prev.d_off, ctx));
    }
    epsilon *= options.delta;  // line 13
  }
  return prev;
}

}  // namespace factord::internal
