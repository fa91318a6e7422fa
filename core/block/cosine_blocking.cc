// Multilevel cosine blocking, strategy RB (S1 §III-A): each level merges
// neighbouring groups whose patterns (in the current coarse numbering) are
// similar, then the next level works on the coarse pattern with a lower
// threshold.
#include "core/block/cosine_blocking.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/block/pattern_similarity.h"

namespace factord {
namespace {

using internal::Cosine;
using internal::Pattern;

Pattern Union(const Pattern& p, const Pattern& q) {
  Pattern u;
  u.reserve(p.size() + q.size());
  std::set_union(p.begin(), p.end(), q.begin(), q.end(), std::back_inserter(u));
  return u;
}

}  // namespace

absl::StatusOr<std::vector<int32_t>> CosineBlocking(
    const CsrMatrix& a, std::span<const int32_t> perm,
    const CosineBlockingOptions& options) {
  const int64_t n = a.rows;
  if (a.rows != a.cols || static_cast<int64_t>(perm.size()) != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("cosine blocking needs a square matrix and a ", n,
                     "-entry permutation, got ", perm.size()));
  }
  if (options.max_block_size < 1 || options.max_block_size > 32 ||
      !(options.threshold > 0 && options.threshold <= 1) ||
      !(options.decay > 0 && options.decay <= 1) || options.levels < 1) {
    return absl::InvalidArgumentError("cosine blocking: bad options");
  }
  std::vector<int32_t> inverse(n);
  for (int64_t k = 0; k < n; ++k) inverse[perm[k]] = static_cast<int32_t>(k);
  // Level 0: the ordered full pattern, diagonal included.
  std::vector<Pattern> pattern(n);
  for (int64_t i = 0; i < n; ++i) {
    pattern[inverse[i]].push_back(inverse[i]);
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t pi = inverse[i], pj = inverse[a.col_idx[k]];
      if (pi == pj) continue;
      pattern[pi].push_back(pj);
      pattern[pj].push_back(pi);
    }
  }
  for (Pattern& p : pattern) {
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
  }
  // group_ptr: groups of the current level as ranges of ordered indices.
  std::vector<int32_t> group_ptr(n + 1);
  for (int64_t i = 0; i <= n; ++i) group_ptr[i] = static_cast<int32_t>(i);
  double threshold = options.threshold;
  for (int level = 0; level < options.levels; ++level) {
    const int64_t groups = static_cast<int64_t>(group_ptr.size()) - 1;
    std::vector<int32_t> next_ptr = {0};
    std::vector<Pattern> merged;  // pattern of each new block (old numbering)
    std::vector<int32_t> group_of(groups);
    Pattern current;
    for (int64_t g = 0; g < groups; ++g) {
      const bool join =
          g > 0 &&
          group_ptr[g + 1] - next_ptr.back() <= options.max_block_size &&
          Cosine(current, pattern[g]) >= threshold;
      if (!join) {
        if (g > 0) {
          next_ptr.push_back(group_ptr[g]);
          merged.push_back(std::move(current));
        }
        current = pattern[g];
      } else {
        current = Union(current, pattern[g]);
      }
      group_of[g] = static_cast<int32_t>(next_ptr.size()) - 1;
    }
    if (groups > 0) {
      next_ptr.push_back(group_ptr[groups]);
      merged.push_back(std::move(current));
    }
    const bool progress = next_ptr.size() < group_ptr.size();
    group_ptr = std::move(next_ptr);
    if (!progress) break;
    // The coarse pattern: old group numbers mapped to the new blocks.
    for (Pattern& p : merged) {
      for (int32_t& c : p) c = group_of[c];
      p.erase(std::unique(p.begin(), p.end()), p.end());  // stays sorted
    }
    pattern = std::move(merged);
    threshold *= options.decay;
  }
  return group_ptr;
}

}  // namespace factord
