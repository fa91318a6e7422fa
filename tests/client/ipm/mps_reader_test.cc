#include "client/ipm/mps_reader.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord::ipm {
namespace {

using ::testing::HasSubstr;
constexpr double kInf = std::numeric_limits<double>::infinity();

// A tiny LP in strict fixed format, with every section.
constexpr char kFixedLp[] =
    "NAME          TINY\n"
    "ROWS\n"
    " N  COST\n"
    " L  LIM1\n"
    " G  LIM2\n"
    " E  MYEQN\n"
    " N  OTHER\n"
    "COLUMNS\n"
    "    X1        COST         1.0   LIM1         1.0\n"
    "    X1        LIM2         1.0   OTHER        9.0\n"
    "    MARKER                 'MARKER'                 'INTORG'\n"
    "    X2        COST         2.0   LIM1         1.0\n"
    "    X2        MYEQN       -1.0\n"
    "    MARKER                 'MARKER'                 'INTEND'\n"
    "    X3        COST        -1.0   MYEQN        1.0\n"
    "RHS\n"
    "    RHS       COST        -3.5   LIM1         4.0\n"
    "    RHS       LIM2         1.0   MYEQN        7.0\n"
    "    RHS2      LIM1        99.0\n"
    "RANGES\n"
    "    RNG       LIM1         2.5   MYEQN       -3.0\n"
    "BOUNDS\n"
    " UP BND       X1           4.0\n"
    " MI BND       X2\n"
    " UP BND       X2           1.0\n"
    " LO BND       X3          -1.0\n"
    " UP BND       X3           1.0\n"
    "ENDATA\n";

TEST(MpsReaderTest, ReadsEverySectionOfFixedLp) {
  absl::StatusOr<QpProblem> p = ParseMps(kFixedLp);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->name, "TINY");
  EXPECT_EQ(p->objective_name, "COST");
  ASSERT_EQ(p->num_rows(), 3);  // OTHER (a second N row) is dropped
  ASSERT_EQ(p->num_cols(), 3);
  EXPECT_EQ(p->row_names[2], "MYEQN");
  EXPECT_EQ(p->c, (std::vector<double>{1.0, 2.0, -1.0}));
  EXPECT_DOUBLE_EQ(p->objective_constant, 3.5);  // RHS on objective: -r
  EXPECT_EQ(p->a.nnz(), 5);
  EXPECT_EQ(p->a.col_start, (std::vector<int64_t>{0, 2, 4, 5}));
  EXPECT_EQ(p->a.row_index, (std::vector<int>{0, 1, 0, 2, 2}));
  EXPECT_EQ(p->a.value, (std::vector<double>{1, 1, 1, -1, 1}));
  // L with range 2.5: [4-2.5, 4]; G: [1, inf); E with R=-3: [7-3, 7].
  EXPECT_EQ(p->row_lower, (std::vector<double>{1.5, 1.0, 4.0}));
  EXPECT_EQ(p->row_upper, (std::vector<double>{4.0, kInf, 7.0}));
  EXPECT_EQ(p->col_lower, (std::vector<double>{0, -kInf, -1}));
  EXPECT_EQ(p->col_upper, (std::vector<double>{4, 1, 1}));
  EXPECT_EQ(p->is_integer, (std::vector<bool>{false, true, false}));
  EXPECT_FALSE(p->is_qp());
  EXPECT_DOUBLE_EQ(p->Objective({1, 1, 1}), 1 + 2 - 1 + 3.5);
}

TEST(MpsReaderTest, RangeOnEqualityRowFollowsItsSign) {
  const std::string text =
      "NAME T\nROWS\n N OBJ\n E R1\n E R2\n E R3\nCOLUMNS\n"
      "    X OBJ 1 R1 1\n    X R2 1 R3 1\nRHS\n    RHS R1 2 R2 2\n"
      "    RHS R3 2\nRANGES\n    RNG R1 3 R2 -3\n    RNG R3 0\nENDATA\n";
  absl::StatusOr<QpProblem> p = ParseMps(text);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->row_lower, (std::vector<double>{2, -1, 2}));
  EXPECT_EQ(p->row_upper, (std::vector<double>{5, 2, 2}));
}

TEST(MpsReaderTest, BoundTypes) {
  const std::string text =
      "NAME\nROWS\n N OBJ\n L R\nCOLUMNS\n"
      "    A R 1\n    B R 1\n    C R 1\n    D R 1\n    E R 1\n    F R 1\n"
      "    G R 1\n    H R 1\nRHS\nBOUNDS\n"
      " FR BND A\n"
      " FX BND B 3.5\n"
      " PL BND C\n"
      " BV BND D\n"
      " UP BND E -2\n"  // negative UP with default lower: lower -> -inf
      " LO BND F 0\n UP BND F -2\n"        // explicit lower 0 is kept
      " LO BND G -1e30\n UP BND G 1e31\n"  // |v| >= 1e30 is infinite
      " MI BND H\n"
      "ENDATA\n";
  absl::StatusOr<QpProblem> p = ParseMps(text);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->col_lower,
            (std::vector<double>{-kInf, 3.5, 0, 0, -kInf, 0, -kInf, -kInf}));
  EXPECT_EQ(p->col_upper,
            (std::vector<double>{kInf, 3.5, kInf, 1, -2, -2, kInf, kInf}));
  EXPECT_TRUE(p->is_integer[3]);
}

