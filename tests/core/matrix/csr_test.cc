// PatternHash: equal patterns hash equal whatever the values; any change of
// dimensions, structure or index arrays changes the hash.
#include "core/matrix/csr.h"

#include <set>

#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

CsrMatrix Small() {
  CsrMatrix a;
  a.rows = 3;
  a.cols = 3;
  a.row_ptr = {0, 2, 3, 5};
  a.col_idx = {0, 2, 1, 0, 2};
  a.values = {4, 1, 5, 2, 6};
  return a;
}

TEST(PatternHash, IgnoresValues) {
  CsrMatrix a = Small();
  CsrMatrix b = Small();
  b.values = {0, 0, 0, 0, 0};
  EXPECT_EQ(PatternHash(a), PatternHash(b));
}

TEST(PatternHash, SeesEveryPartOfThePattern) {
  std::set<uint64_t> hashes;
  hashes.insert(PatternHash(Small()));
  CsrMatrix a = Small();
  a.cols = 4;
  hashes.insert(PatternHash(a));
  a = Small();
  a.structure = Structure::kSymmetricLower;
  hashes.insert(PatternHash(a));
  a = Small();
  a.col_idx[4] = 1;
  hashes.insert(PatternHash(a));
  a = Small();
  a.row_ptr = {0, 1, 3, 5};  // same col_idx, different rows
  hashes.insert(PatternHash(a));
  a = Small();
  std::swap(a.col_idx[0], a.col_idx[1]);  // order matters
  hashes.insert(PatternHash(a));
  CsrMatrix empty;
  empty.row_ptr = {0};
  hashes.insert(PatternHash(empty));
  EXPECT_EQ(hashes.size(), 7u);
}

TEST(PatternHash, SingleColumnChangesInARealMatrix) {
  absl::StatusOr<CsrMatrix> a =
      ReadMatrixMarket(testing::TestDataPath("west0479.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  const uint64_t base = PatternHash(*a);
  std::set<uint64_t> hashes = {base};
  // Move one column index of each of 200 entries by one: all distinct.
  for (int64_t k = 0; k < 200; ++k) {
    CsrMatrix b = *a;
    b.col_idx[k * 9] ^= 1;
    hashes.insert(PatternHash(b));
  }
  EXPECT_EQ(hashes.size(), 201u);
  EXPECT_EQ(PatternHash(*a), base);  // deterministic
}

}  // namespace
}  // namespace factord
