// Matrix Market files: write/read round trips (plain and gzip), dense
// vectors (.rhs one value per line, Matrix Market arrays), file errors.
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/matrix/matrix_market.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/factord_mm_" + name;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string Message(const absl::Status& status) {
  return std::string(status.message());
}

void ExpectSameMatrix(const CsrMatrix& a, const CsrMatrix& b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  EXPECT_EQ(a.structure, b.structure);
  EXPECT_EQ(a.row_ptr, b.row_ptr);
  EXPECT_EQ(a.col_idx, b.col_idx);
  EXPECT_EQ(a.values, b.values);  // bit-exact: shortest round-trip form
}

TEST(MatrixMarketIo, RoundTripPlainAndGzip) {
  CsrMatrix a;
  a.rows = 3;
  a.cols = 4;
  a.row_ptr = {0, 2, 2, 4};
  a.col_idx = {0, 3, 1, 2};
  a.values = {0.1, -1e-300, 0.0, 1.0 / 3.0};
  for (const std::string name : {"general.mtx", "general.mtx.gz"}) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(WriteMatrixMarket(a, TempPath(name)).ok());
    absl::StatusOr<CsrMatrix> b = ReadMatrixMarket(TempPath(name));
    ASSERT_TRUE(b.ok()) << b.status();
    ExpectSameMatrix(a, *b);
  }
  // The .gz one really is gzip.
  std::ifstream in(TempPath("general.mtx.gz"), std::ios::binary);
  const int magic0 = in.get(), magic1 = in.get();
  EXPECT_EQ(magic0, 0x1f);
  EXPECT_EQ(magic1, 0x8b);
}

