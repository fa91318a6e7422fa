// Supervariables (S4 §2.3): identical adjacent rows are grouped (also
// through a permutation), large supervariables are halved recursively,
// adjacent ones are merged up to the block size.
#include "core/block/supervariables.h"

#include <vector>

#include "gtest/gtest.h"

namespace factord {
namespace {

// Rows 0-2 share a pattern ({0,1,2,3}), row 3 differs, rows 4-5 share {4,5}.
CsrMatrix Patterned() {
  CsrMatrix a;
  a.rows = a.cols = 6;
  a.row_ptr = {0, 4, 8, 12, 16, 18, 20};
  a.col_idx = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 4, 5};
  a.values.assign(a.col_idx.size(), 1.0);
  // Row 3 gets a different pattern: {0, 1, 2, 3} -> {0, 1, 3, 4}.
  a.col_idx[14] = 3;
  a.col_idx[15] = 4;
  return a;
}

TEST(Supervariables, IdenticalAdjacentRowsFormOne) {
  const CsrMatrix a = Patterned();
  const std::vector<int32_t> natural = {0, 1, 2, 3, 4, 5};
  EXPECT_EQ(FindSupervariables(a, natural), (std::vector<int64_t>{0, 3, 4, 6}));
  // Through a permutation: rows 0 and 2 adjacent, 1 separated by row 3.
  const std::vector<int32_t> perm = {0, 2, 3, 1, 5, 4};
  EXPECT_EQ(FindSupervariables(a, perm), (std::vector<int64_t>{0, 2, 3, 4, 6}));
}

TEST(Supervariables, LargeOnesAreHalvedRecursively) {
  EXPECT_EQ(SplitSupervariables(std::vector<int64_t>{0, 40}, 32),
            (std::vector<int64_t>{0, 20, 40}));
  EXPECT_EQ(SplitSupervariables(std::vector<int64_t>{0, 100}, 32),
            (std::vector<int64_t>{0, 25, 50, 75, 100}));
  EXPECT_EQ(SplitSupervariables(std::vector<int64_t>{0, 3, 4}, 1),
            (std::vector<int64_t>{0, 1, 2, 3, 4}));
}

TEST(Supervariables, AdjacentOnesMergeUpToTheBlockSize) {
  const std::vector<int64_t> sv = {0, 3, 4, 6, 16, 17};
  EXPECT_EQ(AmalgamateSupervariables(sv, 6),
            (std::vector<int64_t>{0, 6, 11, 17}));  // 3+1+2 | 5 | 5+1
  EXPECT_EQ(AmalgamateSupervariables(sv, 32), (std::vector<int64_t>{0, 17}));
  EXPECT_EQ(AmalgamateSupervariables(sv, 1).size(), 18u);
  EXPECT_EQ(AmalgamateSupervariables(std::vector<int64_t>{0}, 4),
            (std::vector<int64_t>{0}));
}

}  // namespace
}  // namespace factord
