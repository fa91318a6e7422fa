#include "core/order/metis.h"

#include <algorithm>
#include <numeric>

#include "gtest/gtest.h"

namespace factord {
namespace {

// A 2D grid Laplacian pattern (lower triangle).
CsrMatrix Grid(int k) {
  CsrMatrix a;
  a.rows = a.cols = k * k;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (int i = 0; i < k * k; ++i) {
    if (i >= k) {
      a.col_idx.push_back(i - k);
      a.values.push_back(-1);
    }
    if (i % k) {
      a.col_idx.push_back(i - 1);
      a.values.push_back(-1);
    }
    a.col_idx.push_back(i);
    a.values.push_back(4);
    a.row_ptr.push_back(a.col_idx.size());
  }
  return a;
}

TEST(MetisOrdering, IsAPermutation) {
  for (int k : {1, 2, 12}) {
    const CsrMatrix a = Grid(k);
    auto perm = MetisOrdering(a);
    ASSERT_TRUE(perm.ok()) << perm.status();
    std::vector<int32_t> sorted = *perm;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int32_t> identity(k * k);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(sorted, identity);
  }
}

}  // namespace
}  // namespace factord
