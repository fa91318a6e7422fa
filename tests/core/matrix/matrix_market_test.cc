// ParseMatrixMarket: tiny hand-written files for each format and each error
// (every message checked for its line and its problem), then every real
// matrix of tests/data and ../shared/data/matrices.
#include "core/matrix/matrix_market.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "core/matrix/validate.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Parses `text` and returns the error message ("" when it parsed).
std::string ErrorOf(const std::string& text) {
  absl::StatusOr<CsrMatrix> a = ParseMatrixMarket(text);
  if (a.ok()) return "";
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(a.status().message());
}

TEST(MatrixMarket, CoordinateRealGeneral) {
  MatrixMarketInfo info;
  absl::StatusOr<CsrMatrix> a = ParseMatrixMarket(
      "%%MatrixMarket matrix coordinate real general\n"
      "% a comment\n"
      "\n"
      "3 4 5\n"
      "3 4 -2.5e1\n"
      "1 1 1\n"
      "3 1 +7\n"
      "1 3 0\n"  // explicit zero: kept
      "2 2 .5\n",
      &info, MatrixMarketLimits());
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(ValidateCsr(*a).ok());
  EXPECT_EQ(a->rows, 3);
  EXPECT_EQ(a->cols, 4);
  EXPECT_EQ(a->structure, Structure::kGeneral);
  EXPECT_THAT(a->row_ptr, ElementsAre(0, 2, 3, 5));
  EXPECT_THAT(a->col_idx, ElementsAre(0, 2, 1, 0, 3));
  EXPECT_THAT(a->values, ElementsAre(1, 0, 0.5, 7, -25));
  EXPECT_EQ(info.entries, 5);
  EXPECT_FALSE(info.pattern_only());
}

TEST(MatrixMarket, SymmetricMirrorsUpperEntriesIntoLowerTriangle) {
  absl::StatusOr<CsrMatrix> a = ParseMatrixMarket(
      "%%MatrixMarket matrix coordinate real symmetric\r\n"
      "3 3 4\r\n"
      "1 1 4\r\n"
      "1 3 2\r\n"  // upper: becomes (3, 1)
      "2 1 -1\r\n"
      "3 3 5\r\n");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->structure, Structure::kSymmetricLower);
  EXPECT_THAT(a->row_ptr, ElementsAre(0, 1, 2, 4));
  EXPECT_THAT(a->col_idx, ElementsAre(0, 0, 0, 2));
  EXPECT_THAT(a->values, ElementsAre(4, -1, 2, 5));
  EXPECT_TRUE(ValidateCsr(*a).ok());
}

TEST(MatrixMarket, SkewSymmetricStoresBothTriangles) {
  absl::StatusOr<CsrMatrix> a = ParseMatrixMarket(
      "%%MatrixMarket matrix coordinate real skew-symmetric\n"
      "3 3 2\n"
      "2 1 3\n"
      "1 3 4\n");  // a_13 = 4, so a_31 = -4
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->structure, Structure::kGeneral);
  EXPECT_THAT(a->row_ptr, ElementsAre(0, 2, 3, 4));
  EXPECT_THAT(a->col_idx, ElementsAre(1, 2, 0, 0));
  EXPECT_THAT(a->values, ElementsAre(-3, 4, 3, -4));
}

TEST(MatrixMarket, PatternGetsOnes) {
  MatrixMarketInfo info;
  absl::StatusOr<CsrMatrix> a = ParseMatrixMarket(
      "%%MatrixMarket matrix coordinate pattern symmetric\n"
      "2 2 2\n"
      "1 1\n"
      "2 1\n",
      &info, MatrixMarketLimits());
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(info.pattern_only());
  EXPECT_THAT(a->values, ElementsAre(1.0, 1.0));
}

TEST(MatrixMarket, IntegerField) {
  absl::StatusOr<CsrMatrix> a = ParseMatrixMarket(
      "%%MatrixMarket matrix coordinate integer general\n"
      "1 2 2\n"
      "1 2 -3\n"
      "1 1 7\n");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_THAT(a->values, ElementsAre(7, -3));
  EXPECT_THAT(ErrorOf("%%MatrixMarket matrix coordinate integer general\n"
                      "1 1 1\n1 1 2.5\n"),
              StartsWith("line 3: value '2.5' is not an integer"));
}

