// Symbolic ILU(k) / IC(k) (S4 §2.1), level sets and the P A P^T helper.
#include "core/incomplete/incomplete_symbolic.h"

#include <algorithm>
#include <utility>

#include "core/order/rcm.h"

namespace factord::internal {

absl::StatusOr<IncompletePattern> SymbolicIlu(const CsrMatrix& a, int k,
                                              const ExecContext& ctx) {
  const int64_t n = a.rows;
  IncompletePattern out;
  out.diag.resize(n);
  std::vector<int> lev_all;       // level of every kept entry
  std::vector<int> level(n, -1);  // dense work row, -1 = absent
  std::vector<int32_t> cols;
  for (int64_t i = 0; i < n; ++i) {
    if ((i & 1023) == 0) {
      if (absl::Status s = ctx.CheckCancelled(); !s.ok()) return s;
    }
    cols.clear();
    for (int64_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      level[a.col_idx[p]] = 0;
      cols.push_back(a.col_idx[p]);
    }
    if (level[i] < 0) {  // a missing diagonal is part of the pattern
      level[i] = 0;
      cols.push_back(static_cast<int32_t>(i));
    }
    // Row i merges the rows of its pivots j < i in increasing order; cols
    // grows with fill and stays sorted beyond the current pivot.
    std::sort(cols.begin(), cols.end());
    for (size_t t = 0; t < cols.size() && cols[t] < i; ++t) {
      const int32_t j = cols[t];
      const int lij = level[j];
      for (int64_t q = out.diag[j] + 1; q < out.row_ptr[j + 1]; ++q) {
        const int32_t c = out.col_idx[q];
        const int lev = lij + lev_all[q] + 1;
        if (lev > k) continue;
        if (level[c] < 0) {
          level[c] = lev;
          cols.insert(std::upper_bound(cols.begin() + t + 1, cols.end(), c), c);
        } else {
          level[c] = std::min(level[c], lev);
        }
      }
    }
    for (int32_t c : cols) {
      if (c == i) out.diag[i] = static_cast<int64_t>(out.col_idx.size());
      out.col_idx.push_back(c);
      lev_all.push_back(level[c]);
      level[c] = -1;
    }
    out.row_ptr.push_back(static_cast<int64_t>(out.col_idx.size()));
  }
  return out;
}

LevelSets ComputeLevelSets(const IncompletePattern& pattern,
                           kernels::Triangle triangle) {
  const int64_t n = pattern.n();
  const bool lower = triangle == kernels::Triangle::kLower;
  std::vector<int32_t> level(n, 0);
  int32_t levels = n > 0 ? 1 : 0;
  for (int64_t step = 0; step < n; ++step) {
    const int64_t i = lower ? step : n - 1 - step;
    const int64_t begin = lower ? pattern.row_ptr[i] : pattern.diag[i] + 1;
    const int64_t end = lower ? pattern.diag[i] : pattern.row_ptr[i + 1];
    int32_t l = 0;
    for (int64_t p = begin; p < end; ++p) {
      l = std::max(l, level[pattern.col_idx[p]] + 1);
    }
    level[i] = l;
    levels = std::max(levels, l + 1);
  }
  LevelSets sets;
  sets.level_ptr.assign(levels + 1, 0);
  for (int64_t i = 0; i < n; ++i) ++sets.level_ptr[level[i] + 1];
  for (int32_t l = 0; l < levels; ++l) {
    sets.level_ptr[l + 1] += sets.level_ptr[l];
  }
  sets.rows.resize(n);
  std::vector<int64_t> next(sets.level_ptr.begin(), sets.level_ptr.end() - 1);
  for (int64_t i = 0; i < n; ++i) {
    sets.rows[next[level[i]]++] = static_cast<int32_t>(i);
  }
  return sets;
}

CsrMatrix PermuteSymmetric(const CsrMatrix& full,
                           const std::vector<int32_t>& perm) {
  const std::vector<int32_t> inverse = InversePermutation(perm);
  CsrMatrix out;
  out.rows = out.cols = full.rows;
  out.structure = Structure::kGeneral;
  out.row_ptr.assign(1, 0);
  out.col_idx.reserve(full.col_idx.size());
  out.values.reserve(full.values.size());
  std::vector<std::pair<int32_t, double>> row;
  for (int64_t k = 0; k < full.rows; ++k) {
    const int32_t old = perm[k];
    row.clear();
    for (int64_t p = full.row_ptr[old]; p < full.row_ptr[old + 1]; ++p) {
      row.emplace_back(inverse[full.col_idx[p]], full.values[p]);
    }
    std::sort(row.begin(), row.end());
    for (const auto& [c, v] : row) {
      out.col_idx.push_back(c);
      out.values.push_back(v);
    }
    out.row_ptr.push_back(static_cast<int64_t>(out.col_idx.size()));
  }
  return out;
}

IncompleteAnalysis::IncompleteAnalysis(Method method, IncompletePattern pattern,
                                       std::vector<int32_t> perm,
                                       std::vector<int64_t> sv_ptr)
    : method_(method),
      pattern_(std::move(pattern)),
      perm_(std::move(perm)),
      sv_ptr_(std::move(sv_ptr)) {
  lower_levels_ = ComputeLevelSets(pattern_, kernels::Triangle::kLower);
  upper_levels_ = ComputeLevelSets(pattern_, kernels::Triangle::kUpper);
}

int64_t IncompleteAnalysis::bytes() const {
  return static_cast<int64_t>(
             pattern_.row_ptr.size() * 8 + pattern_.col_idx.size() * 4 +
             pattern_.diag.size() * 8 + perm_.size() * 4 + sv_ptr_.size() * 8) +
         lower_levels_.bytes() + upper_levels_.bytes();
}

int64_t IncompleteAnalysis::factor_bytes_estimate() const {
  // The factor's values and column indices; the block inverses of the
  // block-Jacobi solves (at most 2 * 12 doubles a row by default) are not
  // known before the block size is.
  return static_cast<int64_t>(pattern_.col_idx.size() * 12 +
                              pattern_.row_ptr.size() * 8);
}

}  // namespace factord::internal
