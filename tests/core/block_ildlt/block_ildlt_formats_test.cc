// The hybrid sparse/dense block format decision (S1 §IV-A) on a hand-built
// blocking: five blocks of 8 rows in natural order, level-of-fill 1.
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/solver.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

// n = 40, blocks [0,8) [8,16) [16,24) [24,32) [32,40). Diagonal 10; one
// entry in blocks (1,0), (2,0) and (4,0); 20 entries in block (3,0). Fill
// at level 1: (2,1), (3,1), (3,2), (4,1), (4,2), (4,3).
CsrMatrix FiveBlocks() {
  std::vector<std::vector<int>> lower(40);
  lower[8] = {0};                                         // (1,0)
  lower[16] = {1};                                        // (2,0)
  lower[32] = {2};                                        // (4,0)
  for (int r = 24; r < 29; ++r) lower[r] = {0, 1, 2, 3};  // (3,0): 20
  CsrMatrix a;
  a.rows = a.cols = 40;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (int i = 0; i < 40; ++i) {
    for (int j : lower[i]) {
      a.col_idx.push_back(j);
      a.values.push_back(1.0);
    }
    a.col_idx.push_back(i);
    a.values.push_back(10.0);
    a.row_ptr.push_back(static_cast<int64_t>(a.col_idx.size()));
  }
  return a;
}

absl::StatusOr<BlockIldltStructure> FiveBlockStructure(const CsrMatrix& a) {
  FactorOptions options;
  options.method = Method::kBlockIldlt;
  options.fill_level = 1;
  std::vector<int32_t> perm(40);
  std::iota(perm.begin(), perm.end(), 0);
  return BuildBlockIldltStructureFromBlocks(a, options, std::move(perm),
                                            {0, 8, 16, 24, 32, 40});
}

// The slot of block (i, j) in `s`, or -1.
int64_t Slot(const BlockIldltStructure& s, int i, int j) {
  for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
    if (s.row_block[t] == i) return t;
  }
  return -1;
}

TEST(BlockIldltFormats, SparseWhenTheAllowedEntriesAreFew) {
  const CsrMatrix a = FiveBlocks();
  auto s = FiveBlockStructure(a);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->num_slots(), 5 + 4 + 6);  // diagonal, A's blocks, fill
  const BlockFormats f = DecideBlockFormats(*s, /*fill_factor=*/4.0);
  ASSERT_EQ(static_cast<int64_t>(f.dense.size()), s->num_slots());
  // Diagonal blocks are always dense.
  for (int b = 0; b < 5; ++b) EXPECT_TRUE(f.dense[Slot(*s, b, b)]) << b;
  // (1,0): 1 entry, may keep 4: 4 x 12 bytes < 0.5 x 64 x 8 bytes.
  EXPECT_EQ(f.max_entries[Slot(*s, 1, 0)], 4);
  EXPECT_FALSE(f.dense[Slot(*s, 1, 0)]);
  // Fill block (2,1): r_f times the mean of row 2's occupied blocks (1).
  EXPECT_EQ(f.max_entries[Slot(*s, 2, 1)], 4);
  EXPECT_FALSE(f.dense[Slot(*s, 2, 1)]);
  // (3,0): 20 entries, 80 allowed, capped at the 64 of a full block.
  EXPECT_EQ(f.max_entries[Slot(*s, 3, 0)], 64);
  EXPECT_TRUE(f.dense[Slot(*s, 3, 0)]);
  // Fill blocks of row 3 inherit its mean (20): dense.
  EXPECT_TRUE(f.dense[Slot(*s, 3, 1)]);
  // Block row 4 is the bottom 1% (one block row of five): dense although
  // (4,0) holds a single entry.
  EXPECT_EQ(f.max_entries[Slot(*s, 4, 0)], 4);
  EXPECT_TRUE(f.dense[Slot(*s, 4, 0)]);
  int64_t dense = 0;
  for (uint8_t d : f.dense) dense += d;
  EXPECT_EQ(f.dense_blocks, dense);
  EXPECT_EQ(f.sparse_blocks, s->num_slots() - dense);
  EXPECT_EQ(f.all_dense_bytes,
            s->value_ptr.back() * static_cast<int64_t>(sizeof(double)));
  EXPECT_LT(f.bytes, f.all_dense_bytes);
}

TEST(BlockIldltFormats, TheFillRatioMovesTheDecision) {
  const CsrMatrix a = FiveBlocks();
  auto s = FiveBlockStructure(a);
  ASSERT_TRUE(s.ok()) << s.status();
  // (3,0) with r_f = 1: 20 x 12 = 240 bytes < 256: sparse; r_f = 2: dense.
  EXPECT_FALSE(DecideBlockFormats(*s, 1.0).dense[Slot(*s, 3, 0)]);
  EXPECT_TRUE(DecideBlockFormats(*s, 2.0).dense[Slot(*s, 3, 0)]);
  // A larger fill ratio never makes a block sparse.
  const BlockFormats low = DecideBlockFormats(*s, 1.0);
  const BlockFormats high = DecideBlockFormats(*s, 8.0);
  for (int64_t t = 0; t < s->num_slots(); ++t) {
    EXPECT_LE(low.dense[t], high.dense[t]) << t;
  }
  EXPECT_GE(high.dense_blocks, low.dense_blocks);
}

TEST(BlockIldltFormats, ReportedByTheFactorization) {
  auto read = ReadMatrixMarket(testing::TestDataPath("bcsstk13.mtx"));
  ASSERT_TRUE(read.ok()) << read.status();
  auto a = std::make_shared<const CsrMatrix>(*std::move(read));
  FactorOptions options;
  options.method = Method::kBlockIldlt;
  ExecContext ctx;
  auto analysis = Analyze(*a, options, ctx);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  auto f = Factorize(a, *analysis, options, ctx);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_THAT((*f)->report().message,
              ::testing::HasSubstr("hybrid format (S1 §IV-A)"));
  EXPECT_THAT((*f)->report().message, ::testing::HasSubstr("sparse blocks"));
}

}  // namespace
}  // namespace factord