TEST(MatrixMarketIo, RoundTripSymmetricRealMatrix) {
  absl::StatusOr<CsrMatrix> a =
      ReadMatrixMarket(testing::TestDataPath("bcsstk13.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->structure, Structure::kSymmetricLower);
  ASSERT_TRUE(WriteMatrixMarket(*a, TempPath("bcsstk13.mtx.gz")).ok());
  absl::StatusOr<CsrMatrix> b = ReadMatrixMarket(TempPath("bcsstk13.mtx.gz"));
  ASSERT_TRUE(b.ok()) << b.status();
  ExpectSameMatrix(*a, *b);
}

TEST(MatrixMarketIo, WriteRefusesInvalidMatrix) {
  CsrMatrix a;
  a.rows = 2;
  a.cols = 2;
  a.row_ptr = {0, 1, 2};
  a.col_idx = {0, 5};
  a.values = {1, 2};
  absl::Status status = WriteMatrixMarket(a, TempPath("bad.mtx"));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(status), HasSubstr("row 1, entry 0: column 5"));
}

TEST(MatrixMarketIo, MissingFileIsNotFound) {
  absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(TempPath("missing.mtx"));
  EXPECT_EQ(a.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(a.status()), HasSubstr("missing.mtx"));
  EXPECT_EQ(ReadDenseVector(TempPath("missing.rhs")).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(MatrixMarketIo, TruncatedGzipIsInvalidArgument) {
  CsrMatrix a;
  a.rows = 200;
  a.cols = 200;
  a.row_ptr.assign(201, 0);
  for (int i = 0; i < 200; ++i) {
    a.col_idx.push_back(i);
    a.values.push_back(i * 0.123456789);
    a.row_ptr[i + 1] = i + 1;
  }
  ASSERT_TRUE(WriteMatrixMarket(a, TempPath("cut.mtx.gz")).ok());
  std::ifstream in(TempPath("cut.mtx.gz"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  WriteText(TempPath("cut2.mtx.gz"), bytes.substr(0, bytes.size() / 2));
  absl::StatusOr<CsrMatrix> b = ReadMatrixMarket(TempPath("cut2.mtx.gz"));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MatrixMarketIo, GzipOutputLimit) {
  absl::StatusOr<std::string> text =
      ReadFileMaybeGzip(testing::TestDataPath("west0479.mtx"), 1000);
  EXPECT_EQ(text.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(MatrixMarketIo, DenseVectorOneValuePerLine) {
  absl::StatusOr<std::vector<double>> x =
      ParseDenseVector("1.5\n-2e-3\n\n% comment\n# comment\n  +4\r\n");
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_THAT(*x, ElementsAre(1.5, -2e-3, 4.0));
  EXPECT_EQ(Message(ParseDenseVector("1\n2 3\n").status()),
            "line 2: expected one value, found 2");
  EXPECT_EQ(Message(ParseDenseVector("1\nabc\n").status()),
            "line 2: value 'abc' is not a number");
  EXPECT_EQ(Message(ParseDenseVector("1\n2\nNaN\n").status()),
            "line 3: value 'NaN' is not finite");
  EXPECT_EQ(Message(ParseDenseVector("\n\n").status()), "line 3: no values");
}

TEST(MatrixMarketIo, DenseVectorFromMatrixMarket) {
  absl::StatusOr<std::vector<double>> x = ParseDenseVector(
      "%%MatrixMarket matrix array real general\n3\n1\n2\n3\n");
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_THAT(*x, ElementsAre(1, 2, 3));
  x = ParseDenseVector("%%MatrixMarket matrix array real general\n1 2\n1\n2\n");
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_THAT(*x, ElementsAre(1, 2));
  x = ParseDenseVector(
      "%%MatrixMarket matrix coordinate real general\n4 1 2\n4 1 7\n2 1 5\n");
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_THAT(*x, ElementsAre(0, 5, 0, 7));
  EXPECT_THAT(
      Message(ParseDenseVector(
                  "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n")
                  .status()),
      StartsWith("line 2: a vector must be n x 1 or 1 x n, got 2 x 2"));
  EXPECT_THAT(Message(ParseDenseVector(
                          "%%MatrixMarket matrix array real general\n3\n1\n2\n")
                          .status()),
              StartsWith("line 5: expected 3 entries, found 2"));
}

TEST(MatrixMarketIo, ReadsRealRightHandSides) {
  absl::StatusOr<std::vector<double>> b =
      ReadDenseVector(testing::TestDataPath("resolve/b_asymmetric01.mtx"));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->size(), 1024u);
  EXPECT_DOUBLE_EQ((*b)[0], 9.780144014608522);
  absl::StatusOr<CsrMatrix> k =
      ReadMatrixMarket(testing::TestDataPath("kkt/hs21/2x2/iter_5/K_5.mtx"));
  absl::StatusOr<std::vector<double>> rhs =
      ReadDenseVector(testing::TestDataPath("kkt/hs21/2x2/iter_5/rhs_5.rhs"));
  ASSERT_TRUE(k.ok()) << k.status();
  ASSERT_TRUE(rhs.ok()) << rhs.status();
  EXPECT_EQ(static_cast<int64_t>(rhs->size()), k->rows);
}

// Every KKT system of ../shared/data/kkt with its right-hand side.
TEST(MatrixMarketIo, ReadsEveryKktSystemWithItsRhs) {
  if (!testing::HaveSharedData()) {
    GTEST_SKIP() << testing::SharedDataAbsent(
        "reading every KKT system of kkt/ with its right-hand side");
  }
  int systems = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           testing::SharedDataPath("kkt"))) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".mtx" || name.rfind("K_", 0) != 0) {
      continue;
    }
    SCOPED_TRACE(entry.path().string());
    absl::StatusOr<CsrMatrix> k = ReadMatrixMarket(entry.path().string());
    ASSERT_TRUE(k.ok()) << k.status();
    EXPECT_EQ(k->structure, Structure::kSymmetricLower);
    const std::string rhs =
        (entry.path().parent_path() /
         ("rhs_" + name.substr(2, name.size() - 6) + ".rhs"))
            .string();
    absl::StatusOr<std::vector<double>> b = ReadDenseVector(rhs);
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ(static_cast<int64_t>(b->size()), k->rows);
    ++systems;
  }
  // One per iteration folder, counted from the directories: a file renamed
  // or missing fails here instead of dropping out of the loop.
  EXPECT_GT(systems, 0);
  EXPECT_EQ(systems, testing::KktIterationFolders());
}

}  // namespace
}  // namespace factord
