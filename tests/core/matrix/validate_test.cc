// ValidateCsr: each rule broken once on a tiny matrix, the message checked
// for the offending entry; real matrices pass.
#include "core/matrix/validate.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/matrix/matrix_market.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

using ::testing::HasSubstr;

// [[4, 0, 1], [0, 5, 0], [2, 0, 6]], or its lower triangle.
CsrMatrix Small(Structure structure = Structure::kGeneral) {
  CsrMatrix a;
  a.rows = 3;
  a.cols = 3;
  a.structure = structure;
  if (structure == Structure::kGeneral) {
    a.row_ptr = {0, 2, 3, 5};
    a.col_idx = {0, 2, 1, 0, 2};
    a.values = {4, 1, 5, 2, 6};
  } else {
    a.row_ptr = {0, 1, 2, 4};
    a.col_idx = {0, 1, 0, 2};
    a.values = {4, 5, 1, 6};
  }
  return a;
}

std::string ErrorOf(const CsrMatrix& a) {
  absl::Status status = ValidateCsr(a);
  if (status.ok()) return "";
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  return std::string(status.message());
}

TEST(ValidateCsr, AcceptsValidMatrices) {
  EXPECT_EQ(ErrorOf(Small()), "");
  EXPECT_EQ(ErrorOf(Small(Structure::kSymmetricLower)), "");
  EXPECT_EQ(ErrorOf(Small(Structure::kSpdLower)), "");
  CsrMatrix empty;
  empty.row_ptr = {0};
  EXPECT_EQ(ErrorOf(empty), "");
  CsrMatrix zeros = Small();
  zeros.values.assign(5, 0.0);  // explicit zeros are entries
  EXPECT_EQ(ErrorOf(zeros), "");
}

TEST(ValidateCsr, ColumnOutOfRange) {
  CsrMatrix a = Small();
  a.col_idx[4] = 1204;
  EXPECT_EQ(ErrorOf(a), "row 2, entry 1: column 1204 out of range [0, 3)");
  a.col_idx[4] = -1;
  EXPECT_EQ(ErrorOf(a), "row 2, entry 1: column -1 out of range [0, 3)");
}

TEST(ValidateCsr, UnsortedAndDuplicateColumns) {
  CsrMatrix a = Small();
  a.col_idx[1] = 0;
  EXPECT_EQ(ErrorOf(a), "row 0, entry 1: duplicate column 0");
  a = Small();
  std::swap(a.col_idx[3], a.col_idx[4]);
  EXPECT_EQ(ErrorOf(a),
            "row 2, entry 1: column 0 after column 2: columns must be sorted "
            "within a row");
}

TEST(ValidateCsr, NonFiniteValues) {
  CsrMatrix a = Small();
  a.values[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(ErrorOf(a), "row 1, entry 0: value nan is not finite");
  a.values[2] = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(ErrorOf(a), "row 1, entry 0: value -inf is not finite");
}

TEST(ValidateCsr, SymmetricConvention) {
  CsrMatrix a = Small(Structure::kSymmetricLower);
  a.row_ptr = {0, 2, 3, 4};
  a.col_idx = {0, 2, 1, 2};  // (0, 2) is above the diagonal
  EXPECT_THAT(ErrorOf(a),
              HasSubstr("row 0, entry 1: column 2 is above the diagonal"));
  CsrMatrix rect = Small(Structure::kSymmetricLower);
  rect.cols = 4;
  EXPECT_EQ(ErrorOf(rect), "a symmetric matrix must be square, got 3 x 4");
}

TEST(ValidateCsr, RowPointerProblems) {
  CsrMatrix a = Small();
  a.row_ptr.pop_back();
  EXPECT_EQ(ErrorOf(a), "row_ptr has 3 entries, expected rows + 1 = 4");
  a = Small();
  a.row_ptr[0] = 1;
  EXPECT_EQ(ErrorOf(a), "row_ptr[0] is 1, expected 0");
  a = Small();
  a.row_ptr[2] = 1;
  EXPECT_EQ(ErrorOf(a), "row 1: row_ptr decreases from 2 to 1");
  a = Small();
  a.row_ptr[3] = 4;
  EXPECT_EQ(ErrorOf(a), "row_ptr[rows] is 4 but col_idx has 5 entries");
  a = Small();
  a.values.pop_back();
  EXPECT_EQ(ErrorOf(a), "values has 4 entries but col_idx has 5");
  a = Small();
  a.rows = -1;
  EXPECT_THAT(ErrorOf(a), HasSubstr("negative dimensions"));
}

TEST(ValidateCsr, RealMatricesPass) {
  for (const char* name : {"west0479.mtx", "bcsstk13.mtx", "zenios.mtx"}) {
    absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(testing::TestDataPath(name));
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_TRUE(ValidateCsr(*a).ok()) << name;
  }
}

}  // namespace
}  // namespace factord
