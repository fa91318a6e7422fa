#include "core/order/amd.h"

#include <algorithm>
#include <numeric>

#include "gtest/gtest.h"

namespace factord {
namespace {

// An arrow matrix with the hub first: eliminating the hub first fills the
// whole matrix, so AMD must order it last.
CsrMatrix Arrow(int n) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    if (i > 0) {
      a.col_idx.push_back(0);
      a.values.push_back(1);
    }
    a.col_idx.push_back(i);
    a.values.push_back(4);
    a.row_ptr.push_back(a.col_idx.size());
  }
  return a;
}

TEST(AmdOrdering, IsAPermutationAndOrdersTheHubLast) {
  const CsrMatrix a = Arrow(10);
  auto perm = AmdOrdering(a);
  ASSERT_TRUE(perm.ok()) << perm.status();
  std::vector<int32_t> sorted = *perm;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int32_t> identity(10);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(sorted, identity);
  EXPECT_EQ(perm->back(), 0);
}

TEST(AmdOrdering, EmptyAndNonSquare) {
  CsrMatrix empty;
  empty.row_ptr = {0};
  auto perm = AmdOrdering(empty);
  ASSERT_TRUE(perm.ok());
  EXPECT_TRUE(perm->empty());
  CsrMatrix rect = Arrow(3);
  rect.cols = 4;
  EXPECT_FALSE(AmdOrdering(rect).ok());
}

}  // namespace
}  // namespace factord
