#include "core/block/cosine_blocking.h"

#include <numeric>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "core/order/amd.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

// Block diagonal pattern: dense blocks of the given sizes, lower stored.
CsrMatrix BlockDiagonal(const std::vector<int>& sizes) {
  CsrMatrix a;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  int start = 0;
  for (int s : sizes) {
    for (int i = 0; i < s; ++i) {
      for (int j = 0; j <= i; ++j) a.col_idx.push_back(start + j);
      a.row_ptr.push_back(a.col_idx.size());
    }
    start += s;
  }
  a.rows = a.cols = start;
  a.values.assign(a.col_idx.size(), 1.0);
  return a;
}

std::vector<int32_t> Identity(int64_t n) {
  std::vector<int32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  return perm;
}

TEST(CosineBlocking, FindsDenseDiagonalBlocksAsSupervariables) {
  const CsrMatrix a = BlockDiagonal({3, 2, 4});
  CosineBlockingOptions options;
  options.threshold = 1.0;
  options.levels = 1;
  auto blocks = CosineBlocking(a, Identity(a.rows), options);
  ASSERT_TRUE(blocks.ok()) << blocks.status();
  EXPECT_EQ(*blocks, (std::vector<int32_t>{0, 3, 5, 9}));
}

TEST(CosineBlocking, RespectsMaxBlockSize) {
  const CsrMatrix a = BlockDiagonal({10});
  CosineBlockingOptions options;
  options.max_block_size = 4;
  auto blocks = CosineBlocking(a, Identity(a.rows), options);
  ASSERT_TRUE(blocks.ok());
  EXPECT_EQ(*blocks, (std::vector<int32_t>{0, 4, 8, 10}));
}

TEST(CosineBlocking, DissimilarRowsStaySeparate) {
  // Two uncoupled 1x1 blocks: patterns {0} and {1} have cosine 0.
  const CsrMatrix a = BlockDiagonal({1, 1});
  auto blocks = CosineBlocking(a, Identity(2), CosineBlockingOptions());
  ASSERT_TRUE(blocks.ok());
  EXPECT_EQ(*blocks, (std::vector<int32_t>{0, 1, 2}));
}

TEST(CosineBlocking, RejectsBadOptions) {
  const CsrMatrix a = BlockDiagonal({2});
  CosineBlockingOptions options;
  options.max_block_size = 33;
  EXPECT_FALSE(CosineBlocking(a, Identity(2), options).ok());
  EXPECT_FALSE(CosineBlocking(a, Identity(3), CosineBlockingOptions()).ok());
}

TEST(CosineBlocking, RealMatrixPartitionIsValid) {
  auto a = ReadMatrixMarket(testing::TestDataPath("bcsstk13.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  auto perm = AmdOrdering(*a);
  ASSERT_TRUE(perm.ok());
  auto blocks = CosineBlocking(*a, *perm, CosineBlockingOptions());
  ASSERT_TRUE(blocks.ok());
  ASSERT_GE(blocks->size(), 2u);
  EXPECT_EQ(blocks->front(), 0);
  EXPECT_EQ(blocks->back(), a->rows);
  for (size_t b = 1; b < blocks->size(); ++b) {
    EXPECT_GT((*blocks)[b], (*blocks)[b - 1]);
    EXPECT_LE((*blocks)[b] - (*blocks)[b - 1], 32);
  }
  // bcsstk13 has 3-dof nodes: the blocking must find blocks bigger than 1.
  EXPECT_LT(static_cast<int64_t>(blocks->size()) - 1, a->rows / 2);
}

}  // namespace
}  // namespace factord
