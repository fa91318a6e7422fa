// The analysis of block_ildlt (S1 §III-A, §IV-A): ordering, cosine blocking
// (strategy RB by default, BR on request), the coarse lower block graph,
// its level-of-fill pattern by Hysom's row-wise ILU(k) rule
// lev(I,J) = min over K of lev(I,K) + lev(J,K) + 1 (blocks with lev <= l_f are
// allowed), the level sets of the block graph (S1 §IV-A: the processing
// order of the factorization and the solves), and the gather map of A's entries
// into the dense blocks. Pattern only: reused unchanged when the values change.
#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/block/br_blocking.h"
#include "core/block/cosine_blocking.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/order/ordering.h"
#include "core/solver/validate_options.h"

namespace factord {
namespace {

// Row-wise symbolic ILU(k) on the lower block graph (S1 §IV-A). rows[I]
// lists the K < I with a block (I, K) of A. Returns per block row I the
// sorted (K, level) pairs with level <= max_level.
std::vector<std::vector<std::pair<int32_t, int32_t>>> BlockLevelOfFill(
    const std::vector<std::vector<int32_t>>& rows, int64_t max_level) {
  const int64_t nb = static_cast<int64_t>(rows.size());
  std::vector<std::vector<std::pair<int32_t, int32_t>>> filled(nb);
  // Column structure of the rows done so far: (row I, level), ascending I.
  std::vector<std::vector<std::pair<int32_t, int32_t>>> columns(nb);
  std::vector<int64_t> level(nb, -1);  // -1: not in the current row
  std::priority_queue<int32_t, std::vector<int32_t>, std::greater<int32_t>>
      queue;
  std::vector<int32_t> touched;
  for (int64_t i = 0; i < nb; ++i) {
    touched.clear();
    for (int32_t k : rows[i]) {
      level[k] = 0;
      touched.push_back(k);
      queue.push(k);
    }
    while (!queue.empty()) {
      const int32_t k = queue.top();
      queue.pop();
      // Column k's rows j, k < j < i, create fill (i, j).
      for (const auto& [j, level_jk] : columns[k]) {
        const int64_t candidate = level[k] + level_jk + 1;
        if (candidate > max_level) continue;
        if (level[j] < 0) {
          level[j] = candidate;
          touched.push_back(j);
          queue.push(j);
        } else if (candidate < level[j]) {
          level[j] = candidate;
        }
      }
    }
    std::sort(touched.begin(), touched.end());
    for (int32_t k : touched) {
      filled[i].push_back({k, static_cast<int32_t>(level[k])});
      columns[k].push_back(
          {static_cast<int32_t>(i), static_cast<int32_t>(level[k])});
      level[k] = -1;
    }
  }
  return filled;
}

}  // namespace

int64_t BlockIldltStructure::bytes() const {
  return static_cast<int64_t>(
      perm.size() * sizeof(int32_t) + block_ptr.size() * sizeof(int32_t) +
      (col_ptr.size() + row_ptr.size() + value_ptr.size()) * sizeof(int64_t) +
      (row_block.size() + fill_level.size() + row_slot_col.size() +
       level_blocks.size()) *
          sizeof(int32_t) +
      (row_slot.size() + gather.size() + gather_mirror.size() +
       a_offdiag_count.size() + level_ptr.size() + level_values.size()) *
          sizeof(int64_t));
}

int64_t BlockIldltStructure::factor_bytes_estimate() const {
  return value_ptr.back() * int64_t{sizeof(double)} +
         n * int64_t{2 * sizeof(double) + sizeof(int32_t) + 2} + num_slots();
}

absl::StatusOr<BlockIldltStructure> BuildBlockIldltStructure(
    const CsrMatrix& a, const FactorOptions& options) {
  if (!IsSymmetric(a.structure) || a.rows != a.cols) {
    return absl::InvalidArgumentError(
        "block_ildlt needs a square symmetric (lower-stored) matrix; use lu "
        "or an iterative method for a general one");
  }
  if (absl::Status s = ValidateBlockIldltOptions(options); !s.ok()) return s;
  CosineBlockingOptions blocking;
  blocking.max_block_size = options.max_block_size;
  if (options.blocking == Blocking::kBr) {
    // S1 §III-A 1): block similar rows anywhere, then order the blocks.
    auto br = ComputeBrBlocking(a, options.ordering, blocking);
    if (!br.ok()) return br.status();
    return BuildBlockIldltStructureFromBlocks(a, options, std::move(br->perm),
                                              std::move(br->block_ptr));
  }
  // S1 §III-A 2), strategy RB: order, then block neighbouring rows.
  auto perm = ComputeOrdering(a, options.ordering);
  if (!perm.ok()) return perm.status();
  auto block_ptr = CosineBlocking(a, *perm, blocking);
  if (!block_ptr.ok()) return block_ptr.status();
  return BuildBlockIldltStructureFromBlocks(a, options, *std::move(perm),
                                            *std::move(block_ptr));
}

absl::StatusOr<BlockIldltStructure> BuildBlockIldltStructureFromBlocks(
    const CsrMatrix& a, const FactorOptions& options, std::vector<int32_t> perm,
    std::vector<int32_t> block_ptr) {
  if (!IsSymmetric(a.structure) || a.rows != a.cols) {
    return absl::InvalidArgumentError(
        "block_ildlt needs a square symmetric (lower-stored) matrix");
  }
  if (absl::Status s = ValidateBlockIldltOptions(options); !s.ok()) return s;
  const int64_t n = a.rows;
  if (static_cast<int64_t>(perm.size()) != n || block_ptr.empty() ||
      block_ptr.front() != 0 || block_ptr.back() != n) {
    return absl::InvalidArgumentError(
        "the ordering or the blocking does not cover the matrix");
  }
  std::vector<uint8_t> seen(n, 0);
  for (int32_t i : perm) {
    if (i < 0 || i >= n || seen[i]++) {
      return absl::InvalidArgumentError("the ordering is not a permutation");
    }
  }
  for (size_t b = 0; b + 1 < block_ptr.size(); ++b) {
    const int32_t size = block_ptr[b + 1] - block_ptr[b];
    if (size < 1 || size > 32) {
      return absl::InvalidArgumentError(
          absl::StrCat("block ", b, " has size ", size, " outside 1..32"));
    }
  }
  BlockIldltStructure s;
  s.n = n;
  s.perm = std::move(perm);
  s.block_ptr = std::move(block_ptr);
  const int64_t nb = s.num_blocks();

  std::vector<int32_t> inverse(n), block_of(n);
  for (int64_t k = 0; k < n; ++k) inverse[s.perm[k]] = static_cast<int32_t>(k);
  for (int64_t b = 0; b < nb; ++b) {
    for (int32_t k = s.block_ptr[b]; k < s.block_ptr[b + 1]; ++k) {
      block_of[k] = static_cast<int32_t>(b);
    }
  }
  // The coarse lower block graph of A, by block row.
  std::vector<std::vector<int32_t>> rows(nb);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
      const int32_t bi = block_of[inverse[i]];
      const int32_t bj = block_of[inverse[a.col_idx[e]]];
      if (bi != bj) rows[std::max(bi, bj)].push_back(std::min(bi, bj));
    }
  }
  for (auto& r : rows) {
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }
  // l_f >= nb - 1 already gives the complete symbolic factor.
  s.fill_level_used = static_cast<int>(
      std::min<int64_t>(options.fill_level, std::max<int64_t>(nb, 1)));
  const auto filled = BlockLevelOfFill(rows, s.fill_level_used);

  // Column structure: the diagonal block first, then row blocks ascending.
  s.col_ptr.assign(nb + 1, 0);
  for (int64_t i = 0; i < nb; ++i) {
    ++s.col_ptr[i + 1];  // diagonal
    for (const auto& [k, lev] : filled[i]) ++s.col_ptr[k + 1];
  }
  for (int64_t b = 0; b < nb; ++b) s.col_ptr[b + 1] += s.col_ptr[b];
  const int64_t slots = s.col_ptr[nb];
  s.row_block.resize(slots);
  s.fill_level.resize(slots);
  std::vector<int64_t> next(s.col_ptr.begin(), s.col_ptr.end() - 1);
  s.row_ptr.assign(nb + 1, 0);
  s.row_slot.clear();
  s.row_slot_col.clear();
  for (int64_t i = 0; i < nb; ++i) {  // rows ascending: columns stay sorted
    s.row_block[next[i]] = static_cast<int32_t>(i);
    s.fill_level[next[i]++] = 0;
    for (const auto& [k, lev] : filled[i]) {
      s.row_slot.push_back(next[k]);
      s.row_slot_col.push_back(k);
      s.row_block[next[k]] = static_cast<int32_t>(i);
      s.fill_level[next[k]++] = lev;
    }
    s.row_ptr[i + 1] = static_cast<int64_t>(s.row_slot.size());
  }
  // Column i receives only rows > i, placed after row i put its diagonal
  // block there: the diagonal slot is first in every column.
  s.value_ptr.assign(slots + 1, 0);
  for (int64_t j = 0; j < nb; ++j) {
    for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
      s.value_ptr[t + 1] = s.value_ptr[t] + int64_t{s.block_size(j)} *
                                                s.block_size(s.row_block[t]);
    }
  }
  // Level sets of the block graph (S1 §IV-A): level(I) = 1 + max level(K)
  // over the blocks (I, K), K < I, of the level-of-fill pattern; rows in
  // ascending order see their K finished. Counting sort into level_blocks
  // keeps the blocks of a level ascending.
  {
    std::vector<int32_t> block_level(nb, 0);
    for (int64_t i = 0; i < nb; ++i) {
      for (int64_t r = s.row_ptr[i]; r < s.row_ptr[i + 1]; ++r) {
        block_level[i] =
            std::max(block_level[i], block_level[s.row_slot_col[r]] + 1);
      }
      s.num_levels = std::max(s.num_levels, block_level[i] + 1);
    }
    s.level_ptr.assign(s.num_levels + 1, 0);
    for (int64_t i = 0; i < nb; ++i) ++s.level_ptr[block_level[i] + 1];
    for (int l = 0; l < s.num_levels; ++l) s.level_ptr[l + 1] += s.level_ptr[l];
    s.level_blocks.resize(nb);
    std::vector<int64_t> fill(s.level_ptr.begin(), s.level_ptr.end() - 1);
    for (int64_t i = 0; i < nb; ++i) {
      s.level_blocks[fill[block_level[i]]++] = static_cast<int32_t>(i);
    }
    s.level_values.assign(s.num_levels, 0);
    for (int64_t i = 0; i < nb; ++i) {
      int64_t values =
          s.value_ptr[s.col_ptr[i + 1]] - s.value_ptr[s.col_ptr[i]];
      for (int64_t r = s.row_ptr[i]; r < s.row_ptr[i + 1]; ++r) {
        values += s.value_ptr[s.row_slot[r] + 1] - s.value_ptr[s.row_slot[r]];
      }
      s.level_values[block_level[i]] += values;
    }
  }
  {
    // Gather map of A's stored entries.
    s.gather.resize(a.nnz());
    s.gather_mirror.assign(a.nnz(), -1);
    s.a_offdiag_count.assign(nb, 0);
    std::vector<int64_t> slot_of_row(nb, -1);
    // Entries grouped by block column so that the slot lookup is a dense
    // table of the column's row blocks.
    std::vector<std::vector<int64_t>> by_column(nb);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
        const int32_t pi = inverse[i], pj = inverse[a.col_idx[e]];
        by_column[block_of[std::min(pi, pj)]].push_back(e);
      }
    }
    std::vector<int32_t> entry_row(a.nnz());
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
        entry_row[e] = static_cast<int32_t>(i);
      }
    }
    for (int64_t j = 0; j < nb; ++j) {
      for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
        slot_of_row[s.row_block[t]] = t;
      }
      for (int64_t e : by_column[j]) {
        const int32_t pi = inverse[entry_row[e]], pj = inverse[a.col_idx[e]];
        const int32_t hi = std::max(pi, pj), lo = std::min(pi, pj);
        const int32_t bi = block_of[hi];
        const int64_t t = slot_of_row[bi];
        const int32_t rows_i = s.block_size(bi);
        const int32_t li = hi - s.block_ptr[bi], lj = lo - s.block_ptr[j];
        s.gather[e] = s.value_ptr[t] + int64_t{lj} * rows_i + li;
        if (bi == j) {
          if (li != lj) {
            s.gather_mirror[e] = s.value_ptr[t] + int64_t{li} * rows_i + lj;
          }
        } else {
          ++s.a_offdiag_count[j];
        }
      }
      for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
        slot_of_row[s.row_block[t]] = -1;
      }
    }
  }
  return s;
}

}  // namespace factord