TEST(MatrixMarket, ArrayGeneralIsColumnMajor) {
  absl::StatusOr<CsrMatrix> a = ParseMatrixMarket(
      "%%MatrixMarket matrix array real general\n"
      "2 3\n"
      "1\n2\n3 4\n"  // several values on one line are fine
      "0\n6\n");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_THAT(a->row_ptr, ElementsAre(0, 3, 6));
  EXPECT_THAT(a->col_idx, ElementsAre(0, 1, 2, 0, 1, 2));
  EXPECT_THAT(a->values, ElementsAre(1, 3, 0, 2, 4, 6));
}

TEST(MatrixMarket, ArraySymmetricAndSkew) {
  absl::StatusOr<CsrMatrix> s = ParseMatrixMarket(
      "%%MatrixMarket matrix array real symmetric\n"
      "2 2\n1\n2\n3\n");  // a11, a21, a22
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->structure, Structure::kSymmetricLower);
  EXPECT_THAT(s->col_idx, ElementsAre(0, 0, 1));
  EXPECT_THAT(s->values, ElementsAre(1, 2, 3));
  absl::StatusOr<CsrMatrix> k = ParseMatrixMarket(
      "%%MatrixMarket matrix array real skew-symmetric\n"
      "3 3\n1\n2\n3\n");  // a21, a31, a32
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_THAT(k->row_ptr, ElementsAre(0, 2, 4, 6));
  EXPECT_THAT(k->col_idx, ElementsAre(1, 2, 0, 2, 0, 1));
  EXPECT_THAT(k->values, ElementsAre(-1, -2, 1, -3, 2, 3));
}

TEST(MatrixMarket, EmptyMatrix) {
  absl::StatusOr<CsrMatrix> a = ParseMatrixMarket(
      "%%MatrixMarket matrix coordinate real general\n0 0 0\n");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->rows, 0);
  EXPECT_THAT(a->row_ptr, ElementsAre(0));
}

TEST(MatrixMarket, HeaderErrors) {
  EXPECT_THAT(ErrorOf(""), StartsWith("line 1: empty input"));
  EXPECT_THAT(ErrorOf("3 3 1\n1 1 1\n"),
              StartsWith("line 1: missing %%MatrixMarket header"));
  EXPECT_THAT(ErrorOf("%%MatrixMarket matrix coordinate real\n"),
              StartsWith("line 1: malformed header"));
  EXPECT_THAT(ErrorOf("%%MatrixMarket matrix coordinate complex general\n"),
              StartsWith("line 1: unsupported field 'complex'"));
  EXPECT_THAT(ErrorOf("%%MatrixMarket matrix coordinate real hermitian\n"),
              StartsWith("line 1: unsupported symmetry 'hermitian'"));
  EXPECT_THAT(ErrorOf("%%MatrixMarket matrix dense real general\n"),
              StartsWith("line 1: unsupported format 'dense'"));
  EXPECT_THAT(ErrorOf("%%MatrixMarket vector coordinate real general\n"),
              StartsWith("line 1: unsupported object 'vector'"));
  EXPECT_THAT(ErrorOf("%%MatrixMarket matrix array pattern general\n"),
              StartsWith("line 1: the pattern field needs the coordinate"));
}

TEST(MatrixMarket, SizeLineErrors) {
  const std::string header = "%%MatrixMarket matrix coordinate real general\n";
  EXPECT_THAT(ErrorOf(header), StartsWith("line 2: missing size line"));
  EXPECT_THAT(ErrorOf(header + "% c\n3 3\n"),
              StartsWith("line 3: malformed size line, expected 'rows cols "
                         "entries', found 2 numbers"));
  EXPECT_THAT(ErrorOf(header + "3 x 1\n"),
              StartsWith("line 2: malformed size line, expected 'rows cols "
                         "entries', found 'x'"));
  EXPECT_THAT(ErrorOf(header + "3 -3 1\n"),
              StartsWith("line 2: malformed size line"));
  EXPECT_THAT(ErrorOf(header + "2 2 5\n"),
              StartsWith("line 2: 5 entries declared, more than the 4"));
  EXPECT_THAT(
      ErrorOf("%%MatrixMarket matrix coordinate real symmetric\n"
              "2 3 1\n1 1 1\n"),
      StartsWith("line 2: a symmetric matrix must be square, got 2 x 3"));
  // A lying header: nothing of its size is allocated.
  EXPECT_THAT(ErrorOf(header + "2000000000 2000000000 1\n1 1 1\n"),
              StartsWith("line 2: 2000000000 rows is implausible"));
  EXPECT_THAT(ErrorOf(header + "1 2000000000 0\n"),
              StartsWith("line 2: 2000000000 cols is implausible"));
  EXPECT_THAT(ErrorOf(header + "99999999999 1 1\n"),
              StartsWith("line 2: rows 99999999999 exceeds the limit"));
  MatrixMarketLimits limits;
  limits.max_entries = 2;
  absl::StatusOr<CsrMatrix> a = ParseMatrixMarket(
      header + "3 3 3\n1 1 1\n2 2 1\n3 3 1\n", nullptr, limits);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(std::string(a.status().message()),
              StartsWith("line 2: 3 entries exceed the limit 2"));
}

