#include "core/block/br_blocking.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "core/block/cosine_blocking.h"
#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

// Symmetric-lower matrix with the diagonal and the given (i > j) entries.
CsrMatrix Lower(int n, std::vector<std::pair<int, int>> entries) {
  for (int i = 0; i < n; ++i) entries.push_back({i, i});
  std::sort(entries.begin(), entries.end());
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.assign(n + 1, 0);
  for (const auto& [i, j] : entries) {
    a.col_idx.push_back(j);
    ++a.row_ptr[i + 1];
  }
  for (int i = 0; i < n; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  a.values.assign(a.col_idx.size(), 1.0);
  return a;
}

// Block of each original row under (perm, block_ptr).
std::vector<int> BlockOfRow(const std::vector<int32_t>& perm,
                            const std::vector<int32_t>& block_ptr) {
  std::vector<int> block(perm.size(), -1);
  for (size_t b = 0; b + 1 < block_ptr.size(); ++b) {
    for (int32_t k = block_ptr[b]; k < block_ptr[b + 1]; ++k) {
      block[perm[k]] = static_cast<int>(b);
    }
  }
  return block;
}

// perm is a permutation of 0..n-1; block_ptr runs from 0 to n with blocks
// of 1..max_size positions.
void ExpectValid(const BrBlocks& blocks, int64_t n, int max_size) {
  ASSERT_EQ(static_cast<int64_t>(blocks.perm.size()), n);
  std::vector<int32_t> sorted = blocks.perm;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i);
  ASSERT_FALSE(blocks.block_ptr.empty());
  EXPECT_EQ(blocks.block_ptr.front(), 0);
  EXPECT_EQ(blocks.block_ptr.back(), n);
  for (size_t b = 0; b + 1 < blocks.block_ptr.size(); ++b) {
    const int size = blocks.block_ptr[b + 1] - blocks.block_ptr[b];
    EXPECT_GE(size, 1) << "block " << b;
    EXPECT_LE(size, max_size) << "block " << b;
  }
}

// Rows 0, 3 and 5 have the pattern {0, 3, 5}; rows 1, 2, 4 form a chain
// with no entry in common with them. In the natural order rows 1 and 2 sit
// between rows 0 and 3.
CsrMatrix SharedPatternApart() {
  return Lower(6, {{3, 0}, {5, 0}, {5, 3}, {2, 1}, {4, 2}});
}

TEST(BrBlocking, GroupsRowsWithOnePatternAcrossTheOrder) {
  const CsrMatrix a = SharedPatternApart();
  auto br = ComputeBrBlocking(a, Ordering::kNatural, CosineBlockingOptions());
  ASSERT_TRUE(br.ok()) << br.status();
  ExpectValid(*br, 6, 32);
  const std::vector<int> block = BlockOfRow(br->perm, br->block_ptr);
  EXPECT_EQ(block[0], block[3]);
  EXPECT_EQ(block[0], block[5]);
  EXPECT_NE(block[0], block[1]);
  // Second level (threshold 0.72): {1, 2} and {4} have coarse patterns
  // {B, C} and {B, C}, cosine 1.
  EXPECT_EQ(block[1], block[2]);
  EXPECT_EQ(block[1], block[4]);
  EXPECT_EQ(br->block_ptr.size(), 3u);
}

TEST(BrBlocking, RbCannotJoinRowsThatAreNotNeighbours) {
  // The same matrix under RB (natural order, neighbours only): rows 1 and 2
  // are dissimilar to rows 0 and 3, so 0 and 3 never share a block.
  const CsrMatrix a = SharedPatternApart();
  std::vector<int32_t> identity(6);
  std::iota(identity.begin(), identity.end(), 0);
  auto rb = CosineBlocking(a, identity, CosineBlockingOptions());
  ASSERT_TRUE(rb.ok()) << rb.status();
  const std::vector<int> block = BlockOfRow(identity, *rb);
  EXPECT_NE(block[0], block[3]);
}

TEST(BrBlocking, RespectsMaxBlockSizeOnADenseBlock) {
  // 40 rows with one pattern (a dense 40x40 matrix): all are similar.
  std::vector<std::pair<int, int>> entries;
  for (int i = 0; i < 40; ++i) {
    for (int j = 0; j < i; ++j) entries.push_back({i, j});
  }
  const CsrMatrix a = Lower(40, entries);
  for (int max_size : {1, 2, 7, 32}) {
    CosineBlockingOptions options;
    options.max_block_size = max_size;
    auto br = ComputeBrBlocking(a, Ordering::kAmd, options);
    ASSERT_TRUE(br.ok()) << br.status();
    ExpectValid(*br, 40, max_size);
    // Identical rows: every block but possibly one is full.
    int partial = 0;
    for (size_t b = 0; b + 1 < br->block_ptr.size(); ++b) {
      partial += br->block_ptr[b + 1] - br->block_ptr[b] < max_size;
    }
    EXPECT_LE(partial, 1) << "max_block_size " << max_size;
  }
}

TEST(BrBlocking, DiagonalAndEmptyMatrices) {
  // A diagonal matrix: patterns {i} share nothing, every block is 1x1.
  const CsrMatrix d = Lower(5, {});
  auto br = ComputeBrBlocking(d, Ordering::kAmd, CosineBlockingOptions());
  ASSERT_TRUE(br.ok()) << br.status();
  ExpectValid(*br, 5, 1);
  const CsrMatrix empty = Lower(0, {});
  auto none = ComputeBrBlocking(empty, Ordering::kAmd, CosineBlockingOptions());
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->perm.empty());
  EXPECT_EQ(none->block_ptr, std::vector<int32_t>{0});
}

TEST(BrBlocking, ValidOnRealMatricesWithEveryOrdering) {
  for (const char* name : {"494_bus.mtx", "hangGlider_2.mtx"}) {
    auto a = ReadMatrixMarket(testing::TestDataPath(name));
    ASSERT_TRUE(a.ok()) << name << ": " << a.status();
    for (Ordering ordering :
         {Ordering::kNatural, Ordering::kAmd, Ordering::kRcm, Ordering::kMetis,
          Ordering::kGmc}) {
      auto br = ComputeBrBlocking(*a, ordering, CosineBlockingOptions());
      ASSERT_TRUE(br.ok()) << name << " " << OrderingName(ordering) << ": "
                           << br.status();
      ExpectValid(*br, a->rows, 32);
      // Blocking has merged something: fewer blocks than rows.
      EXPECT_LT(static_cast<int64_t>(br->block_ptr.size()) - 1, a->rows)
          << name << " " << OrderingName(ordering);
    }
  }
}

TEST(BrBlocking, RejectsBadInput) {
  CsrMatrix rect;
  rect.rows = 2;
  rect.cols = 3;
  rect.row_ptr = {0, 0, 0};
  EXPECT_EQ(ComputeBrBlocking(rect, Ordering::kAmd, CosineBlockingOptions())
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  const CsrMatrix a = SharedPatternApart();
  for (auto bad : {CosineBlockingOptions{.max_block_size = 0},
                   CosineBlockingOptions{.max_block_size = 33},
                   CosineBlockingOptions{.threshold = 0},
                   CosineBlockingOptions{.decay = 1.5},
                   CosineBlockingOptions{.levels = 0}}) {
    EXPECT_EQ(ComputeBrBlocking(a, Ordering::kAmd, bad).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace factord
