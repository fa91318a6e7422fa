// Scalar Jacobi: z = D^{-1} r, zero and missing diagonal entries counted
// and left undivided, shifts added, symmetric-lower input read correctly.
#include "core/jacobi/jacobi.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace factord {
namespace {

TEST(JacobiPreconditioner, DividesByTheDiagonalAndSkipsZeros) {
  CsrMatrix a;  // diag (2, 0 explicit, missing, -4)
  a.rows = a.cols = 4;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr = {0, 1, 3, 4, 6};
  a.col_idx = {0, 0, 1, 0, 2, 3};
  a.values = {2, 1, 0, 5, 1, -4};
  JacobiPreconditioner m(a);
  EXPECT_EQ(m.zero_diagonals(), 2);
  EXPECT_EQ(m.first_zero_diagonal(), 1);
  const std::vector<double> r = {2, 3, 4, 8};
  std::vector<double> z(4);
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    ExecContext ctx;
    ctx.backend = backend;
    m.Apply(ctx, r, z);
    EXPECT_EQ(z, (std::vector<double>{1, 3, 4, -2}));
  }
}

TEST(JacobiPreconditioner, ShiftIsAddedToTheDiagonal) {
  CsrMatrix a;
  a.rows = a.cols = 2;
  a.row_ptr = {0, 1, 2};
  a.col_idx = {0, 1};
  a.values = {1, 0};
  const std::vector<double> shift = {1, 4};
  JacobiPreconditioner m(a, shift);
  EXPECT_EQ(m.zero_diagonals(), 0);
  std::vector<double> z(2);
  m.Apply(ExecContext{}, std::vector<double>{2, 2}, z);
  EXPECT_EQ(z, (std::vector<double>{1, 0.5}));
}

}  // namespace
}  // namespace factord
