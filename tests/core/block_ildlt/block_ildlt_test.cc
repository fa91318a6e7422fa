// block_ildlt on tiny hand-built matrices first (full fill is exact, a 2x2
// pivot, a zero pivot), then pattern properties and analysis reuse on real
// matrices from tests/data.
#include "core/block_ildlt/block_ildlt.h"

#include <cmath>
#include <memory>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "core/solver/residual.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

// Symmetric-lower CSR of a dense symmetric matrix (row-major, n x n); zeros
// are left out of the pattern except on the diagonal.
std::shared_ptr<const CsrMatrix> Lower(int n, const std::vector<double>& d) {
  auto a = std::make_shared<CsrMatrix>();
  a->rows = a->cols = n;
  a->structure = Structure::kSymmetricLower;
  a->row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      if (d[i * n + j] != 0 || i == j) {
        a->col_idx.push_back(j);
        a->values.push_back(d[i * n + j]);
      }
    }
    a->row_ptr.push_back(a->col_idx.size());
  }
  return a;
}

// A KKT matrix [-(H + I) B^T; B delta I] with H tridiagonal, B banded.
std::shared_ptr<const CsrMatrix> SmallKkt(int nv, int nc, double delta) {
  const int n = nv + nc;
  std::vector<double> d(n * n, 0.0);
  for (int i = 0; i < nv; ++i) {
    d[i * n + i] = -(3.0 + 0.1 * i);
    if (i + 1 < nv) d[(i + 1) * n + i] = d[i * n + i + 1] = 1.0;
  }
  for (int c = 0; c < nc; ++c) {
    const int r = nv + c;
    for (int k = 0; k < 3; ++k) {
      const int j = (2 * c + k) % nv;
      d[r * n + j] = d[j * n + r] = 1.0 + 0.5 * k - 0.1 * c;
    }
    d[r * n + r] = delta;
  }
  return Lower(n, d);
}

struct IldltRun {
  FactorReport factor;
  SolveReport solve;
  std::vector<double> x;
};

IldltRun Solve(std::shared_ptr<const CsrMatrix> a, const FactorOptions& options,
               const std::vector<double>& b) {
  ExecContext ctx;
  auto analysis = Analyze(*a, options, ctx);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  auto factorization = Factorize(a, *analysis, options, ctx);
  EXPECT_TRUE(factorization.ok()) << factorization.status();
  IldltRun run;
  run.factor = (*factorization)->report();
  run.x.assign(a->rows, 0.0);
  SolveOptions solve_options;
  solve_options.tolerance = 1e-10;
  EXPECT_TRUE(
      (*factorization)->Solve(b, run.x, solve_options, ctx, &run.solve).ok());
  return run;
}

FactorOptions BlockIldlt() {
  FactorOptions options;
  options.method = Method::kBlockIldlt;
  return options;
}

TEST(BlockIldlt, FullFillWithoutDroppingIsExact) {
  auto a = SmallKkt(30, 12, 0.0);  // a saddle point: needs pivoting
  FactorOptions options = BlockIldlt();
  options.fill_level = 1000;
  options.drop_tolerance = 0;
  options.fill_factor = 0;  // no cap
  options.max_block_size = 4;
  const std::vector<double> b(a->rows, 1.0);
  const IldltRun run = Solve(a, options, b);
  EXPECT_EQ(run.solve.status, SolveStatus::kConverged) << run.solve.message;
  EXPECT_LE(run.solve.iterations, 2);
  EXPECT_LE(run.solve.relative_residual, 1e-10);
  EXPECT_EQ(run.factor.perturbed_pivots, 0);
  EXPECT_FALSE(run.factor.inertia_reliable);
}

TEST(BlockIldlt, EveryPivotingStrategySolvesTheFullFillSystem) {
  auto a = SmallKkt(20, 8, 1e-2);
  for (Pivoting p :
       {Pivoting::kStatic, Pivoting::kBunchKaufman, Pivoting::kRook}) {
    FactorOptions options = BlockIldlt();
    options.pivoting = p;
    options.fill_level = 1000;
    options.drop_tolerance = 0;
    options.fill_factor = 0;
    const IldltRun run = Solve(a, options, std::vector<double>(a->rows, 1.0));
    EXPECT_LE(run.solve.iterations, 2) << PivotingName(p);
    EXPECT_LE(run.solve.relative_residual, 1e-10) << PivotingName(p);
  }
}

