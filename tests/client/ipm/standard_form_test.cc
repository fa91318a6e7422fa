#include "client/ipm/standard_form.h"

#include <cmath>
#include <limits>
#include <vector>

#include "client/ipm/mps_reader.h"
#include "gtest/gtest.h"

namespace factord::ipm {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(StandardFormTest, BoundsSlacksFixedColumnsAndRecovery) {
  // Columns: A in [1, 4] (boxed), B <= 2 only (reflected), C free, D fixed 3.
  // Rows: R1 (L, <= 10) gets a slack, R2 (E) none.
  absl::StatusOr<QpProblem> p = ParseMps(
      "NAME\nOBJSENSE MAX\nROWS\n N OBJ\n L R1\n E R2\nCOLUMNS\n"
      "    A OBJ 1 R1 1\n    B OBJ 2 R2 1\n    C R1 1 R2 1\n    D OBJ 5 R1 2\n"
      "RHS\n    RHS R1 10 R2 6\nBOUNDS\n LO BD A 1\n UP BD A 4\n MI BD B\n"
      " UP BD B 2\n FR BD C\n FX BD D 3\nENDATA\n");
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<StandardForm> f = BuildStandardForm(*p, 0);
  ASSERT_TRUE(f.ok());
  ASSERT_EQ(f->num_vars, 4);  // A, B, C and the slack of R1
  EXPECT_EQ(f->kind, (std::vector<VarKind>{VarKind::kBoxed, VarKind::kLower,
                                           VarKind::kFree, VarKind::kLower}));
  EXPECT_EQ(f->u[0], 3.0);
  EXPECT_EQ(f->u[1], kInf);
  EXPECT_EQ(f->var_of_col, (std::vector<int>{0, 1, 2, -1}));
  // Maximization: c negated; B = 2 - B^ flips its sign again.
  EXPECT_EQ(f->c, (std::vector<double>{-1, 2, 0, 0}));
  // R1: A + C + 2 D - t = 0 with A = 1 + A^, D = 3, t = 10 - t^:
  // A^ + C + t^ = 10 - 1 - 6 = 3.  R2: B + C = 6 with B = 2 - B^: -B^ + C = 4.
  EXPECT_EQ(f->b, (std::vector<double>{3, 4}));
  // Constant: -(1*1 + 2*2 + 5*3) in the minimization sense.
  EXPECT_DOUBLE_EQ(f->constant, -20);
  std::vector<double> x = f->Recover({0.5, 1.0, 2.0, 0.5});
  EXPECT_EQ(x, (std::vector<double>{1.5, 1.0, 2.0, 3.0}));
}

TEST(StandardFormTest, ScalingEquilibratesAndRecoverUndoesIt) {
  absl::StatusOr<QpProblem> p = ParseMps(
      "NAME\nROWS\n N OBJ\n E R1\n E R2\nCOLUMNS\n    X OBJ 1 R1 1000\n"
      "    X R2 1\n    Y R1 1 R2 0.001\nRHS\n    RHS R1 1 R2 1\nENDATA\n");
  ASSERT_TRUE(p.ok());
  absl::StatusOr<StandardForm> f = BuildStandardForm(*p);
  ASSERT_TRUE(f.ok());
  for (int j = 0; j < f->num_vars; ++j) {
    double col_max = 0;
    for (int64_t k = f->a.col_start[j]; k < f->a.col_start[j + 1]; ++k) {
      col_max = std::max(col_max, std::abs(f->a.value[k]));
    }
    EXPECT_NEAR(col_max, 1.0, 1e-2) << j;
  }
  // x~ = x^ / col_scale: Recover multiplies back.
  std::vector<double> x =
      f->Recover({1.0 / f->col_scale[0], 2.0 / f->col_scale[1]});
  EXPECT_DOUBLE_EQ(x[0], 1.0);
  EXPECT_DOUBLE_EQ(x[1], 2.0);
}

TEST(StandardFormTest, CrossedBoundsAreInvalid) {
  absl::StatusOr<QpProblem> p = ParseMps(
      "NAME\nROWS\n N OBJ\n E R\nCOLUMNS\n    X R 1\nRHS\n    RHS R 1\n"
      "RANGES\nBOUNDS\n LO B X 3\n UP B X 2\nENDATA\n");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(BuildStandardForm(*p).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace factord::ipm
