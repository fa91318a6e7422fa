// AssembleFromCoo and CsrBuilder: tiny inputs with known results, every
// error with its entry named, chunk boundaries inside rows, and agreement
// with the Matrix Market reader on a real matrix.
#include "core/matrix/assemble.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "core/matrix/validate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Message(const absl::Status& status) {
  return std::string(status.message());
}

TEST(AssembleFromCoo, SortsAnyOrder) {
  const std::vector<int32_t> rows = {2, 0, 2, 1, 0};
  const std::vector<int32_t> cols = {2, 2, 0, 1, 0};
  const std::vector<double> values = {6, 1, 2, 0, 4};  // explicit zero kept
  absl::StatusOr<CsrMatrix> a =
      AssembleFromCoo(3, 3, Structure::kGeneral, rows, cols, values);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_THAT(a->row_ptr, ElementsAre(0, 2, 3, 5));
  EXPECT_THAT(a->col_idx, ElementsAre(0, 2, 1, 0, 2));
  EXPECT_THAT(a->values, ElementsAre(4, 1, 0, 2, 6));
  EXPECT_TRUE(ValidateCsr(*a).ok());
}

TEST(AssembleFromCoo, Errors) {
  const std::vector<int32_t> rows = {0, 2, 1, 2};
  const std::vector<int32_t> cols = {0, 1, 1, 1};
  const std::vector<double> values = {1, 2, 3, 4};
  EXPECT_EQ(
      Message(AssembleFromCoo(3, 3, Structure::kGeneral, rows, cols, values)
                  .status()),
      "entry 3: duplicate of entry 1 at (2, 1)");
  const std::vector<int32_t> bad_rows = {0, 3};
  const std::vector<int32_t> two_cols = {0, 0};
  const std::vector<double> two_values = {1, 1};
  EXPECT_EQ(Message(AssembleFromCoo(3, 3, Structure::kGeneral, bad_rows,
                                    two_cols, two_values)
                        .status()),
            "entry 1: row 3 out of range [0, 3)");
  const std::vector<int32_t> bad_cols = {0, -1};
  EXPECT_EQ(Message(AssembleFromCoo(3, 3, Structure::kGeneral, two_cols,
                                    bad_cols, two_values)
                        .status()),
            "entry 1: column -1 out of range [0, 3)");
  const std::vector<double> nan_values = {
      1, std::numeric_limits<double>::quiet_NaN()};
  EXPECT_EQ(Message(AssembleFromCoo(3, 3, Structure::kGeneral, two_cols,
                                    two_cols, nan_values)
                        .status()),
            "entry 1: value nan is not finite");
  const std::vector<int32_t> upper_rows = {1, 0};
  const std::vector<int32_t> upper_cols = {0, 2};
  EXPECT_THAT(Message(AssembleFromCoo(3, 3, Structure::kSymmetricLower,
                                      upper_rows, upper_cols, two_values)
                          .status()),
              HasSubstr("entry 1: (0, 2) is above the diagonal: symmetric "
                        "matrices are sent as their lower triangle"));
  EXPECT_THAT(
      Message(AssembleFromCoo(3, 3, Structure::kGeneral, rows, cols, two_values)
                  .status()),
      HasSubstr("differ in size"));
  AssemblyLimits limits;
  limits.max_nnz = 3;
  EXPECT_EQ(
      AssembleFromCoo(3, 3, Structure::kGeneral, rows, cols, values, limits)
          .status()
          .code(),
      absl::StatusCode::kResourceExhausted);
}

