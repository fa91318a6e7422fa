// One block column of the left-looking block incomplete LDL^T (S1 §IV-B,
// Alg. 1): column J pulls the updates L(I,K) D_K L(J,K)^T of every finished
// column K with a kept block (J,K) into the blocks (I,J) its pattern allows
// (fill outside the level-of-fill pattern is discarded), factorizes its
// diagonal block with the dense LDL^T with pivoting inside the block (1x1
// and 2x2; tiny pivots perturbed and counted: no delays across blocks),
// solves the off-diagonal blocks and applies the dual-threshold dropping
// (S1 §IV-B3): entries <= tau * ||l_c||_2 go (Prepare), then at most the
// budget the leftover protocol allows survive, the largest kept (Finish).
// Diagonal blocks are dense and never dropped (S1: no dropping in dense
// blocks). Pivoting inside block J permutes its columns; the permutation is
// kept per block (pivot_order) and applied in the solves.
#include "core/block_ildlt/block_ildlt_column.h"

#include <algorithm>
#include <cmath>

namespace factord::internal {

BlockColumnScratch::BlockColumnScratch(const BlockIldltStructure& s)
    : slot_of_row(s.num_blocks(), -1) {
  int64_t most = 0;  // the most off-diagonal entries of one block column
  for (int64_t j = 0; j < s.num_blocks(); ++j) {
    const int64_t diagonal = s.col_ptr[j];
    most = std::max(most,
                    s.value_ptr[s.col_ptr[j + 1]] - s.value_ptr[diagonal + 1]);
  }
  survivors.reserve(most);
}

// The per-block arithmetic is core/block_ildlt/kernels/block_ildlt_block.h,
// shared with the CUDA kernels
// (core/block_ildlt/kernels/cuda/block_ildlt_launch.cu).
using kernels::SubtractProduct;
using kernels::TimesD;

void BlockColumnFactorizer::Prepare(int64_t j, BlockColumnScratch* scratch,
                                    BlockColumnCounts* counts) const {
  PullUpdates(j, scratch);
  FactorAndSolve(j, scratch, counts);
}

void BlockColumnFactorizer::PullUpdates(int64_t j,
                                        BlockColumnScratch* scratch) const {
  const BlockIldltStructure& s = s_;
  double* values = f_.values;
  const int bj = s.block_size(j);
  std::vector<int64_t>& slot_of_row = scratch->slot_of_row;
  double* w = scratch->w;
  for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
    slot_of_row[s.row_block[t]] = t;
  }
  // Pull updates (S1 Alg. 1): A(I,J) -= L(I,K) D_K L(J,K)^T, K ascending.
  for (int64_t r = s.row_ptr[j]; r < s.row_ptr[j + 1]; ++r) {
    const int64_t tk = s.row_slot[r];
    if (!f_.kept[tk]) continue;
    const int32_t k = s.row_slot_col[r];
    const int bk = s.block_size(k);
    const int64_t kstart = s.block_ptr[k];
    TimesD(&values[s.value_ptr[tk]], bj, bk, &f_.pivot_size[kstart],
           &f_.d_diag[kstart], &f_.d_off[kstart], w);
    for (int64_t u = tk; u < s.col_ptr[k + 1]; ++u) {
      const int32_t bi_index = s.row_block[u];
      const int64_t target = slot_of_row[bi_index];
      if (target < 0 || !f_.kept[u]) continue;  // outside the pattern
      SubtractProduct(&values[s.value_ptr[u]], w, s.block_size(bi_index), bj,
                      bk, &values[s.value_ptr[target]]);
    }
  }
  for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
    slot_of_row[s.row_block[t]] = -1;
  }
}

void BlockColumnFactorizer::PullUpdatesInto(int64_t j, int64_t t) const {
  const BlockIldltStructure& s = s_;
  double* values = f_.values;
  const int bj = s.block_size(j);
  const int32_t i = s.row_block[t];
  const int bi = s.block_size(i);
  double* aij = &values[s.value_ptr[t]];
  double w[kMaxIldltBlock * kMaxIldltBlock];
  // S1 Fig. 2b: the K with blocks (J,K) and (I,K), from the two sorted rows.
  const kernels::PullRows rows{s.row_ptr.data(), s.row_slot.data(),
                               s.row_slot_col.data()};
  const int32_t jb = static_cast<int32_t>(j);
  kernels::PullCursor cursor = kernels::StartPull(rows, i, jb);
  kernels::PullTerm term;
  while (kernels::NextPullTerm(rows, f_.kept, i, jb, &cursor, &term)) {
    const int bk = s.block_size(term.k);
    const int64_t kstart = s.block_ptr[term.k];
    TimesD(&values[s.value_ptr[term.jk]], bj, bk, &f_.pivot_size[kstart],
           &f_.d_diag[kstart], &f_.d_off[kstart], w);
    SubtractProduct(&values[s.value_ptr[term.ik]], w, bi, bj, bk, aij);
  }
}

