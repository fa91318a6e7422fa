// The residual norms on the matrix as uploaded plus a diagonal shift
// (core/solver/residual.h) against the same matrix with the shift stored in
// its values, a missing diagonal entry included; an empty shift is the
// unshifted matrix bit for bit.
#include "core/solver/residual.h"

#include <vector>

#include "gtest/gtest.h"

namespace factord {
namespace {

// [1 2 0; 2 . 3; 0 3 -4] stored lower, the (1, 1) entry missing.
CsrMatrix WithoutMiddleDiagonal() {
  CsrMatrix a;
  a.rows = a.cols = 3;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr = {0, 1, 2, 4};
  a.col_idx = {0, 0, 1, 2};
  a.values = {1, 2, 3, -4};
  return a;
}

// The same plus diag(shift), every diagonal entry stored.
CsrMatrix ShiftedInValues(const std::vector<double>& shift) {
  CsrMatrix a;
  a.rows = a.cols = 3;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr = {0, 1, 3, 5};
  a.col_idx = {0, 0, 1, 1, 2};
  a.values = {1 + shift[0], 2, shift[1], 3, -4 + shift[2]};
  return a;
}

TEST(Residual, ShiftedMatrixIsTheMatrixWithTheShiftInItsValues) {
  const CsrMatrix a = WithoutMiddleDiagonal();
  const std::vector<double> shift = {0.5, -7, 10};
  const CsrMatrix stored = ShiftedInValues(shift);
  const std::vector<double> x = {1, -2, 0.25};
  std::vector<double> y(3), want(3);
  MultiplyShifted(a, shift, x, y);
  MultiplyUploaded(stored, x, want);
  EXPECT_EQ(y, want);
  // Row sums |1.5| + 2, 2 + |-7| + 3, 3 + |6|: the middle one.
  EXPECT_EQ(InfinityNorm(a, shift), 12.0);
  EXPECT_EQ(InfinityNorm(stored), 12.0);
  // A shift that cancels a diagonal entry counts as 0 there.
  EXPECT_EQ(InfinityNorm(a, std::vector<double>{-1, 0, 4}), 5.0);
  const std::vector<double> b = {3, -1, 2};
  const ResidualNorms got = ComputeResidualNorms(a, shift, b, x);
  const ResidualNorms expected = ComputeResidualNorms(stored, b, x);
  EXPECT_EQ(got.relative_residual, expected.relative_residual);
  EXPECT_EQ(got.backward_error, expected.backward_error);
}

TEST(Residual, EmptyShiftIsTheUnshiftedMatrix) {
  const CsrMatrix a = WithoutMiddleDiagonal();
  const std::vector<double> x = {0.1, 0.7, -0.3};
  const std::vector<double> b = {1, 2, 3};
  std::vector<double> y(3), want(3);
  MultiplyShifted(a, {}, x, y);
  MultiplyUploaded(a, x, want);
  EXPECT_EQ(y, want);
  EXPECT_EQ(InfinityNorm(a, {}), InfinityNorm(a));
  const ResidualNorms shifted = ComputeResidualNorms(a, {}, b, x);
  const ResidualNorms plain = ComputeResidualNorms(a, b, x);
  EXPECT_EQ(shifted.relative_residual, plain.relative_residual);
  EXPECT_EQ(shifted.backward_error, plain.backward_error);
}

}  // namespace
}  // namespace factord