// IPM shifts change the system: -10 on the primal rows of a KKT matrix and
// 1e-2 on the constraint rows. The Krylov method solves A + shifts, whose
// residual is the one reported, not A, which the solution misses by far.
TEST(BlockIldlt, ShiftsAreSolvedOnTheShiftedSystem) {
  const int primal = 30;
  auto a = SmallKkt(primal, 12, 0.0);
  FactorOptions options = BlockIldlt();
  options.shift_first = -10.0;
  options.shift_count = primal;
  options.shift_rest = 1e-2;
  const std::vector<double> b(a->rows, 1.0);
  const IldltRun run = Solve(a, options, b);
  EXPECT_EQ(run.solve.status, SolveStatus::kConverged) << run.solve.message;
  const std::vector<double> shift = options.ShiftVector(a->rows);
  const ResidualNorms shifted = ComputeResidualNorms(*a, shift, b, run.x);
  EXPECT_EQ(run.solve.relative_residual, shifted.relative_residual);
  EXPECT_EQ(run.solve.backward_error, shifted.backward_error);
  EXPECT_LE(shifted.relative_residual, 1e-10);
  EXPECT_GT(ComputeResidualNorms(*a, b, run.x).relative_residual, 1e-2);
}

TEST(BlockIldlt, TwoByTwoPivotInsideABlock) {
  // [[0 1 0]; [1 0 2]; [0 2 5]]: the leading zero needs a 2x2 pivot.
  auto a = Lower(3, {0, 1, 0, 1, 0, 2, 0, 2, 5});
  FactorOptions options = BlockIldlt();
  options.ordering = Ordering::kNatural;
  options.scaling = Scaling::kNone;
  options.fill_level = 10;
  options.drop_tolerance = 0;
  const IldltRun run = Solve(a, options, {1.0, 2.0, 3.0});
  EXPECT_GE(run.factor.two_by_two_pivots, 1);
  EXPECT_EQ(run.factor.perturbed_pivots, 0);
  EXPECT_LE(run.solve.iterations, 1);
  // x = A^{-1} b with A^{-1} b computed by hand: x = (1.6, 1, -0.2)... check
  // through the residual instead of a hand-computed vector.
  EXPECT_LE(run.solve.relative_residual, 1e-12);
}

TEST(BlockIldlt, ZeroPivotIsPerturbedAndCounted) {
  // An empty row/column: no block can supply a pivot for it.
  auto a = Lower(3, {4, 0, 1, 0, 0, 0, 1, 0, 3});
  FactorOptions options = BlockIldlt();
  options.scaling = Scaling::kNone;
  ExecContext ctx;
  auto analysis = Analyze(*a, options, ctx);
  ASSERT_TRUE(analysis.ok());
  auto factorization = Factorize(a, *analysis, options, ctx);
  ASSERT_TRUE(factorization.ok()) << factorization.status();
  const FactorReport& report = (*factorization)->report();
  EXPECT_EQ(report.perturbed_pivots, 1);
  EXPECT_EQ(report.status, FactorStatus::kPerturbed);
  EXPECT_FALSE(report.inertia_reliable);
  // A consistent right-hand side (zero in the empty row) is still solved.
  std::vector<double> x(3, 0.0);
  const std::vector<double> b = {1.0, 0.0, 2.0};
  SolveReport solve;
  ASSERT_TRUE((*factorization)->Solve(b, x, SolveOptions(), ctx, &solve).ok());
  EXPECT_LE(solve.relative_residual, 1e-8);
}