TEST(CsrBuilder, RowsSplitAcrossChunks) {
  absl::StatusOr<CsrBuilder> builder =
      CsrBuilder::Create(4, 4, Structure::kSymmetricLower, 6);
  ASSERT_TRUE(builder.ok()) << builder.status();
  // Rows: [0], [], [0 2], [0 1 3]; chunk boundaries fall inside rows 2, 3.
  const std::vector<int64_t> counts1 = {1, 0, 2};
  const std::vector<int32_t> cols1 = {0, 0};
  const std::vector<double> values1 = {1, 2};
  ASSERT_TRUE(builder->Append(counts1, cols1, values1).ok());
  const std::vector<int64_t> counts2 = {3};
  const std::vector<int32_t> cols2 = {2, 0};
  const std::vector<double> values2 = {3, 4};
  ASSERT_TRUE(builder->Append(counts2, cols2, values2).ok());
  const std::vector<int32_t> cols3 = {1, 3};
  const std::vector<double> values3 = {5, 0};
  ASSERT_TRUE(builder->Append({}, cols3, values3).ok());
  absl::StatusOr<CsrMatrix> a = builder->Finish();
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_THAT(a->row_ptr, ElementsAre(0, 1, 1, 3, 6));
  EXPECT_THAT(a->col_idx, ElementsAre(0, 0, 2, 0, 1, 3));
  EXPECT_THAT(a->values, ElementsAre(1, 2, 3, 4, 5, 0));
  EXPECT_TRUE(ValidateCsr(*a).ok());
}

TEST(CsrBuilder, EntryErrorsNameRowAndEntry) {
  auto append = [](std::vector<int64_t> counts, std::vector<int32_t> cols,
                   Structure structure = Structure::kGeneral) {
    absl::StatusOr<CsrBuilder> builder = CsrBuilder::Create(3, 3, structure, 4);
    EXPECT_TRUE(builder.ok());
    std::vector<double> values(cols.size(), 1.0);
    return Message(builder->Append(counts, cols, values));
  };
  EXPECT_EQ(append({1, 2}, {0, 1, 3}),
            "row 1, entry 1: column 3 out of range [0, 3)");
  EXPECT_EQ(append({3}, {0, 2, 1}),
            "row 0, entry 2: column 1 after column 2: columns must be sorted "
            "within a row");
  EXPECT_EQ(append({2}, {1, 1}), "row 0, entry 1: duplicate column 1");
  EXPECT_THAT(append({1, 1}, {0, 1}, Structure::kSymmetricLower), "");
  EXPECT_THAT(append({2}, {0, 1}, Structure::kSymmetricLower),
              HasSubstr("row 0, entry 1: column 1 is above the diagonal"));
  EXPECT_THAT(append({1}, {0, 1}),
              HasSubstr("entry 1 arrives before the count"));
  EXPECT_THAT(append({1, 1, 1, 1}, {}),
              HasSubstr("row 3: more rows than the 3"));
  EXPECT_THAT(append({3, 2}, {}), HasSubstr("row 1: 2 entries exceed the 4"));
  EXPECT_THAT(append({-1}, {}), HasSubstr("row 0: -1 entries is negative"));
}

TEST(CsrBuilder, ErrorsAreStickyAndFinishChecksCounts) {
  absl::StatusOr<CsrBuilder> builder =
      CsrBuilder::Create(2, 2, Structure::kGeneral, 2);
  ASSERT_TRUE(builder.ok());
  const std::vector<int64_t> counts = {1};
  const std::vector<int32_t> cols = {0};
  const std::vector<double> nan = {std::nan("")};
  EXPECT_EQ(Message(builder->Append(counts, cols, nan)),
            "row 0, entry 0: value nan is not finite");
  const std::vector<double> one = {1.0};
  EXPECT_FALSE(builder->Append({}, cols, one).ok());
  EXPECT_FALSE(builder->Finish().ok());

  builder = CsrBuilder::Create(2, 2, Structure::kGeneral, 2);
  ASSERT_TRUE(builder->Append(counts, cols, one).ok());
  EXPECT_THAT(Message(builder->Finish().status()),
              HasSubstr("received the counts of 1 rows of 2"));
  const std::vector<double> two = {1.0, 2.0};
  EXPECT_THAT(Message(builder->Append({}, cols, two)),
              HasSubstr("1 column indices but 2 values"));
}