TEST(MpsReaderTest, FixedNamesMayContainSpaces) {
  // forplan-style names with spaces, read by the fixed columns; CR LF ends.
  const std::string text =
      "NAME          SPACES\r\n"
      "ROWS\r\n"
      " N  COST\r\n"
      " E  DEDO3 1R\r\n"
      "COLUMNS\r\n"
      "    COL 1     COST               2.0   DEDO3 1R           1.0\r\n"
      "RHS\r\n"
      "    RHS       DEDO3 1R           5.0\r\n"
      "ENDATA\r\n";
  absl::StatusOr<QpProblem> p = ParseMps(text);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->row_names[0], "DEDO3 1R");
  EXPECT_EQ(p->col_names[0], "COL 1");
  EXPECT_EQ(p->row_lower[0], 5.0);
  EXPECT_EQ(p->c[0], 2.0);
}

TEST(MpsReaderTest, QuadobjGivesLowerTriangleAndObjsense) {
  // HS21-like: 1/2 x^T Q x with Q = diag(0.02, 2), constant -100.
  const std::string text =
      "NAME          HS21\n"
      "OBJSENSE\n"
      "    MIN\n"
      "ROWS\n"
      "  N OBJ.FUNC\n"
      "  G R------1\n"
      "COLUMNS\n"
      "    C------1  R------1  0.100000e+02\n"
      "    C------2  R------1  -.100000e+01\n"
      "RHS\n"
      "    RHS       OBJ.FUNC  0.100000e+03\n"
      "    RHS       R------1  0.100000e+02\n"
      "RANGES\n"
      "BOUNDS\n"
      " LO BOUNDS    C------1  0.200000e+01\n"
      " UP BOUNDS    C------1  0.500000e+02\n"
      " LO BOUNDS    C------2  -.500000e+02\n"
      " UP BOUNDS    C------2  0.500000e+02\n"
      "QUADOBJ\n"
      "    C------1  C------1  0.200000e-01\n"
      "    C------1  C------2  0.5\n"  // upper position: stored as (2,1)
      "    C------2  C------2  0.200000e+01\n"
      "ENDATA\n";
  absl::StatusOr<QpProblem> p = ParseMps(text);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->maximize);
  EXPECT_TRUE(p->is_qp());
  EXPECT_DOUBLE_EQ(p->objective_constant, -100.0);
  EXPECT_EQ(p->q.col_start, (std::vector<int64_t>{0, 2, 3}));
  EXPECT_EQ(p->q.row_index, (std::vector<int>{0, 1, 1}));
  // 1/2 (0.02*4 + 2*0.5*2*1 + 2*1) - 100 at x = (2, 1).
  EXPECT_DOUBLE_EQ(p->Objective({2, 1}), 0.5 * (0.08 + 2.0 + 2.0) - 100);
}

TEST(MpsReaderTest, ObjsenseMaxOnHeaderLine) {
  absl::StatusOr<QpProblem> p = ParseMps(
      "NAME X\nOBJSENSE MAX\nROWS\n N OBJ\nCOLUMNS\n    X OBJ 1\nENDATA\n");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->maximize);
  EXPECT_EQ(p->num_rows(), 0);
}

struct BadCase {
  const char* text;
  const char* message;
};