TEST(MatrixMarket, EntryErrorsNameLineAndProblem) {
  const std::string head =
      "%%MatrixMarket matrix coordinate real general\n% comment\n5 5 2\n";
  EXPECT_EQ(ErrorOf(head + "1 1 1\n1 0 2\n"),
            "line 5: column index 0 out of range 1..5");
  EXPECT_EQ(ErrorOf(head + "6 1 1\n"), "line 4: row index 6 out of range 1..5");
  EXPECT_EQ(ErrorOf(head + "a 1 1\n"),
            "line 4: row index 'a' is not an integer");
  EXPECT_EQ(ErrorOf(head + "1 2.0 1\n"),
            "line 4: column index '2.0' is not an integer");
  EXPECT_EQ(ErrorOf(head + "1 1 x1\n"), "line 4: value 'x1' is not a number");
  EXPECT_EQ(ErrorOf(head + "1 1 1.5.5\n"),
            "line 4: value '1.5.5' is not a number");
  EXPECT_EQ(ErrorOf(head + "1 1 nan\n"), "line 4: value 'nan' is not finite");
  EXPECT_EQ(ErrorOf(head + "1 1 -Inf\n"), "line 4: value '-Inf' is not finite");
  EXPECT_EQ(ErrorOf(head + "1 1 1e999\n"),
            "line 4: value '1e999' is not finite");
  EXPECT_EQ(ErrorOf(head + "1 1\n"),
            "line 4: expected 3 fields (row column value), found 2");
  EXPECT_EQ(ErrorOf(head + "1 1 1 1\n"),
            "line 4: expected 3 fields (row column value), found 4");
  // Underflow is not an error: it reads as a tiny number or zero.
  EXPECT_EQ(ErrorOf(head + "1 1 1e-400\n2 2 4.9e-324\n"), "");
}

TEST(MatrixMarket, TruncatedAndOverlongFiles) {
  const std::string head =
      "%%MatrixMarket matrix coordinate real general\n3 3 4\n";
  EXPECT_EQ(ErrorOf(head + "1 1 1\n2 2 1\n"),
            "line 5: expected 4 entries, found 2");
  // Cut in the middle of a line.
  EXPECT_EQ(ErrorOf(head + "1 1 1\n2 2"),
            "line 4: expected 3 fields (row column value), found 2");
  EXPECT_EQ(ErrorOf(head + "1 1 1\n2 2 1\n3 3 1\n1 2 1\n\n2 1 1\n"),
            "line 8: more entries than the 4 declared");
  EXPECT_EQ(ErrorOf("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n"),
            "line 6: expected 4 entries, found 3");
  EXPECT_EQ(ErrorOf("%%MatrixMarket matrix array real general\n1 2\n1\n2\n3\n"),
            "line 5: more entries than the 2 of a 1 x 2 general array");
}

TEST(MatrixMarket, DuplicatesNameBothLines) {
  EXPECT_EQ(ErrorOf("%%MatrixMarket matrix coordinate real general\n"
                    "3 3 3\n2 1 1\n3 3 1\n2 1 5\n"),
            "line 5: duplicate entry (2, 1), first given on line 3");
  // Out of order within a row, so the row is sorted before the check.
  EXPECT_EQ(ErrorOf("%%MatrixMarket matrix coordinate real general\n"
                    "3 3 4\n2 3 1\n2 1 1\n% c\n2 3 1\n1 1 1\n"),
            "line 6: duplicate entry (2, 3), first given on line 3");
  EXPECT_THAT(ErrorOf("%%MatrixMarket matrix coordinate real symmetric\n"
                      "3 3 2\n3 1 1\n1 3 1\n"),
              StartsWith("line 4: duplicate entry (3, 1), first given on "
                         "line 3 (an entry above the diagonal"));
  EXPECT_THAT(ErrorOf("%%MatrixMarket matrix coordinate real skew-symmetric\n"
                      "3 3 2\n1 2 1\n2 1 1\n"),
              StartsWith("line 4: duplicate entry"));
}

