// Multilevel cosine blocking across the whole matrix, then the ordering of
// the coarse matrix: strategy BR of S1 §III-A 1) (see the header).
#include "core/block/br_blocking.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/block/pattern_similarity.h"
#include "core/order/ordering.h"

namespace factord {
namespace {

using internal::Cosine;
using internal::Pattern;

// One level of cosine-based blocking (S1 ref. [33]) on the symmetric
// pattern of the current nodes (diagonal included); weight[g] = rows held
// by node g. Returns the groups as lists of nodes, leader first.
std::vector<std::vector<int32_t>> GroupSimilarNodes(
    const std::vector<Pattern>& pattern, const std::vector<int32_t>& weight,
    int max_block_size, double threshold) {
  const int64_t m = static_cast<int64_t>(pattern.size());
  int64_t entries = 0;
  for (const Pattern& p : pattern) entries += static_cast<int64_t>(p.size());
  // Columns denser than this do not generate candidates (see the header).
  const int64_t dense =
      std::max<int64_t>(64, 10 * entries / std::max<int64_t>(m, 1));
  std::vector<uint8_t> assigned(m, 0);
  std::vector<int32_t> seen_by(m, -1);
  std::vector<std::vector<int32_t>> groups;
  std::vector<std::pair<double, int32_t>> candidates;
  for (int32_t g = 0; g < m; ++g) {
    if (assigned[g]) continue;
    assigned[g] = 1;
    std::vector<int32_t> group = {g};
    int64_t size = weight[g];
    candidates.clear();
    for (int32_t c : pattern[g]) {
      if (size >= max_block_size) break;
      if (static_cast<int64_t>(pattern[c].size()) > dense) continue;
      for (int32_t h : pattern[c]) {
        if (assigned[h] || seen_by[h] == g) continue;
        seen_by[h] = g;
        const double cosine = Cosine(pattern[g], pattern[h]);
        if (cosine >= threshold) candidates.push_back({cosine, h});
      }
    }
    // Most similar first; ties by index, so the result depends only on A.
    std::sort(
        candidates.begin(), candidates.end(), [](const auto& x, const auto& y) {
          return x.first != y.first ? x.first > y.first : x.second < y.second;
        });
    for (const auto& [cosine, h] : candidates) {
      if (size + weight[h] > max_block_size) continue;
      assigned[h] = 1;
      group.push_back(h);
      size += weight[h];
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace

absl::StatusOr<BrBlocks> ComputeBrBlocking(
    const CsrMatrix& a, Ordering ordering,
    const CosineBlockingOptions& options) {
  const int64_t n = a.rows;
  if (a.rows != a.cols) {
    return absl::InvalidArgumentError(absl::StrCat(
        "BR blocking needs a square matrix, got ", a.rows, "x", a.cols));
  }
  if (options.max_block_size < 1 || options.max_block_size > 32 ||
      !(options.threshold > 0 && options.threshold <= 1) ||
      !(options.decay > 0 && options.decay <= 1) || options.levels < 1) {
    return absl::InvalidArgumentError("BR blocking: bad options");
  }
  BrBlocks out;
  out.block_ptr.push_back(0);
  if (n == 0) return out;
  // Level 0: every row is a node with the pattern of A + A^T + I.
  std::vector<Pattern> pattern(n);
  for (int64_t i = 0; i < n; ++i) {
    pattern[i].push_back(static_cast<int32_t>(i));
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t j = a.col_idx[k];
      if (j == i) continue;
      pattern[i].push_back(j);
      pattern[j].push_back(static_cast<int32_t>(i));
    }
  }
  for (Pattern& p : pattern) {
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
  }
  std::vector<std::vector<int32_t>> rows(n);  // original rows of each node
  for (int64_t i = 0; i < n; ++i) rows[i] = {static_cast<int32_t>(i)};
  std::vector<int32_t> weight(n, 1);
  double threshold = options.threshold;
  for (int level = 0; level < options.levels; ++level) {
    const std::vector<std::vector<int32_t>> groups =
        GroupSimilarNodes(pattern, weight, options.max_block_size, threshold);
    if (groups.size() == pattern.size()) break;  // no merge: done
    const int64_t m = static_cast<int64_t>(groups.size());
    std::vector<int32_t> group_of(pattern.size());
    for (int32_t G = 0; G < m; ++G) {
      for (int32_t g : groups[G]) group_of[g] = G;
    }
    // The coarse matrix of this level (S1: "built from the blocks found in
    // the earlier step").
    std::vector<Pattern> coarse(m);
    std::vector<std::vector<int32_t>> coarse_rows(m);
    std::vector<int32_t> coarse_weight(m, 0);
    for (int32_t G = 0; G < m; ++G) {
      for (int32_t g : groups[G]) {
        for (int32_t c : pattern[g]) coarse[G].push_back(group_of[c]);
        coarse_rows[G].insert(coarse_rows[G].end(), rows[g].begin(),
                              rows[g].end());
        coarse_weight[G] += weight[g];
      }
      std::sort(coarse[G].begin(), coarse[G].end());
      coarse[G].erase(std::unique(coarse[G].begin(), coarse[G].end()),
                      coarse[G].end());
    }
    pattern = std::move(coarse);
    rows = std::move(coarse_rows);
    weight = std::move(coarse_weight);
    threshold *= options.decay;
  }
  // S1: "on the last level, we apply the selected reordering".
  const int64_t m = static_cast<int64_t>(pattern.size());
  CsrMatrix c;
  c.rows = c.cols = m;
  c.structure = Structure::kSymmetricLower;
  c.row_ptr.assign(1, 0);
  for (int64_t g = 0; g < m; ++g) {
    for (int32_t j : pattern[g]) {
      if (j > g) break;
      c.col_idx.push_back(j);
    }
    c.row_ptr.push_back(static_cast<int64_t>(c.col_idx.size()));
  }
  c.values.assign(c.col_idx.size(), 1.0);
  auto coarse_perm = ComputeOrdering(c, ordering);
  if (!coarse_perm.ok()) return coarse_perm.status();
  if (static_cast<int64_t>(coarse_perm->size()) != m) {
    return absl::InternalError("BR blocking: coarse ordering of wrong size");
  }
  out.perm.reserve(n);
  for (int32_t g : *coarse_perm) {
    out.perm.insert(out.perm.end(), rows[g].begin(), rows[g].end());
    out.block_ptr.push_back(static_cast<int32_t>(out.perm.size()));
  }
  return out;
}

}  // namespace factord
