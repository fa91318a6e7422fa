// Planted block matrices for the block_ildlt phase tests: matrices written
// in the analysis order (position k, block by block) and stored under a
// given ordering, so that the expected block pattern is known by
// construction.
#ifndef FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_TEST_BLOCKS_H_
#define FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_TEST_BLOCKS_H_

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "core/matrix/csr.h"
#include "tests/core/block_ildlt/block_ildlt_planted.h"

namespace factord::testing {

// A matrix given in the analysis order: entries (k, l, v), k >= l, of the
// ordered matrix B, the ordering perm (perm[k] = original index) and the
// blocking of B.
struct OrderedCase {
  int n = 0;
  std::vector<Entry> ordered;
  std::vector<int32_t> perm;
  std::vector<int32_t> block_ptr;

  // A with A(perm[k], perm[l]) = B(k, l), stored symmetric-lower.
  CsrMatrix Original() const {
    std::vector<Entry> e;
    for (const auto& [k, l, v] : ordered) {
      const int i = perm[k], j = perm[l];
      e.push_back({std::max(i, j), std::min(i, j), v});
    }
    return LowerFromEntries(n, e);
  }
  // B dense and symmetric (n x n, row-major).
  std::vector<double> Dense() const {
    std::vector<double> d(static_cast<size_t>(n) * n, 0.0);
    for (const auto& [k, l, v] : ordered) d[k * n + l] = d[l * n + k] = v;
    return d;
  }
  int NumBlocks() const { return static_cast<int>(block_ptr.size()) - 1; }
};

// Block sizes -> block_ptr.
inline std::vector<int32_t> BlockPtr(const std::vector<int>& sizes) {
  std::vector<int32_t> ptr = {0};
  for (int s : sizes) ptr.push_back(ptr.back() + s);
  return ptr;
}

// A random permutation of 0..n-1.
inline std::vector<int32_t> Shuffled(int n, std::mt19937& rng) {
  std::vector<int32_t> p(n);
  for (int i = 0; i < n; ++i) p[i] = i;
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

// Blocks of the given sizes, each diagonal block full with diagonal
// `diagonal(k)`, and for each linked block pair (I, J), I > J, one entry
// between the last index of J and the first of I (value 1) plus one
// between the first of each (value -0.5): the block graph is `links`.
template <typename DiagonalFn>
OrderedCase LinkedBlocks(const std::vector<int>& sizes,
                         const std::vector<std::pair<int, int>>& links,
                         std::vector<int32_t> perm, DiagonalFn diagonal) {
  OrderedCase c;
  c.block_ptr = BlockPtr(sizes);
  c.n = c.block_ptr.back();
  c.perm = std::move(perm);
  for (size_t b = 0; b + 1 < c.block_ptr.size(); ++b) {
    for (int k = c.block_ptr[b]; k < c.block_ptr[b + 1]; ++k) {
      c.ordered.push_back({k, k, diagonal(k)});
      for (int l = c.block_ptr[b]; l < k; ++l) {
        c.ordered.push_back({k, l, 0.25 + 0.01 * (k + l)});
      }
    }
  }
  for (const auto& [bi, bj] : links) {
    const int first_i = c.block_ptr[bi], last_j = c.block_ptr[bj + 1] - 1;
    c.ordered.push_back({first_i, last_j, 1.0});
    if (c.block_ptr[bi + 1] - first_i > 1 && last_j > c.block_ptr[bj]) {
      c.ordered.push_back({first_i + 1, c.block_ptr[bj], -0.5});
    }
  }
  return c;
}

}  // namespace factord::testing

#endif  // FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_TEST_BLOCKS_H_
