// Reverse Cuthill-McKee: a shuffled path gets bandwidth 1, disconnected
// components and isolated nodes are all ordered, the result is a
// permutation, deterministic, and reduces the bandwidth of 494_bus.
#include "core/order/rcm.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

// The path 0 - 1 - ... - (n-1), with node labels shuffled; lower storage.
CsrMatrix ShuffledPath(int n, std::vector<int32_t>* label) {
  label->resize(n);
  std::iota(label->begin(), label->end(), 0);
  std::shuffle(label->begin(), label->end(), std::mt19937(3));
  std::vector<std::vector<int32_t>> rows(n);
  for (int k = 0; k < n; ++k) {
    rows[(*label)[k]].push_back((*label)[k]);
    if (k > 0) {
      const int32_t i = std::max((*label)[k], (*label)[k - 1]);
      const int32_t j = std::min((*label)[k], (*label)[k - 1]);
      rows[i].push_back(j);
    }
  }
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    for (int32_t j : row) {
      a.col_idx.push_back(j);
      a.values.push_back(1.0);
    }
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

bool IsPermutation(std::vector<int32_t> p) {
  std::sort(p.begin(), p.end());
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] != static_cast<int32_t>(i)) return false;
  }
  return true;
}

TEST(Rcm, ShuffledPathGetsBandwidthOne) {
  std::vector<int32_t> label;
  const CsrMatrix a = ShuffledPath(40, &label);
  const auto perm = ReverseCuthillMcKee(a);
  ASSERT_TRUE(IsPermutation(perm));
  EXPECT_GT(PermutedBandwidth(a, InversePermutation(label)), 0);
  EXPECT_EQ(PermutedBandwidth(a, InversePermutation(perm)), 1);
  // Starts at an end of the path (a pseudo-peripheral node).
  EXPECT_TRUE(perm.front() == label.front() || perm.front() == label.back());
}

TEST(Rcm, DisconnectedComponentsAndIsolatedNodes) {
  CsrMatrix a;  // edges 0-3, 1-4; node 2 isolated; node 5 without entries
  a.rows = a.cols = 6;
  a.row_ptr = {0, 0, 0, 1, 2, 3, 3};
  a.col_idx = {2, 0, 1};  // (2,2) diagonal, (3,0), (4,1)
  a.values = {1, 1, 1};
  const auto perm = ReverseCuthillMcKee(a);
  ASSERT_EQ(perm.size(), 6u);
  EXPECT_TRUE(IsPermutation(perm));
  EXPECT_EQ(PermutedBandwidth(a, InversePermutation(perm)), 1);
  EXPECT_EQ(ReverseCuthillMcKee(a), perm);  // deterministic
}

TEST(Rcm, EmptyMatrix) {
  CsrMatrix a;
  a.row_ptr = {0};
  EXPECT_TRUE(ReverseCuthillMcKee(a).empty());
}

TEST(Rcm, ReducesBandwidthOf494Bus) {
  absl::StatusOr<CsrMatrix> a =
      ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  std::vector<int32_t> identity(a->rows);
  std::iota(identity.begin(), identity.end(), 0);
  const auto perm = ReverseCuthillMcKee(*a);
  ASSERT_TRUE(IsPermutation(perm));
  const int64_t before = PermutedBandwidth(*a, identity);
  const int64_t after = PermutedBandwidth(*a, InversePermutation(perm));
  EXPECT_LT(after, before / 3) << before << " -> " << after;
}

}  // namespace
}  // namespace factord