void BlockColumnFactorizer::FactorAndSolve(int64_t j,
                                           BlockColumnScratch* scratch,
                                           BlockColumnCounts* counts) const {
  const BlockIldltStructure& s = s_;
  double* values = f_.values;
  const int bj = s.block_size(j);
  const int64_t start = s.block_ptr[j];
  double* x = scratch->x;
  // Diagonal block: dense LDL^T with pivoting inside the block.
  double* diag = &values[s.value_ptr[s.col_ptr[j]]];
  int* order = scratch->order;
  int* size = scratch->size;
  std::copy(diag, diag + bj * bj, scratch->front);
  const kernels::DenseLdltCounts dense =
      kernels::DensePartialLdlt(scratch->front, bj, bj, params_, order, size,
                                scratch->d_diag, scratch->d_off, scratch->work);
  counts->perturbed += dense.perturbed;
  counts->two_by_two += dense.two_by_two;
  // L_JJ in pivot order, unit diagonal, zero inside a 2x2 pair.
  for (int c = 0; c < bj; ++c) {
    for (int r2 = 0; r2 < bj; ++r2) {
      diag[r2 + c * bj] =
          kernels::UnitLowerEntry(scratch->front, bj, order, size, r2, c);
    }
    f_.pivot_order[start + c] = order[c];
    f_.pivot_size[start + c] = static_cast<int8_t>(size[c] < 0 ? 1 : size[c]);
    f_.d_diag[start + c] = scratch->d_diag[c];
    f_.d_off[start + c] = scratch->d_off[c];
  }
  counts->nnz_factor += int64_t{bj} * (bj + 1) / 2 + dense.two_by_two;
  // Off-diagonal blocks: L(I,J) = A(I,J) P_J L_JJ^{-T} D_J^{-1}.
  double* norm2 = scratch->norm2;
  std::fill(norm2, norm2 + bj, 0.0);
  for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
    const int bi = s.block_size(s.row_block[t]);
    double* aij = &values[s.value_ptr[t]];
    for (int c = 0; c < bj; ++c) {
      std::copy(aij + order[c] * bi, aij + (order[c] + 1) * bi, x + c * bi);
    }
    kernels::SolveOffDiagonalRows(x, bi, bj, 0, bi, diag, &f_.pivot_size[start],
                                  &f_.d_diag[start], &f_.d_off[start]);
    std::copy(x, x + bi * bj, aij);
    kernels::AddColumnNorms(aij, bi, 0, bj, norm2);
  }
  // Dual-threshold dropping (S1 §IV-B3), first rule: |l| <= tau ||l_c||_2.
  for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
    const int bi = s.block_size(s.row_block[t]);
    double* aij = &values[s.value_ptr[t]];
    for (int c = 0; c < bj; ++c) {
      const double limit = kernels::DropLimit(tau_, norm2[c]);
      for (int i = 0; i < bi; ++i) {
        double& v = aij[i + c * bi];
        if (v == 0) continue;
        if (std::abs(v) <= limit) {
          v = 0;
          ++counts->dropped_entries;
        } else {
          ++counts->survivors;
        }
      }
    }
  }
}

void BlockColumnFactorizer::Finish(int64_t j, int64_t keep,
                                   BlockColumnScratch* scratch,
                                   BlockColumnCounts* counts) const {
  const BlockIldltStructure& s = s_;
  double* values = f_.values;
  if (keep < counts->survivors) {
    // Second rule: only the `keep` largest survivors stay.
    auto& survivors = scratch->survivors;
    survivors.clear();
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      for (int64_t e = s.value_ptr[t]; e < s.value_ptr[t + 1]; ++e) {
        if (values[e] != 0)
          survivors.push_back({std::abs(values[e]), &values[e]});
      }
    }
    std::nth_element(survivors.begin(), survivors.begin() + keep,
                     survivors.end(), [values](const auto& x1, const auto& x2) {
                       // A strict total order (position = address in the
                       // column).
                       return kernels::SurvivorBefore(
                           x1.first, x1.second - values, x2.first,
                           x2.second - values);
                     });
    for (auto it = survivors.begin() + keep; it != survivors.end(); ++it) {
      *it->second = 0;
      ++counts->dropped_entries;
    }
  }
  counts->nnz_factor += std::min(keep, counts->survivors);
  for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
    const double* aij = &values[s.value_ptr[t]];
    const int64_t len = s.value_ptr[t + 1] - s.value_ptr[t];
    f_.kept[t] = std::any_of(aij, aij + len, [](double v) { return v != 0; });
    if (!f_.kept[t]) ++counts->dropped_blocks;
  }
}

}  // namespace factord::internal