TEST(BlockIldlt, DefaultIsIncompleteAndBoundedByTheFillFactor) {
  auto a = ReadMatrixMarket(testing::TestDataPath("bcsstk13.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  const FactorOptions defaults = BlockIldlt();
  EXPECT_LE(defaults.fill_level, 2);
  EXPECT_LE(defaults.fill_factor, 8);
  auto incomplete = BuildBlockIldltStructure(*a, defaults);
  FactorOptions full = defaults;
  full.fill_level = 1 << 20;
  auto complete = BuildBlockIldltStructure(*a, full);
  ASSERT_TRUE(incomplete.ok() && complete.ok());
  EXPECT_LT(incomplete->num_slots(), complete->num_slots());
  EXPECT_GT(incomplete->num_levels, 1);
  EXPECT_LT(incomplete->num_blocks(), a->rows);  // blocks bigger than 1

  auto shared = std::make_shared<const CsrMatrix>(*std::move(a));
  const IldltRun run =
      Solve(shared, defaults, std::vector<double>(shared->rows, 1));
  // Fill bound: the off-diagonal entries kept are at most fill_factor times
  // A's (the leftover only moves budget between columns), plus the dense
  // diagonal blocks.
  int64_t diagonal_entries = 0;
  for (int64_t b = 0; b < incomplete->num_blocks(); ++b) {
    const int64_t s = incomplete->block_size(b);
    diagonal_entries += s * (s + 1) / 2 + 1;
  }
  EXPECT_LE(run.factor.nnz_factor,
            defaults.fill_factor * shared->nnz() + diagonal_entries);
  EXPECT_GT(run.factor.blocks, 0);
}

TEST(BlockIldlt, AnalysisIsReusedAcrossKktIterations) {
  auto a0 =
      ReadMatrixMarket(testing::TestDataPath("kkt/hs21/2x2/iter_0/K_0.mtx"));
  auto a5 =
      ReadMatrixMarket(testing::TestDataPath("kkt/hs21/2x2/iter_5/K_5.mtx"));
  ASSERT_TRUE(a0.ok() && a5.ok());
  ASSERT_EQ(a0->col_idx, a5->col_idx);
  const FactorOptions options = BlockIldlt();
  ExecContext ctx;
  auto analysis = Analyze(*a0, options, ctx);
  ASSERT_TRUE(analysis.ok());
  EXPECT_GT((*analysis)->factor_bytes_estimate(), 0);
  for (const auto* m : {&*a0, &*a5}) {
    auto shared = std::make_shared<const CsrMatrix>(*m);
    auto f = Factorize(shared, *analysis, options, ctx);
    ASSERT_TRUE(f.ok()) << f.status();
    std::vector<double> x(m->rows, 0.0);
    SolveReport solve;
    ASSERT_TRUE((*f)->Solve(std::vector<double>(m->rows, 1.0), x,
                            SolveOptions(), ctx, &solve)
                    .ok());
    EXPECT_EQ(solve.status, SolveStatus::kConverged) << solve.message;
    EXPECT_LE(ComputeResidualNorms(*m, std::vector<double>(m->rows, 1.0), x)
                  .relative_residual,
              1e-8);
  }
}

TEST(BlockIldlt, GmcOrderingConverges) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok());
  FactorOptions options = BlockIldlt();
  options.ordering = Ordering::kGmc;
  auto shared = std::make_shared<const CsrMatrix>(*std::move(a));
  const IldltRun run =
      Solve(shared, options, std::vector<double>(shared->rows, 1));
  EXPECT_EQ(run.solve.status, SolveStatus::kConverged) << run.solve.message;
}

// The 4-cycle 0-1-2-3-0 in natural order with 1x1 blocks: eliminating 0
// fills (3, 1) at level 1 (S1 §IV-A); nothing else fills.
TEST(BlockIldlt, LevelOfFillOnAFourCycle) {
  auto a = Lower(4, {4, 1, 0, 1,  //
                     1, 4, 1, 0,  //
                     0, 1, 4, 1,  //
                     1, 0, 1, 4});
  FactorOptions options = BlockIldlt();
  options.ordering = Ordering::kNatural;
  options.max_block_size = 1;
  options.fill_level = 0;
  auto level0 = BuildBlockIldltStructure(*a, options);
  ASSERT_TRUE(level0.ok()) << level0.status();
  EXPECT_EQ(level0->num_blocks(), 4);
  EXPECT_EQ(level0->num_slots(), 8);  // 4 diagonal + 4 edges
  options.fill_level = 1;
  auto level1 = BuildBlockIldltStructure(*a, options);
  ASSERT_TRUE(level1.ok());
  ASSERT_EQ(level1->num_slots(), 9);
  // Column 1 holds rows 1 (diagonal), 2 (level 0) and 3 (fill, level 1).
  ASSERT_EQ(level1->col_ptr[2] - level1->col_ptr[1], 3);
  const int64_t first = level1->col_ptr[1];
  EXPECT_EQ(level1->row_block[first], 1);
  EXPECT_EQ(level1->row_block[first + 2], 3);
  EXPECT_EQ(level1->fill_level[first + 1], 0);
  EXPECT_EQ(level1->fill_level[first + 2], 1);
  // Complete: level 1 already is the full factor here, so l_f = 1 solves
  // exactly.
  options.drop_tolerance = 0;
  const IldltRun run = Solve(a, options, std::vector<double>(4, 1.0));
  EXPECT_LE(run.solve.iterations, 1);
  EXPECT_LE(run.solve.relative_residual, 1e-12);
}

TEST(BlockIldlt, RejectsGeneralMatrices) {
  auto a = std::make_shared<CsrMatrix>(*Lower(2, {1, 0, 0, 1}));
  a->structure = Structure::kGeneral;
  EXPECT_FALSE(Analyze(*a, BlockIldlt(), ExecContext()).ok());
}

}  // namespace
}  // namespace factord
