#include "core/order/scaling.h"

#include <cmath>

#include "gtest/gtest.h"

namespace factord {
namespace {

TEST(RuizScaling, EquilibratesRowMaxima) {
  // [[1e6, 1e3], [1e3, 1e-4]] and an empty row 2.
  CsrMatrix a;
  a.rows = a.cols = 3;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr = {0, 1, 3, 3};
  a.col_idx = {0, 0, 1};
  a.values = {1e6, 1e3, 1e-4};
  const std::vector<double> s = RuizScaling(a, a.values, 50, 1e-6);
  ASSERT_EQ(s.size(), 3u);
  const double r0 =
      std::max(std::abs(1e6 * s[0] * s[0]), std::abs(1e3 * s[0] * s[1]));
  const double r1 =
      std::max(std::abs(1e3 * s[0] * s[1]), std::abs(1e-4 * s[1] * s[1]));
  EXPECT_NEAR(r0, 1.0, 1e-5);
  EXPECT_NEAR(r1, 1.0, 1e-5);
  EXPECT_EQ(s[2], 1.0);  // no entries: untouched
}

}  // namespace
}  // namespace factord
