// Symbolic level-of-fill and the IKJ values of ic/ilu (S4 eq. 1) on tiny
// hand-built matrices with factors worked out by hand; column-norm scaling.
#include "core/incomplete/incomplete_numeric.h"

#include <cmath>
#include <vector>

#include "core/incomplete/incomplete_symbolic.h"
#include "gtest/gtest.h"

namespace factord::internal {
namespace {

// The 4-cycle 0-1-2-3-0: tridiag(1, 4, 1) plus the corner entries (0, 3)
// and (3, 0), full pattern, natural order. Eliminating row 0 would fill
// (3, 1) and (1, 3) at level 1.
CsrMatrix Cycle4() {
  CsrMatrix a;
  a.rows = a.cols = 4;
  a.structure = Structure::kGeneral;
  a.row_ptr = {0, 3, 6, 9, 12};
  a.col_idx = {0, 1, 3, 0, 1, 2, 1, 2, 3, 0, 2, 3};
  a.values = {4, 1, 1, 1, 4, 1, 1, 4, 1, 1, 1, 4};
  return a;
}

// The factor's value at (i, j), NAN when (i, j) is not in the pattern.
double At(const IncompletePattern& p, const std::vector<double>& lu, int i,
          int j) {
  for (int64_t q = p.row_ptr[i]; q < p.row_ptr[i + 1]; ++q) {
    if (p.col_idx[q] == j) return lu[q];
  }
  return NAN;
}

TEST(IncompleteNumericTest, Ic0OfTheFourCycleIsTheHandComputedFactor) {
  const CsrMatrix a = Cycle4();
  absl::StatusOr<IncompletePattern> p = SymbolicIlu(a, 0, ExecContext{});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->col_idx.size(), 12u);  // IC(0): the pattern of A
  absl::StatusOr<IncompleteValues> v =
      FactorIncompleteValues(*p, a, /*ic=*/true, ExecContext{});
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->alpha, 0);
  EXPECT_EQ(v->breakdowns, 0);
  // By hand (A = L D L^T on the pattern, fill (3,1) dropped):
  // d0 = 4; l10 = 1/4, d1 = 4 - 1/4 = 15/4; l21 = 4/15, d2 = 4 - 4/15 =
  // 56/15; l30 = 1/4, l32 = 15/56, d3 = 4 - 1/4 - 15/56 = 195/56. U = D L^T.
  const std::vector<double>& lu = v->lu;
  const double tol = 1e-15;
  EXPECT_NEAR(At(*p, lu, 0, 0), 4.0, tol);
  EXPECT_NEAR(At(*p, lu, 1, 0), 1.0 / 4, tol);
  EXPECT_NEAR(At(*p, lu, 1, 1), 15.0 / 4, tol);
  EXPECT_NEAR(At(*p, lu, 2, 1), 4.0 / 15, tol);
  EXPECT_NEAR(At(*p, lu, 2, 2), 56.0 / 15, tol);
  EXPECT_NEAR(At(*p, lu, 3, 0), 1.0 / 4, tol);
  EXPECT_NEAR(At(*p, lu, 3, 2), 15.0 / 56, tol);
  EXPECT_NEAR(At(*p, lu, 3, 3), 195.0 / 56, tol);
  // U = D L^T: u_ij = d_i l_ji.
  EXPECT_NEAR(At(*p, lu, 0, 1), 4.0 * (1.0 / 4), tol);
  EXPECT_NEAR(At(*p, lu, 0, 3), 4.0 * (1.0 / 4), tol);
  EXPECT_NEAR(At(*p, lu, 2, 3), 56.0 / 15 * (15.0 / 56), tol);
  EXPECT_TRUE(std::isnan(At(*p, lu, 3, 1)));  // level-1 fill, dropped
}

TEST(IncompleteNumericTest, Ic1OfTheFourCycleKeepsTheFillAndIsExact) {
  const CsrMatrix a = Cycle4();
  absl::StatusOr<IncompletePattern> p = SymbolicIlu(a, 1, ExecContext{});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->col_idx.size(), 14u);  // + (1,3) and (3,1)
  absl::StatusOr<IncompleteValues> v =
      FactorIncompleteValues(*p, a, /*ic=*/true, ExecContext{});
  ASSERT_TRUE(v.ok()) << v.status();
  // l31 = (0 - l30 u01) / d1 = -(1/4) / (15/4) = -1/15.
  EXPECT_NEAR(At(*p, v->lu, 3, 1), -1.0 / 15, 1e-15);
  // Complete factorization: d3 = det(A) / det(A(0:3, 0:3)) = 192 / 56.
  EXPECT_NEAR(At(*p, v->lu, 3, 3), 192.0 / 56, 1e-14);
}

