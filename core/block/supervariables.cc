// Supervariable detection and amalgamation (S4 §2.3; see the header).
// Detection compares the column sets of adjacent rows of the new order
// directly: a symmetric permutation maps equal sets to equal sets, so the
// matrix never needs to be permuted.
#include "core/block/supervariables.h"

#include <algorithm>

namespace factord {
namespace {

bool SamePattern(const CsrMatrix& a, int32_t r1, int32_t r2) {
  const int64_t b1 = a.row_ptr[r1], e1 = a.row_ptr[r1 + 1];
  const int64_t b2 = a.row_ptr[r2], e2 = a.row_ptr[r2 + 1];
  return e1 - b1 == e2 - b2 &&
         std::equal(a.col_idx.begin() + b1, a.col_idx.begin() + e1,
                    a.col_idx.begin() + b2);
}

// S4 §2.3: "these blocks are recursively divided until the block size
// limit is satisfied".
void AppendSplit(int64_t begin, int64_t end, int max_block_size,
                 std::vector<int64_t>& sizes) {
  if (end - begin <= max_block_size) {
    sizes.push_back(end - begin);
    return;
  }
  const int64_t middle = begin + (end - begin) / 2;
  AppendSplit(begin, middle, max_block_size, sizes);
  AppendSplit(middle, end, max_block_size, sizes);
}

}  // namespace

std::vector<int64_t> FindSupervariables(const CsrMatrix& a,
                                        std::span<const int32_t> perm) {
  std::vector<int64_t> sv_ptr{0};
  const int64_t n = a.rows;
  for (int64_t k = 1; k < n; ++k) {
    if (!SamePattern(a, perm[k - 1], perm[k])) sv_ptr.push_back(k);
  }
  if (n > 0) sv_ptr.push_back(n);
  return sv_ptr;
}

std::vector<int64_t> SplitSupervariables(std::span<const int64_t> sv_ptr,
                                         int max_block_size) {
  max_block_size = std::max(1, max_block_size);
  std::vector<int64_t> sizes;
  for (size_t s = 0; s + 1 < sv_ptr.size(); ++s) {
    AppendSplit(sv_ptr[s], sv_ptr[s + 1], max_block_size, sizes);
  }
  std::vector<int64_t> pieces{0};
  for (int64_t size : sizes) pieces.push_back(pieces.back() + size);
  if (sv_ptr.empty()) pieces.clear();
  return pieces;
}

std::vector<int64_t> AmalgamateSupervariables(std::span<const int64_t> sv_ptr,
                                              int max_block_size) {
  max_block_size = std::max(1, max_block_size);
  const std::vector<int64_t> pieces =
      SplitSupervariables(sv_ptr, max_block_size);
  std::vector<int64_t> block_ptr{0};
  int64_t current = 0;  // size of the block being grown
  for (size_t t = 0; t + 1 < pieces.size(); ++t) {
    const int64_t size = pieces[t + 1] - pieces[t];
    if (current > 0 && current + size > max_block_size) {
      block_ptr.push_back(block_ptr.back() + current);
      current = 0;
    }
    current += size;
  }
  if (current > 0) block_ptr.push_back(block_ptr.back() + current);
  return block_ptr;
}

}  // namespace factord
