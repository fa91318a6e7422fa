// Priority amalgamation (S4 §2.5 on supervariables): strong couplings end
// up inside blocks, block sizes stay within the limit, supervariables are
// never split, the scaling keeps badly scaled rows from dominating, and
// the result is a partition ordered by first position.
#include "core/block/priority_blocking.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"

namespace factord {
namespace {

std::vector<int64_t> Sizes(const PriorityBlocks& b) {
  std::vector<int64_t> sizes;
  for (size_t k = 0; k + 1 < b.block_ptr.size(); ++k) {
    sizes.push_back(b.block_ptr[k + 1] - b.block_ptr[k]);
  }
  return sizes;
}

TEST(PriorityBlocking, StrongCouplingsAreKeptInsideBlocks) {
  // A chain 0-1-2-3 with couplings strong, weak, strong: blocks of two
  // must be {0,1} and {2,3}, not {1,2}.
  const int n = 4;
  std::vector<double> dense(n * n, 0.0);
  for (int i = 0; i < n; ++i) dense[i * n + i] = 1;
  auto couple = [&](int i, int j, double v) {
    dense[i * n + j] = dense[j * n + i] = v;
  };
  couple(0, 1, 0.9);
  couple(1, 2, 0.01);
  couple(2, 3, 0.8);
  const CsrMatrix a = testing::DenseToCsr(n, dense);
  const std::vector<int32_t> order = {0, 1, 2, 3};
  const std::vector<int64_t> sv = {0, 1, 2, 3, 4};
  const PriorityBlocks b = PriorityAmalgamation(a, order, sv, 2);
  EXPECT_EQ(b.block_ptr, (std::vector<int64_t>{0, 2, 4}));
  EXPECT_EQ(b.order, (std::vector<int32_t>{0, 1, 2, 3}));
}

TEST(PriorityBlocking, ScalingDiscountsBadlyScaledRows) {
  // Row 3 is scaled by 1e6: its raw entries are huge but its scaled
  // coupling to 2 is weaker than the 1-2 coupling.
  const int n = 4;
  std::vector<double> dense(n * n, 0.0);
  for (int i = 0; i < n; ++i) dense[i * n + i] = 1;
  auto couple = [&](int i, int j, double v) {
    dense[i * n + j] = dense[j * n + i] = v;
  };
  couple(1, 2, 0.5);
  couple(2, 3, 0.1 * 1e3);
  dense[3 * n + 3] = 1e6;
  const CsrMatrix a = testing::DenseToCsr(n, dense);
  const PriorityBlocks b =
      PriorityAmalgamation(a, std::vector<int32_t>{0, 1, 2, 3},
                           std::vector<int64_t>{0, 1, 2, 3, 4}, 2);
  EXPECT_EQ(b.order, (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(b.block_ptr, (std::vector<int64_t>{0, 1, 3, 4}));
}

TEST(PriorityBlocking, PartitionWithinLimitsKeepingSupervariables) {
  const CsrMatrix a = testing::Tridiagonal(100, -1, 4, -1);
  std::vector<int32_t> order(100);
  std::iota(order.begin(), order.end(), 0);
  std::reverse(order.begin(), order.end());
  std::vector<int64_t> sv = {0};
  for (int64_t p = 3; p < 100; p += 3) sv.push_back(p);  // triples
  sv.push_back(100);
  const PriorityBlocks b = PriorityAmalgamation(a, order, sv, 8);
  std::vector<int32_t> sorted = b.order;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 100; ++i) ASSERT_EQ(sorted[i], i);
  for (int64_t size : Sizes(b)) {
    EXPECT_GE(size, 1);
    EXPECT_LE(size, 8);
  }
  // A triple of positions {3t, 3t+1, 3t+2} never straddles two blocks.
  std::vector<int64_t> block_of(100);
  for (size_t k = 0; k + 1 < b.block_ptr.size(); ++k) {
    for (int64_t p = b.block_ptr[k]; p < b.block_ptr[k + 1]; ++p) {
      block_of[b.order[p]] = k;
    }
  }
  for (int64_t t = 0; t + 1 < static_cast<int64_t>(sv.size()); ++t) {
    for (int64_t p = sv[t]; p < sv[t + 1]; ++p) {
      EXPECT_EQ(block_of[order[p]], block_of[order[sv[t]]]);
    }
  }
  EXPECT_EQ(b.order.front(), 99);  // blocks by first position of `order`
}

}  // namespace
}  // namespace factord
