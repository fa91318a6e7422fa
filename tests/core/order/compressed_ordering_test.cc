// The compressed-graph ordering of 2x2 candidates (S1 §II, Duff & Pralet):
// the compressed pattern of a tiny hand-built graph, pairs consecutive in
// the expanded permutation for every ordering, invalid pairs refused.
#include "core/order/compressed_ordering.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "core/order/ordering.h"
#include "gtest/gtest.h"
#include "test_data.h"
#include "tests/core/order/graph_pattern.h"

namespace factord {
namespace {

using Pairs = std::vector<std::pair<int32_t, int32_t>>;

std::vector<int32_t> Row(const CsrMatrix& c, int u) {
  return {c.col_idx.begin() + c.row_ptr[u],
          c.col_idx.begin() + c.row_ptr[u + 1]};
}

TEST(CompressPairs, PairIsOneNodeWithTheUnionOfItsRows) {
  // Path 0-1-2-3-4 and the edge 0-4; pair (1, 3) becomes node 0.
  const CsrMatrix a = Graph(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}});
  std::vector<int32_t> node_of;
  const CsrMatrix c = CompressPairs(a, Pairs{{1, 3}}, &node_of);
  EXPECT_EQ(node_of, (std::vector<int32_t>{1, 0, 2, 0, 3}));
  ASSERT_EQ(c.rows, 4);
  EXPECT_TRUE(c.values.empty());
  // Lower rows: node 0 = {1, 3}; node 1 = {0}: 0; node 2 = {2}: 0 (both
  // members of the pair), node 3 = {4}: 0 (via 3) and 1 (via 0).
  EXPECT_EQ(Row(c, 0), (std::vector<int32_t>{0}));
  EXPECT_EQ(Row(c, 1), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(Row(c, 2), (std::vector<int32_t>{0, 2}));
  EXPECT_EQ(Row(c, 3), (std::vector<int32_t>{0, 1, 3}));
}

bool IsPermutation(std::vector<int32_t> perm, int64_t n) {
  if (static_cast<int64_t>(perm.size()) != n) return false;
  std::sort(perm.begin(), perm.end());
  for (int64_t i = 0; i < n; ++i) {
    if (perm[i] != i) return false;
  }
  return true;
}

TEST(CompressedPairOrdering, PairsAreConsecutiveForEveryOrdering) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  // Disjoint pairs along stored off-diagonal entries, greedily, and a few
  // pairs of indices that are not neighbours at all.
  Pairs pairs;
  std::vector<uint8_t> used(a->rows, 0);
  for (int64_t i = 0; i < a->rows; i += 3) {
    for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; ++k) {
      const int32_t j = a->col_idx[k];
      if (j != i && !used[i] && !used[j]) {
        used[i] = used[j] = 1;
        pairs.emplace_back(static_cast<int32_t>(i), j);
      }
    }
  }
  for (int32_t i = 1, found = 0; i < a->rows && found < 5; i += 97) {
    const int32_t j = a->rows - i;
    if (i != j && !used[i] && !used[j]) {
      used[i] = used[j] = 1;
      pairs.emplace_back(j, i);  // j > i: "i then j" is the given order
      ++found;
    }
  }
  ASSERT_GT(pairs.size(), 50u);
  for (Ordering o : {Ordering::kAmd, Ordering::kMetis, Ordering::kRcm,
                     Ordering::kNatural, Ordering::kGmc}) {
    auto perm = CompressedPairOrdering(*a, pairs, o);
    ASSERT_TRUE(perm.ok()) << OrderingName(o) << ": " << perm.status();
    ASSERT_TRUE(IsPermutation(*perm, a->rows)) << OrderingName(o);
    std::vector<int32_t> inverse(a->rows);
    for (int64_t k = 0; k < a->rows; ++k) inverse[(*perm)[k]] = k;
    for (auto [i, j] : pairs) {
      EXPECT_EQ(inverse[j], inverse[i] + 1)
          << OrderingName(o) << ": pair (" << i << ", " << j << ")";
    }
  }
}

TEST(CompressedPairOrdering, WithoutPairsItIsThePlainOrdering) {
  auto a = ReadMatrixMarket(testing::TestDataPath("1138_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  auto plain = ComputeOrdering(*a, Ordering::kAmd);
  auto compressed = CompressedPairOrdering(*a, {}, Ordering::kAmd);
  ASSERT_TRUE(plain.ok() && compressed.ok());
  EXPECT_EQ(*plain, *compressed);
}

TEST(CompressedPairOrdering, RefusesInvalidPairs) {
  const CsrMatrix a = Graph(4, {{0, 1}, {1, 2}, {2, 3}});
  for (const Pairs& bad :
       {Pairs{{0, 1}, {1, 2}}, Pairs{{2, 2}}, Pairs{{0, 4}}, Pairs{{-1, 0}}}) {
    auto perm = CompressedPairOrdering(a, bad, Ordering::kAmd);
    EXPECT_EQ(perm.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace factord