TEST(MpsReaderTest, ErrorsNameTheLine) {
  const std::string head = "NAME\nROWS\n N OBJ\n E R1\nCOLUMNS\n";
  const std::vector<BadCase> cases = {
      {"    X1 R09 1\nENDATA\n", "line 6: unknown row 'R09' in COLUMNS"},
      {"    X1 R1 abc\nENDATA\n", "line 6: bad number 'abc'"},
      {"    X1 R1 nan\nENDATA\n", "line 6: bad number 'nan'"},
      {"    X1 R1 1\n    X1 R1 2\nENDATA\n", "line 7: duplicate COLUMNS"},
      {"    X1 R1 1\nRHS\n    RHS R2 1\nENDATA\n",
       "line 8: unknown row 'R2' in RHS"},
      {"    X1 R1 1\nRANGES\n    RNG Q 1\nENDATA\n",
       "line 8: unknown row 'Q' in RANGES"},
      {"    X1 R1 1\nBOUNDS\n UP BND X9 1\nENDATA\n",
       "line 8: unknown column 'X9' in BOUNDS"},
      {"    X1 R1 1\nBOUNDS\n XX BND X1 1\nENDATA\n",
       "line 8: unknown bound type 'XX'"},
      {"    X1 R1 1\nQUADOBJ\n    X1 X2 1\nENDATA\n",
       "line 8: unknown column 'X2' in QUADOBJ"},
      {"    X1 R1 1\nQUADOBJ\n    X1 X1 1\n    X1 X1 1\nENDATA\n",
       "line 9: duplicate QUADOBJ"},
      {"    X1 R1 1\nFOO\nENDATA\n", "line 7: unknown section 'FOO'"},
      {"    X1 R1 1\n", "missing ENDATA"},
      {"    X1 R1 1 R1\nENDATA\n", "line 6: wrong number of fields"},
      {"    X1 R1 1\nENDATA\n    X2 R1 1\n", "line 8: data after ENDATA"},
      {"    X1 R1 1\n    MARKER 'MARKER' 'FOO'\nENDATA\n",
       "line 7: MARKER without"},
  };
  for (const BadCase& c : cases) {
    absl::StatusOr<QpProblem> p = ParseMps(head + c.text);
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(p.status().message(), HasSubstr(c.message)) << c.text;
  }
  absl::StatusOr<QpProblem> bad_rows = ParseMps("NAME\nROWS\n X OBJ\nENDATA\n");
  EXPECT_THAT(bad_rows.status().message(),
              HasSubstr("line 3: unknown row type 'X'"));
  absl::StatusOr<QpProblem> no_objective =
      ParseMps("NAME\nROWS\n E R\nCOLUMNS\n    X R 1\nENDATA\n");
  EXPECT_THAT(no_objective.status().message(), HasSubstr("no objective"));
  absl::StatusOr<QpProblem> orphan = ParseMps("    X R 1\n");
  EXPECT_THAT(orphan.status().message(), HasSubstr("line 1: data line"));
}

TEST(MpsReaderTest, SurvivesArbitraryBytes) {
  // Not a fuzzer, but a cheap deterministic sweep of mutations of a valid
  // file: every byte replaced by a few troublesome values, and every prefix.
  const std::string base(kFixedLp);
  const char replacements[] = {'\0', '\n', ' ', '\t', '*', 'N', '9', '\xff'};
  int parsed = 0;
  for (size_t i = 0; i < base.size(); i += 3) {
    for (char r : replacements) {
      std::string text = base;
      text[i] = r;
      parsed += ParseMps(text).ok();
    }
    parsed += ParseMps(base.substr(0, i)).ok();
  }
  EXPECT_GT(parsed, 0);
}

TEST(MpsReaderTest, MissingFileIsNotFound) {
  EXPECT_EQ(ReadMpsFile("/nonexistent/x.mps").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(MpsReaderTest, ReadsAllSharedLpsAndQps) {
  if (!testing::HaveSharedData()) {
    GTEST_SKIP() << testing::SharedDataAbsent(
        "reading all 50 LPs and 50 QPs of lp/ and qp/");
  }
  for (const char* set : {"lp", "qp"}) {
    std::ifstream table(
        testing::SharedDataPath(std::string(set) + "/optimal.tsv"));
    ASSERT_TRUE(table.good());
    std::string line;
    std::getline(table, line);  // header
    int read = 0;
    while (std::getline(table, line)) {
      const std::string name = line.substr(0, line.find('\t'));
      const std::string path = testing::SharedDataPath(
          std::string(set) + "/" + name +
          (std::string(set) == "lp" ? ".mps.gz" : ".SIF"));
      absl::StatusOr<QpProblem> p = ReadMpsFile(path);
      ASSERT_TRUE(p.ok()) << p.status();
      EXPECT_GT(p->num_cols(), 0) << name;
      EXPECT_EQ(p->is_qp(), std::string(set) == "qp" && p->q.nnz() > 0);
      ++read;
    }
    EXPECT_EQ(read, 50) << set;
  }
}

TEST(MpsReaderTest, BundledLpsHaveTheirNetlibSizes) {
  // Sizes from the netlib table for a few LPs (rows there include the
  // objective row, nonzeros include the objective).
  absl::StatusOr<QpProblem> afiro =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(afiro.ok()) << afiro.status();
  EXPECT_EQ(afiro->num_rows(), 27);
  EXPECT_EQ(afiro->num_cols(), 32);
  absl::StatusOr<QpProblem> forplan =
      ReadMpsFile(testing::TestDataPath("lp/forplan.mps.gz"));
  ASSERT_TRUE(forplan.ok()) << forplan.status();
  EXPECT_EQ(forplan->num_rows(), 161);
  EXPECT_EQ(forplan->num_cols(), 421);
  int64_t nnz = forplan->a.nnz();
  for (double cj : forplan->c) nnz += (cj != 0);
  EXPECT_EQ(nnz, 4916);
}

}  // namespace
}  // namespace factord::ipm
