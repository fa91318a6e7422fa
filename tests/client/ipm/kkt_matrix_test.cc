#include "client/ipm/kkt_matrix.h"

#include <vector>

#include "client/ipm/mps_reader.h"
#include "client/ipm/standard_form.h"
#include "gtest/gtest.h"

namespace factord::ipm {
namespace {

// Two free columns with Q = [2 1; 1 0] (no Q(1,1) entry), one equality row
// x0 + 3 x1 = 1, no scaling: K is
//   [-(2+d0+p)   .          . ]
//   [-1         -(0+d1+p)   . ]
//   [ 1          3          q ]
TEST(KktMatrixTest, PatternAndValuesOfATinyQp) {
  absl::StatusOr<QpProblem> p = ParseMps(
      "NAME\nROWS\n N OBJ\n E R\nCOLUMNS\n    X R 1\n    Y R 3\nRHS\n"
      "    RHS R 1\nBOUNDS\n FR B X\n FR B Y\nQUADOBJ\n    X X 2\n    Y X 1\n"
      "ENDATA\n");
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<StandardForm> f = BuildStandardForm(*p, /*scaling_passes=*/0);
  ASSERT_TRUE(f.ok());
  KktMatrix k(*f);
  k.Fill({0.5, 0.25}, 1e-3, 1e-4);
  const SymmetricLowerCsr& m = k.matrix();
  EXPECT_EQ(m.dim, 3);
  EXPECT_EQ(k.num_primal(), 2);
  EXPECT_EQ(m.row_start, (std::vector<int64_t>{0, 1, 3, 6}));
  EXPECT_EQ(m.col_index, (std::vector<int>{0, 0, 1, 0, 1, 2}));
  const std::vector<double> expected = {
      -(2 + 0.5 + 1e-3), -1, -(0.25 + 1e-3), 1, 3, 1e-4};
  ASSERT_EQ(m.values.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_DOUBLE_EQ(m.values[i], expected[i]) << i;
  }
  // Refilling writes the same positions (the pattern never changes).
  k.Fill({1, 1}, 0, 0);
  EXPECT_DOUBLE_EQ(k.matrix().values[0], -3);
  EXPECT_DOUBLE_EQ(k.matrix().values[2], -1);
  EXPECT_EQ(k.matrix().col_index, m.col_index);
}

}  // namespace
}  // namespace factord::ipm