TEST(IncompleteNumericTest, BreakdownShiftsTheDiagonal) {
  // [1 2; 2 1] is indefinite: the IC pivot 1 - 4 < 0 breaks down until
  // alpha makes (1 + alpha)^2 > 4, i.e. alpha > 1 (1.024 after 11 doublings
  // of 1e-3).
  CsrMatrix a;
  a.rows = a.cols = 2;
  a.row_ptr = {0, 2, 4};
  a.col_idx = {0, 1, 0, 1};
  a.values = {1, 2, 2, 1};
  absl::StatusOr<IncompletePattern> p = SymbolicIlu(a, 0, ExecContext{});
  ASSERT_TRUE(p.ok());
  absl::StatusOr<IncompleteValues> v =
      FactorIncompleteValues(*p, a, /*ic=*/true, ExecContext{});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->breakdowns, 0);
  EXPECT_NEAR(v->alpha, 1.024, 1e-12);
  EXPECT_GT(At(*p, v->lu, 1, 1), 0);
  // ilu accepts the negative pivot without a shift.
  absl::StatusOr<IncompleteValues> w =
      FactorIncompleteValues(*p, a, /*ic=*/false, ExecContext{});
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->alpha, 0);
  EXPECT_NEAR(At(*p, w->lu, 1, 1), -3.0, 1e-15);
}

TEST(IncompleteNumericTest, WidelyScaledDiagonalDoesNotBreakDown) {
  // An IPM-like SPD diagonal spanning 16 orders of magnitude: IC is exact
  // and no pivot is a breakdown (the test is relative to each a_ii).
  CsrMatrix a;
  a.rows = a.cols = 3;
  a.row_ptr = {0, 1, 2, 3};
  a.col_idx = {0, 1, 2};
  a.values = {1e8, 1.0, 1e-8};
  absl::StatusOr<IncompletePattern> p = SymbolicIlu(a, 0, ExecContext{});
  ASSERT_TRUE(p.ok());
  absl::StatusOr<IncompleteValues> v =
      FactorIncompleteValues(*p, a, /*ic=*/true, ExecContext{});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->alpha, 0);
  EXPECT_EQ(v->breakdowns, 0);
  EXPECT_EQ(v->lu, a.values);
}

TEST(IncompleteNumericTest, ColumnNormScaling) {
  CsrMatrix a = Cycle4();
  a.values[0] = 16;  // column 0: (16, 1, 1) -> norm sqrt(258)
  const std::vector<double> s = ColumnNormScaling(a);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_NEAR(s[0], 1 / std::sqrt(std::sqrt(258.0)), 1e-15);
  EXPECT_NEAR(s[1], 1 / std::sqrt(std::sqrt(18.0)), 1e-15);
  CsrMatrix scaled = a;
  ScaleSymmetric(s, &scaled);
  EXPECT_NEAR(scaled.values[0], 16 * s[0] * s[0], 1e-15);
  EXPECT_NEAR(scaled.values[2], 1 * s[0] * s[3], 1e-15);  // entry (0, 3)
  CsrMatrix empty_column;
  empty_column.rows = empty_column.cols = 2;
  empty_column.row_ptr = {0, 1, 1};
  empty_column.col_idx = {0};
  empty_column.values = {4};
  EXPECT_EQ(ColumnNormScaling(empty_column)[1], 1.0);
}

TEST(IncompleteNumericTest, LevelSetsOfABidiagonalAreOneRowEach) {
  IncompletePattern p;  // L = bidiagonal, U = diagonal
  p.row_ptr = {0, 1, 3, 5};
  p.col_idx = {0, 0, 1, 1, 2};
  p.diag = {0, 2, 4};
  const LevelSets lower = ComputeLevelSets(p, kernels::Triangle::kLower);
  EXPECT_EQ(lower.level_ptr, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(lower.rows, (std::vector<int32_t>{0, 1, 2}));
  const LevelSets upper = ComputeLevelSets(p, kernels::Triangle::kUpper);
  EXPECT_EQ(upper.level_ptr, (std::vector<int64_t>{0, 3}));
}

}  // namespace
}  // namespace factord::internal
