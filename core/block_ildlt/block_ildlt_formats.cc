// The hybrid sparse/dense block format decision of S1 §IV-A: a block of L
// may hold max_nnz = r_f * nnz(A_IJ) entries (an empty fill block: r_f times
// the mean of the occupied off-diagonal blocks of its block row); it is
// stored sparse (values and indices) when that footprint, with S1's
// compensation factor 0.5 for the indirect addressing, is below the dense
// one, and dense otherwise. Diagonal blocks and the blocks of the bottom 1%
// of block rows ("where many updates occur") are always dense.
// Limits: only the decision and its byte count; the numeric phase still
// stores every block dense (block_ildlt.h).
#include <algorithm>
#include <cmath>

#include "core/block_ildlt/block_ildlt.h"

namespace factord {

BlockFormats DecideBlockFormats(const BlockIldltStructure& s,
                                double fill_factor) {
  constexpr double kCompensation = 0.5;  // S1 §IV-A
  constexpr int64_t kSparseEntryBytes = sizeof(double) + sizeof(int32_t);
  const int64_t nb = s.num_blocks();
  const int64_t slots = s.num_slots();
  BlockFormats f;
  f.dense.assign(slots, 1);
  f.max_entries.assign(slots, 0);
  // Entries of A per slot (each stored entry once; value_ptr is ascending,
  // so the slot of a value offset is found by bisection).
  std::vector<int64_t> a_entries(slots, 0);
  for (int64_t g : s.gather) {
    const int64_t t =
        std::upper_bound(s.value_ptr.begin(), s.value_ptr.end(), g) -
        s.value_ptr.begin() - 1;
    ++a_entries[t];
  }
  // Mean entries of the occupied off-diagonal blocks of each block row.
  std::vector<double> row_sum(nb, 0.0), row_count(nb, 0.0);
  for (int64_t j = 0; j < nb; ++j) {
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      if (a_entries[t] == 0) continue;
      row_sum[s.row_block[t]] += static_cast<double>(a_entries[t]);
      row_count[s.row_block[t]] += 1;
    }
  }
  const int64_t bottom = nb - (nb + 99) / 100;  // first of the bottom 1%
  for (int64_t j = 0; j < nb; ++j) {
    for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
      const int32_t i = s.row_block[t];
      const int64_t capacity = int64_t{s.block_size(i)} * s.block_size(j);
      double allowed = fill_factor * static_cast<double>(a_entries[t]);
      if (a_entries[t] == 0 && row_count[i] > 0) {
        allowed = fill_factor * row_sum[i] / row_count[i];
      }
      f.max_entries[t] =
          std::min<int64_t>(capacity, static_cast<int64_t>(std::ceil(allowed)));
      const bool always_dense = t == s.col_ptr[j] || i >= bottom;
      f.dense[t] = always_dense ||
                   f.max_entries[t] * kSparseEntryBytes >=
                       kCompensation * capacity * int64_t{sizeof(double)};
      if (f.dense[t]) {
        ++f.dense_blocks;
        f.bytes += capacity * int64_t{sizeof(double)};
      } else {
        ++f.sparse_blocks;
        f.bytes += f.max_entries[t] * kSparseEntryBytes;
      }
      f.all_dense_bytes += capacity * int64_t{sizeof(double)};
    }
  }
  return f;
}

}  // namespace factord
