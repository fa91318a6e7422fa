// The analysis of block_ildlt (BuildBlockIldltStructureFromBlocks) on
// planted block graphs with the ordering and blocking given: the block
// level-of-fill pattern (level 0 is A's block pattern, each level adds the
// fill of one more elimination step), checked by hand on a block 5-cycle
// and against a dense block elimination written here on random block
// graphs; the level sets (a block's level is one more than the deepest
// block it depends on); the row structure; the gather map of A's entries
// into the dense blocks.
#include <algorithm>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "gtest/gtest.h"
#include "tests/core/block_ildlt/block_ildlt_test_blocks.h"

namespace factord {
namespace {

using testing::LinkedBlocks;
using testing::OrderedCase;
using testing::Planted;

constexpr int kNone = std::numeric_limits<int>::max();

BlockIldltStructure Build(const OrderedCase& c, int fill_level) {
  FactorOptions options = Planted();
  options.fill_level = fill_level;
  absl::StatusOr<BlockIldltStructure> s = BuildBlockIldltStructureFromBlocks(
      c.Original(), options, c.perm, c.block_ptr);
  EXPECT_TRUE(s.ok()) << s.status();
  return *std::move(s);
}

// Per block column J: the (row block, fill level) of its slots in order.
std::vector<std::vector<std::pair<int, int>>> Columns(
    const BlockIldltStructure& s) {
  std::vector<std::vector<std::pair<int, int>>> cols(s.num_blocks());
  for (int64_t j = 0; j < s.num_blocks(); ++j) {
    for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
      cols[j].push_back({s.row_block[t], s.fill_level[t]});
    }
  }
  return cols;
}

// Dense block ILU(k) levels (KIJ order): lev(I, J) = 0 on A's blocks,
// lev(I, J) = min over K < J of lev(I, K) + lev(J, K) + 1; kNone if absent.
std::vector<std::vector<int>> DenseBlockLevels(const OrderedCase& c) {
  const int nb = c.NumBlocks();
  std::vector<int> block_of(c.n);
  for (int b = 0; b < nb; ++b) {
    for (int k = c.block_ptr[b]; k < c.block_ptr[b + 1]; ++k) block_of[k] = b;
  }
  std::vector<std::vector<int>> lev(nb, std::vector<int>(nb, kNone));
  for (const auto& [k, l, v] : c.ordered) {
    const int bi = block_of[k], bj = block_of[l];
    if (bi != bj) lev[std::max(bi, bj)][std::min(bi, bj)] = 0;
  }
  for (int k = 0; k < nb; ++k) {
    for (int i = k + 1; i < nb; ++i) {
      if (lev[i][k] == kNone) continue;
      for (int j = k + 1; j < i; ++j) {
        if (lev[j][k] == kNone) continue;
        lev[i][j] = std::min(lev[i][j], lev[i][k] + lev[j][k] + 1);
      }
    }
  }
  return lev;
}

// The block level of each block from the structure's level sets, checking
// that every block is listed once and ascending within its level.
std::vector<int> LevelOfBlock(const BlockIldltStructure& s) {
  std::vector<int> level(s.num_blocks(), -1);
  EXPECT_EQ(s.level_ptr.size(), static_cast<size_t>(s.num_levels) + 1);
  EXPECT_EQ(s.level_ptr.back(), s.num_blocks());
  for (int l = 0; l < s.num_levels; ++l) {
    EXPECT_LT(s.level_ptr[l], s.level_ptr[l + 1]) << "level " << l;
    for (int64_t b = s.level_ptr[l]; b < s.level_ptr[l + 1]; ++b) {
      const int32_t j = s.level_blocks[b];
      EXPECT_EQ(level[j], -1) << "block " << j << " listed twice";
      level[j] = l;
      if (b > s.level_ptr[l]) {
        EXPECT_LT(s.level_blocks[b - 1], j);
      }
    }
  }
  return level;
}

// The 5-cycle of 2 x 2 blocks 0 - 1 - 2 - 3 - 4 - 0 under a scrambled
// ordering. Eliminating block 0 fills (4, 1) at level 1; eliminating 1
// then fills (4, 2) at level lev(4,1) + lev(2,1) + 1 = 2; nothing more.
OrderedCase BlockCycle() {
  std::mt19937 rng(3);
  return LinkedBlocks({2, 2, 2, 2, 2}, {{1, 0}, {2, 1}, {3, 2}, {4, 3}, {4, 0}},
                      testing::Shuffled(10, rng),
                      [](int k) { return 4.0 + 0.1 * k; });
}

TEST(BlockIldltSymbolic, LevelZeroPatternIsTheBlockPatternOfA) {
  const BlockIldltStructure s = Build(BlockCycle(), 0);
  using Col = std::vector<std::pair<int, int>>;
  EXPECT_EQ(Columns(s), (std::vector<Col>{{{0, 0}, {1, 0}, {4, 0}},
                                          {{1, 0}, {2, 0}},
                                          {{2, 0}, {3, 0}},
                                          {{3, 0}, {4, 0}},
                                          {{4, 0}}}));
  EXPECT_EQ(s.fill_level_used, 0);
  // Every slot is a dense 2 x 2 block.
  for (int64_t t = 0; t < s.num_slots(); ++t) {
    EXPECT_EQ(s.value_ptr[t + 1] - s.value_ptr[t], 4);
  }
}

TEST(BlockIldltSymbolic, EachFillLevelAddsOneEliminationStepOfFill) {
  using Col = std::vector<std::pair<int, int>>;
  const BlockIldltStructure level1 = Build(BlockCycle(), 1);
  EXPECT_EQ(Columns(level1), (std::vector<Col>{{{0, 0}, {1, 0}, {4, 0}},
                                               {{1, 0}, {2, 0}, {4, 1}},
                                               {{2, 0}, {3, 0}},
                                               {{3, 0}, {4, 0}},
                                               {{4, 0}}}));
  const BlockIldltStructure level2 = Build(BlockCycle(), 2);
  EXPECT_EQ(Columns(level2), (std::vector<Col>{{{0, 0}, {1, 0}, {4, 0}},
                                               {{1, 0}, {2, 0}, {4, 1}},
                                               {{2, 0}, {3, 0}, {4, 2}},
                                               {{3, 0}, {4, 0}},
                                               {{4, 0}}}));
  // Level 2 is already the complete factor's pattern.
  EXPECT_EQ(Columns(Build(BlockCycle(), 1000)), Columns(level2));
  // The row structure lists each block row's (I, K), K ascending.
  ASSERT_EQ(level2.row_ptr[5] - level2.row_ptr[4], 4);
  for (int k = 0; k < 4; ++k) {
    const int64_t r = level2.row_ptr[4] + k;
    EXPECT_EQ(level2.row_slot_col[r], k);
    EXPECT_EQ(level2.row_block[level2.row_slot[r]], 4);
  }
}

TEST(BlockIldltSymbolic, LevelSetsOfAPathAStarAndABlockDiagonal) {
  const auto diagonal = [](int k) { return 4.0 + k; };
  std::mt19937 rng(5);
  // A block path: each block depends on the one before.
  const BlockIldltStructure path =
      Build(LinkedBlocks({2, 1, 3, 2}, {{1, 0}, {2, 1}, {3, 2}},
                         testing::Shuffled(8, rng), diagonal),
            0);
  EXPECT_EQ(path.num_levels, 4);
  EXPECT_EQ(LevelOfBlock(path), (std::vector<int>{0, 1, 2, 3}));
  // A block star with its hub last: the leaves are one level.
  const BlockIldltStructure star =
      Build(LinkedBlocks({2, 2, 2, 2, 3}, {{4, 0}, {4, 1}, {4, 2}, {4, 3}},
                         testing::Shuffled(11, rng), diagonal),
            0);
  EXPECT_EQ(star.num_levels, 2);
  EXPECT_EQ(star.level_ptr, (std::vector<int64_t>{0, 4, 5}));
  EXPECT_EQ(star.level_blocks, (std::vector<int32_t>{0, 1, 2, 3, 4}));
  // Independent blocks: one level.
  const BlockIldltStructure diag = Build(
      LinkedBlocks({3, 3, 1}, {}, testing::Shuffled(7, rng), diagonal), 5);
  EXPECT_EQ(diag.num_levels, 1);
  EXPECT_EQ(diag.num_slots(), 3);
}

// A random block graph with random block sizes and a random ordering.
OrderedCase RandomBlocks(unsigned seed) {
  std::mt19937 rng(seed);
  const int nb = 6 + static_cast<int>(rng() % 7);
  std::vector<int> sizes;
  for (int b = 0; b < nb; ++b) sizes.push_back(1 + static_cast<int>(rng() % 3));
  std::vector<std::pair<int, int>> links;
  for (int i = 0; i < nb; ++i) {
    for (int j = 0; j < i; ++j) {
      if (rng() % 4 == 0) links.push_back({i, j});
    }
  }
  int n = 0;
  for (int s : sizes) n += s;
  return LinkedBlocks(sizes, links, testing::Shuffled(n, rng),
                      [](int k) { return 4.0 + k; });
}

TEST(BlockIldltSymbolic, PatternAndLevelSetsMatchADenseBlockElimination) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    const OrderedCase c = RandomBlocks(seed);
    const std::vector<std::vector<int>> lev = DenseBlockLevels(c);
    const int nb = c.NumBlocks();
    for (int fill : {0, 1, 2, 3, 1000}) {
      SCOPED_TRACE(fill);
      const BlockIldltStructure s = Build(c, fill);
      ASSERT_EQ(s.num_blocks(), nb);
      std::vector<std::vector<std::pair<int, int>>> expected(nb);
      for (int j = 0; j < nb; ++j) {
        expected[j].push_back({j, 0});
        for (int i = j + 1; i < nb; ++i) {
          if (lev[i][j] <= fill) expected[j].push_back({i, lev[i][j]});
        }
      }
      ASSERT_EQ(Columns(s), expected);

      // The row structure holds the same blocks, by row.
      for (int i = 0; i < nb; ++i) {
        std::vector<int> from_rows, from_columns;
        for (int64_t r = s.row_ptr[i]; r < s.row_ptr[i + 1]; ++r) {
          EXPECT_EQ(s.row_block[s.row_slot[r]], i);
          from_rows.push_back(s.row_slot_col[r]);
        }
        for (int j = 0; j < i; ++j) {
          if (lev[i][j] <= fill) from_columns.push_back(j);
        }
        EXPECT_EQ(from_rows, from_columns) << "block row " << i;
      }

      // level(J) = 1 + max level(K) over its blocks (J, K), 0 without any.
      std::vector<int> level(nb, 0);
      for (int j = 0; j < nb; ++j) {
        for (int k = 0; k < j; ++k) {
          if (lev[j][k] <= fill) level[j] = std::max(level[j], level[k] + 1);
        }
      }
      EXPECT_EQ(LevelOfBlock(s), level);
      EXPECT_EQ(s.num_levels,
                *std::max_element(level.begin(), level.end()) + 1);
    }
  }
}