TEST(CsrBuilder, CreateChecksLimitsBeforeReserving) {
  AssemblyLimits limits;
  limits.max_nnz = 1000;
  limits.max_dimension = 100;
  EXPECT_EQ(CsrBuilder::Create(10, 10, Structure::kGeneral, 1001, limits)
                .status()
                .code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(CsrBuilder::Create(101, 101, Structure::kGeneral, 1, limits)
                .status()
                .code(),
            absl::StatusCode::kResourceExhausted);
  // A huge declared nnz never reaches the allocator.
  EXPECT_EQ(CsrBuilder::Create(10, 10, Structure::kGeneral, int64_t{1} << 30)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);  // more than 10 x 10 holds
  EXPECT_THAT(
      Message(CsrBuilder::Create(3, 3, Structure::kSymmetricLower, 7).status()),
      HasSubstr("7 entries declared, more than the 6"));
  EXPECT_THAT(
      Message(CsrBuilder::Create(3, 4, Structure::kSpdLower, 1).status()),
      HasSubstr("must be square"));
}

// The same real matrix through the three paths: file, COO shuffled, CSR in
// random chunks.
TEST(Assemble, AgreesWithMatrixMarketOnARealMatrix) {
  absl::StatusOr<CsrMatrix> reference =
      ReadMatrixMarket(testing::TestDataPath("bcsstk13.mtx"));
  ASSERT_TRUE(reference.ok()) << reference.status();
  const CsrMatrix& a = *reference;
  std::vector<int32_t> rows, cols;
  std::vector<double> values;
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      rows.push_back(static_cast<int32_t>(i));
      cols.push_back(a.col_idx[k]);
      values.push_back(a.values[k]);
    }
  }
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 random(7);
  std::shuffle(order.begin(), order.end(), random);
  std::vector<int32_t> r2, c2;
  std::vector<double> v2;
  for (size_t k : order) {
    r2.push_back(rows[k]);
    c2.push_back(cols[k]);
    v2.push_back(values[k]);
  }
  absl::StatusOr<CsrMatrix> coo =
      AssembleFromCoo(a.rows, a.cols, a.structure, r2, c2, v2);
  ASSERT_TRUE(coo.ok()) << coo.status();
  EXPECT_EQ(coo->row_ptr, a.row_ptr);
  EXPECT_EQ(coo->col_idx, a.col_idx);
  EXPECT_EQ(coo->values, a.values);

  absl::StatusOr<CsrBuilder> builder =
      CsrBuilder::Create(a.rows, a.cols, a.structure, a.nnz());
  ASSERT_TRUE(builder.ok());
  int64_t next_row = 0, next_entry = 0;
  while (next_row < a.rows || next_entry < a.nnz()) {
    // A few rows' counts, and entries up to a random point not past them.
    const int64_t row_end = std::min<int64_t>(a.rows, next_row + random() % 50);
    std::vector<int64_t> counts;
    for (int64_t i = next_row; i < row_end; ++i) {
      counts.push_back(a.row_ptr[i + 1] - a.row_ptr[i]);
    }
    const int64_t available = a.row_ptr[row_end] - next_entry;
    const int64_t take = row_end == a.rows
                             ? available
                             : std::min<int64_t>(available, random() % 700);
    ASSERT_TRUE(
        builder
            ->Append(
                counts,
                std::span<const int32_t>(a.col_idx.data() + next_entry, take),
                std::span<const double>(a.values.data() + next_entry, take))
            .ok());
    next_row = row_end;
    next_entry += take;
  }
  absl::StatusOr<CsrMatrix> streamed = builder->Finish();
  ASSERT_TRUE(streamed.ok()) << streamed.status();
  EXPECT_EQ(streamed->row_ptr, a.row_ptr);
  EXPECT_EQ(streamed->col_idx, a.col_idx);
  EXPECT_EQ(streamed->values, a.values);
}

}  // namespace
}  // namespace factord
