// ExpandSymmetric: both triangles, sorted rows, explicit zeros kept, a
// general matrix returned unchanged, agreement with MultiplyUploaded.
#include <vector>

#include "core/matrix/csr.h"
#include "core/solver/residual.h"
#include "gtest/gtest.h"

namespace factord {
namespace {

// [4 . .; 1 5 .; 0 2 6] lower with an explicit zero at (2, 0).
CsrMatrix Lower() {
  CsrMatrix a;
  a.rows = a.cols = 3;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr = {0, 1, 3, 6};
  a.col_idx = {0, 0, 1, 0, 1, 2};
  a.values = {4, 1, 5, 0, 2, 6};
  return a;
}

TEST(ExpandSymmetric, BothTrianglesSortedWithExplicitZeros) {
  const CsrMatrix full = ExpandSymmetric(Lower());
  EXPECT_EQ(full.structure, Structure::kGeneral);
  EXPECT_EQ(full.row_ptr, (std::vector<int64_t>{0, 3, 6, 9}));
  EXPECT_EQ(full.col_idx, (std::vector<int32_t>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(full.values, (std::vector<double>{4, 1, 0, 1, 5, 2, 0, 2, 6}));
}

TEST(ExpandSymmetric, ProductMatchesTheUploadedMatrix) {
  const CsrMatrix lower = Lower();
  const CsrMatrix full = ExpandSymmetric(lower);
  const std::vector<double> x = {1, -2, 3};
  std::vector<double> y_lower(3), y_full(3);
  MultiplyUploaded(lower, x, y_lower);
  MultiplyUploaded(full, x, y_full);
  EXPECT_EQ(y_lower, y_full);
}

TEST(ExpandSymmetric, GeneralAndEmptyMatricesPassThrough) {
  CsrMatrix general = Lower();
  general.structure = Structure::kGeneral;
  const CsrMatrix same = ExpandSymmetric(general);
  EXPECT_EQ(same.col_idx, general.col_idx);
  EXPECT_EQ(same.values, general.values);
  CsrMatrix empty;
  empty.structure = Structure::kSpdLower;
  empty.row_ptr = {0};
  EXPECT_EQ(ExpandSymmetric(empty).nnz(), 0);
}

TEST(ExpandSymmetric, DiagonalOnlyStaysDiagonal) {
  CsrMatrix d;
  d.rows = d.cols = 2;
  d.structure = Structure::kSpdLower;
  d.row_ptr = {0, 1, 2};
  d.col_idx = {0, 1};
  d.values = {2, 3};
  const CsrMatrix full = ExpandSymmetric(d);
  EXPECT_EQ(full.nnz(), 2);
  EXPECT_EQ(full.values, (std::vector<double>{2, 3}));
}

}  // namespace
}  // namespace factord
