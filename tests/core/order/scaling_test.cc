#include "core/order/scaling.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

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

// The vectorized rescaling against the scalar loop, bit for bit, on
// lengths that leave every tail and with the rows a sweep can meet: no
// entry (0), an overflowed product (inf), the largest double, subnormal
// and ordinary maxima either side of 1.
TEST(RescaleRows, MatchesTheReferenceBitForBit) {
  const double planted[] = {0.0,     std::numeric_limits<double>::infinity(),
                            DBL_MAX, std::numeric_limits<double>::denorm_min(),
                            1e-310,  DBL_MIN,
                            1.0,     std::nextafter(1.0, 2.0),
                            0.99,    1e300,
                            1e-300,  3.0};
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> exponent(-300, 300);
  std::uniform_int_distribution<int> pick(0, 2 * std::size(planted) - 1);
  for (int n = 0; n <= 37; ++n) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> row_max(n), s(n);
      for (int i = 0; i < n; ++i) {
        const int k = pick(rng);
        row_max[i] = k < static_cast<int>(std::size(planted))
                         ? planted[k]
                         : std::pow(10.0, exponent(rng));
        s[i] = std::pow(10.0, exponent(rng) / 4);
      }
      std::vector<double> s_ref = s;
      const double worst = internal::RescaleRows(row_max, s);
      const double worst_ref = internal::RescaleRowsReference(row_max, s_ref);
      ASSERT_EQ(std::memcmp(&worst, &worst_ref, sizeof(double)), 0)
          << "n = " << n << ": " << worst << " vs " << worst_ref;
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(std::memcmp(&s[i], &s_ref[i], sizeof(double)), 0)
            << "n = " << n << ", row " << i << " (max " << row_max[i]
            << "): " << s[i] << " vs " << s_ref[i];
      }
    }
  }
}

TEST(RescaleRows, SkipsRowsWithoutAPositiveFiniteMaximum) {
  const std::vector<double> row_max = {
      0.0, std::numeric_limits<double>::infinity(), 4.0, 0.25, 0.0};
  std::vector<double> s = {2.0, 3.0, 8.0, 1.0, 5.0};
  EXPECT_EQ(internal::RescaleRows(row_max, s), 3.0);  // |1 - 4|
  EXPECT_EQ(s, (std::vector<double>{2.0, 3.0, 4.0, 2.0, 5.0}));
  std::vector<double> none = {7.0};
  EXPECT_EQ(internal::RescaleRows(std::vector<double>{0.0}, none), 0.0);
  EXPECT_EQ(none[0], 7.0);
}

}  // namespace
}  // namespace factord
