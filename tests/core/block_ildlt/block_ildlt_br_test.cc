// block_ildlt with the BR blocking strategy (S1 §III-A 1)): the structure
// keeps similar rows that are far apart in one block, blocks stay <= the
// maximum size, and the preconditioner solves what RB solves.
#include <algorithm>
#include <memory>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

// Rows 0, 3, 5 share the pattern {0, 3, 5}; rows 1, 2, 4 a chain; values
// make the matrix indefinite (negative diagonal on 1, 2, 4).
CsrMatrix SharedPatternApart() {
  CsrMatrix a;
  a.rows = a.cols = 6;
  a.structure = Structure::kSymmetricLower;
  // Lower rows: 0: {0}; 1: {1}; 2: {1,2}; 3: {0,3}; 4: {2,4}; 5: {0,3,5}.
  a.row_ptr = {0, 1, 2, 4, 6, 8, 11};
  a.col_idx = {0, 1, 1, 2, 0, 3, 2, 4, 0, 3, 5};
  a.values = {4, -3, 1, -4, 1, 5, 0.5, -2, 1, 1, 6};
  return a;
}

FactorOptions BlockIldltBr() {
  FactorOptions options;
  options.method = Method::kBlockIldlt;
  options.blocking = Blocking::kBr;
  return options;
}

int BlockOf(const BlockIldltStructure& s, int32_t row) {
  const auto k = std::find(s.perm.begin(), s.perm.end(), row) - s.perm.begin();
  return static_cast<int>(
      std::upper_bound(s.block_ptr.begin(), s.block_ptr.end(), k) -
      s.block_ptr.begin() - 1);
}

TEST(BlockIldltBr, StructureJoinsRowsThatRbKeepsApart) {
  const CsrMatrix a = SharedPatternApart();
  FactorOptions br = BlockIldltBr();
  br.ordering = Ordering::kNatural;
  FactorOptions rb = br;
  rb.blocking = Blocking::kRb;
  auto sbr = BuildBlockIldltStructure(a, br);
  auto srb = BuildBlockIldltStructure(a, rb);
  ASSERT_TRUE(sbr.ok()) << sbr.status();
  ASSERT_TRUE(srb.ok()) << srb.status();
  EXPECT_EQ(BlockOf(*sbr, 0), BlockOf(*sbr, 3));
  EXPECT_NE(BlockOf(*srb, 0), BlockOf(*srb, 3));
  EXPECT_LT(sbr->num_blocks(), srb->num_blocks());
  EXPECT_NE(br.AnalysisKey(), rb.AnalysisKey());
}

TEST(BlockIldltBr, FullFillIsExactOnTheSmallIndefiniteMatrix) {
  auto a = std::make_shared<const CsrMatrix>(SharedPatternApart());
  FactorOptions options = BlockIldltBr();
  options.fill_level = 100;
  options.drop_tolerance = 0;
  ExecContext ctx;
  auto analysis = Analyze(*a, options, ctx);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  auto f = Factorize(a, *analysis, options, ctx);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ((*f)->report().blocks, 2);
  const std::vector<double> b = {1, 2, 3, 4, 5, 6};
  std::vector<double> x(6, 0.0);
  SolveOptions solve_options;
  solve_options.tolerance = 1e-12;
  SolveReport report;
  ASSERT_TRUE((*f)->Solve(b, x, solve_options, ctx, &report).ok());
  EXPECT_EQ(report.status, SolveStatus::kConverged);
  EXPECT_LE(report.relative_residual, 1e-12);
  EXPECT_LE(report.iterations, 2);  // an exact preconditioner
}

TEST(BlockIldltBr, RealMatricesBlocksBoundedAndSolved) {
  for (const char* name :
       {"494_bus.mtx", "bcsstk13.mtx", "kkt/hs21/2x2/iter_5/K_5.mtx"}) {
    auto read = ReadMatrixMarket(testing::TestDataPath(name));
    ASSERT_TRUE(read.ok()) << name << ": " << read.status();
    auto a = std::make_shared<const CsrMatrix>(*std::move(read));
    for (int max_size : {8, 32}) {
      FactorOptions options = BlockIldltBr();
      options.max_block_size = max_size;
      auto s = BuildBlockIldltStructure(*a, options);
      ASSERT_TRUE(s.ok()) << name << ": " << s.status();
      std::vector<int32_t> sorted = s->perm;
      std::sort(sorted.begin(), sorted.end());
      for (int64_t i = 0; i < a->rows; ++i) ASSERT_EQ(sorted[i], i) << name;
      for (int64_t b = 0; b < s->num_blocks(); ++b) {
        ASSERT_GE(s->block_size(b), 1);
        ASSERT_LE(s->block_size(b), max_size) << name << " block " << b;
      }
      ExecContext ctx;
      auto analysis = Analyze(*a, options, ctx);
      ASSERT_TRUE(analysis.ok()) << analysis.status();
      auto f = Factorize(a, *analysis, options, ctx);
      ASSERT_TRUE(f.ok()) << f.status();
      EXPECT_EQ((*f)->report().blocks, s->num_blocks());
      std::vector<double> b(a->rows, 1.0), x(a->rows, 0.0);
      SolveReport report;
      ASSERT_TRUE((*f)->Solve(b, x, SolveOptions(), ctx, &report).ok());
      EXPECT_EQ(report.status, SolveStatus::kConverged)
          << name << " max_block_size " << max_size << ": " << report.message;
      EXPECT_LE(report.relative_residual, 1e-8) << name;
    }
  }
}

}  // namespace
}  // namespace factord
