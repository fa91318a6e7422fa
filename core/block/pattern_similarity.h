// Cosine similarity of two row patterns, the measure of S1's cosine-based
// blocking (§III-A, its ref. [33]), shared by the RB and BR strategies.
#ifndef FACTORD_BLOCK_PATTERN_SIMILARITY_H_
#define FACTORD_BLOCK_PATTERN_SIMILARITY_H_

#include <cmath>
#include <cstdint>
#include <vector>

namespace factord::internal {

using Pattern = std::vector<int32_t>;  // column indices, sorted, unique

// |p ∩ q| by a merge of the two sorted lists.
inline int64_t IntersectionSize(const Pattern& p, const Pattern& q) {
  int64_t common = 0;
  size_t i = 0, j = 0;
  while (i < p.size() && j < q.size()) {
    if (p[i] < q[j]) {
      ++i;
    } else if (q[j] < p[i]) {
      ++j;
    } else {
      ++common;
      ++i;
      ++j;
    }
  }
  return common;
}

// |p ∩ q| / sqrt(|p| |q|); 0 when either pattern is empty.
inline double Cosine(const Pattern& p, const Pattern& q) {
  if (p.empty() || q.empty()) return 0;
  return IntersectionSize(p, q) /
         std::sqrt(static_cast<double>(p.size()) * q.size());
}

}  // namespace factord::internal

#endif  // FACTORD_BLOCK_PATTERN_SIMILARITY_H_