TEST(BlockIldltSymbolic, GatherPutsEveryEntryInItsDenseBlock) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE(seed);
    const OrderedCase c = RandomBlocks(seed);
    const BlockIldltStructure s = Build(c, 1);
    std::vector<double> scaling, values;
    ASSERT_TRUE(
        ScatterScaledBlocks(c.Original(), s, Planted(), &scaling, &values)
            .ok());
    const std::vector<double> b = c.Dense();
    const int nb = c.NumBlocks();
    std::vector<int64_t> offdiag(nb, 0);
    for (int j = 0; j < nb; ++j) {
      const int bj = s.block_size(j);
      for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
        const int i = s.row_block[t];
        const int bi = s.block_size(i);
        for (int lj = 0; lj < bj; ++lj) {
          for (int li = 0; li < bi; ++li) {
            const double expected =
                b[(c.block_ptr[i] + li) * c.n + c.block_ptr[j] + lj];
            EXPECT_EQ(values[s.value_ptr[t] + lj * bi + li], expected)
                << "slot " << t << " (" << li << ", " << lj << ")";
            if (i != j && expected != 0) ++offdiag[j];
          }
        }
      }
    }
    EXPECT_EQ(s.a_offdiag_count, offdiag);
  }
}

TEST(BlockIldltSymbolic, RejectsABlockingOrOrderingThatDoesNotFit) {
  const OrderedCase c = BlockCycle();
  const CsrMatrix a = c.Original();
  FactorOptions options = Planted();
  std::vector<int32_t> not_a_perm = c.perm;
  not_a_perm[0] = not_a_perm[1];
  EXPECT_FALSE(
      BuildBlockIldltStructureFromBlocks(a, options, not_a_perm, c.block_ptr)
          .ok());
  EXPECT_FALSE(
      BuildBlockIldltStructureFromBlocks(a, options, c.perm, {0, 2, 2, 10})
          .ok());  // an empty block
  EXPECT_FALSE(
      BuildBlockIldltStructureFromBlocks(a, options, c.perm, {0, 2, 8}).ok());
  options.fill_level = -1;
  EXPECT_FALSE(
      BuildBlockIldltStructureFromBlocks(a, options, c.perm, c.block_ptr).ok());
}

}  // namespace
}  // namespace factord