TEST(MatrixMarket, SkewDiagonalIsAnError) {
  EXPECT_EQ(ErrorOf("%%MatrixMarket matrix coordinate real skew-symmetric\n"
                    "2 2 1\n2 2 1\n"),
            "line 3: diagonal entry (2, 2) in a skew-symmetric matrix (its "
            "diagonal is 0)");
}

TEST(MatrixMarket, NonPrintableBytesAreEscapedInMessages) {
  std::string text = "%%MatrixMarket matrix coordinate real general\n1 1 1\n";
  text += std::string("1 1 \x01\xff", 6) + "\n";
  EXPECT_EQ(ErrorOf(text), "line 3: value '\\x01\\xff' is not a number");
}

// Every real matrix we have, against the counts in its size line.
void ExpectReadsLikeItsSizeLine(const std::string& path) {
  SCOPED_TRACE(path);
  MatrixMarketInfo info;
  absl::StatusOr<CsrMatrix> a =
      ReadMatrixMarket(path, &info, MatrixMarketLimits());
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(ValidateCsr(*a).ok());
  EXPECT_EQ(a->rows, info.rows);
  EXPECT_EQ(a->cols, info.cols);
  const int64_t stored = info.symmetry == MatrixMarketSymmetry::kSkewSymmetric
                             ? 2 * info.entries
                             : info.entries;
  EXPECT_EQ(a->nnz(), stored);
}

// Files under `dir` that begin with the Matrix Market banner, whatever
// their names: what a sweep by the .mtx extension must find, counted
// without it.
int MatrixMarketFilesUnder(const std::string& dir) {
  constexpr std::string_view kBanner = "%%MatrixMarket";
  int count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string head(kBanner.size(), '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    if (head == kBanner) ++count;
  }
  return count;
}

TEST(MatrixMarket, ReadsTestData) {
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           testing::TestDataPath(""))) {
    if (entry.path().extension() != ".mtx") continue;
    ExpectReadsLikeItsSizeLine(entry.path().string());
    ++files;
  }
  EXPECT_GT(files, 0);
  EXPECT_EQ(files, MatrixMarketFilesUnder(testing::TestDataPath("")));
  // Known sizes (the SuiteSparse collection's pages).
  absl::StatusOr<CsrMatrix> west =
      ReadMatrixMarket(testing::TestDataPath("west0479.mtx"));
  ASSERT_TRUE(west.ok());
  EXPECT_EQ(west->rows, 479);
  EXPECT_EQ(west->nnz(), 1910);
  absl::StatusOr<CsrMatrix> bus =
      ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(bus.ok());
  EXPECT_EQ(bus->structure, Structure::kSymmetricLower);
  EXPECT_EQ(bus->rows, 494);
  EXPECT_EQ(bus->nnz(), 1080);
}

TEST(MatrixMarket, ReadsSharedMatrices) {
  if (!testing::HaveSharedData()) {
    GTEST_SKIP() << testing::SharedDataAbsent(
        "reading every matrix of matrices/ (tests/data's are read above)");
  }
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           testing::SharedDataPath("matrices"))) {
    if (entry.path().extension() != ".mtx") continue;
    ExpectReadsLikeItsSizeLine(entry.path().string());
    ++files;
  }
  EXPECT_GT(files, 0);
  EXPECT_EQ(files, MatrixMarketFilesUnder(testing::SharedDataPath("matrices")));
  // Sizes from the collection's pages: n and stored entries.
  const struct {
    const char* name;
    int64_t n, nnz;
    Structure structure;
  } kKnown[] = {
      {"1138_bus", 1138, 2596, Structure::kSymmetricLower},
      {"bcspwr10", 5300, 13571, Structure::kSymmetricLower},
      {"ani4", 3081, 20971, Structure::kGeneral},
      {"cryg2500", 2500, 12349, Structure::kGeneral},
      {"zenios", 2873, 15032, Structure::kSymmetricLower},
      {"resolve/A_spd01", 1024, 3800, Structure::kSymmetricLower},
  };
  for (const auto& known : kKnown) {
    absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(
        testing::SharedDataPath(absl::StrCat("matrices/", known.name, ".mtx")));
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_EQ(a->rows, known.n) << known.name;
    EXPECT_EQ(a->nnz(), known.nnz) << known.name;
    EXPECT_EQ(a->structure, known.structure) << known.name;
  }
}

}  // namespace
}  // namespace factord
