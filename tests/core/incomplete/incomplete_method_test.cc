// Methods ic and ilu (S4) through the facade: IC(0) of a tridiagonal SPD
// matrix is the exact Cholesky (PCG converges at once), level-of-fill on an
// arrow matrix, the Jacobi triangular solves with many sweeps behave like
// the exact ones, PCG on 494_bus with exact, Jacobi and block-Jacobi solves,
// column-norm scaling, IPM shifts, breakdown, cancellation.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/cancellation.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/residual.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

struct Solved {
  absl::Status status;
  FactorReport factor;
  SolveReport solve;
  std::vector<double> x;
};

Solved RunIncomplete(std::shared_ptr<const CsrMatrix> a,
                     const FactorOptions& options, int max_iterations = 3000) {
  Solved out;
  const ExecContext ctx;
  auto analysis = Analyze(*a, options, ctx);
  if (!analysis.ok()) {
    out.status = analysis.status();
    return out;
  }
  auto factorization = Factorize(a, *analysis, options, ctx);
  if (!factorization.ok()) {
    out.status = factorization.status();
    return out;
  }
  out.factor = (*factorization)->report();
  std::vector<double> b(a->rows, 1.0), x(a->rows, 0.0);
  SolveOptions solve;
  solve.tolerance = 1e-6;
  solve.max_iterations = max_iterations;
  out.status = (*factorization)->Solve(b, x, solve, ctx, &out.solve);
  out.x = std::move(x);
  return out;
}

// Lower triangle of tridiag(-1, 4, -1), n rows.
std::shared_ptr<const CsrMatrix> Tridiagonal(int n) {
  auto a = std::make_shared<CsrMatrix>();
  a->rows = a->cols = n;
  a->structure = Structure::kSpdLower;
  a->row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    if (i > 0) {
      a->col_idx.push_back(i - 1);
      a->values.push_back(-1.0);
    }
    a->col_idx.push_back(i);
    a->values.push_back(4.0);
    a->row_ptr.push_back(static_cast<int64_t>(a->col_idx.size()));
  }
  return a;
}

// Lower triangle of an arrow matrix: dense first row/column, so
// eliminating row 0 fills everything at level 1.
std::shared_ptr<const CsrMatrix> Arrow(int n) {
  auto a = std::make_shared<CsrMatrix>();
  a->rows = a->cols = n;
  a->structure = Structure::kSpdLower;
  a->row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    if (i > 0) {
      a->col_idx.push_back(0);
      a->values.push_back(1.0);
    }
    a->col_idx.push_back(i);
    a->values.push_back(static_cast<double>(n));
    a->row_ptr.push_back(static_cast<int64_t>(a->col_idx.size()));
  }
  return a;
}

FactorOptions Ic(int fill, TriangularSolve trisolve = TriangularSolve::kExact,
                 int sweeps = 5) {
  FactorOptions o;
  o.method = Method::kIc;
  o.fill_level = fill;
  o.trisolve = trisolve;
  o.trisolve_sweeps = sweeps;
  return o;
}

TEST(IncompleteMethodTest, Ic0OfTridiagonalIsExactCholesky) {
  Solved s = RunIncomplete(Tridiagonal(50), Ic(0));
  ASSERT_TRUE(s.status.ok()) << s.status;
  EXPECT_EQ(s.factor.nnz_factor, 3 * 50 - 2);
  EXPECT_EQ(s.factor.perturbed_pivots, 0);
  EXPECT_EQ(s.solve.status, SolveStatus::kConverged);
  EXPECT_LE(s.solve.iterations, 1);  // M = A
}

TEST(IncompleteMethodTest, LevelOfFillOnArrow) {
  const int n = 6;
  FactorOptions natural0 = Ic(0), natural1 = Ic(1);
  natural0.ordering = natural1.ordering = Ordering::kNatural;  // hub first
  Solved level0 = RunIncomplete(Arrow(n), natural0);
  ASSERT_TRUE(level0.status.ok()) << level0.status;
  EXPECT_EQ(level0.factor.nnz_factor, 3 * n - 2);  // ILU(0): pattern of A
  Solved level1 = RunIncomplete(Arrow(n), natural1);
  ASSERT_TRUE(level1.status.ok()) << level1.status;
  EXPECT_EQ(level1.factor.nnz_factor, n * n);  // all fill is level 1
  EXPECT_LE(level1.solve.iterations, 1);       // complete factorization
  // RCM (the default) numbers the hub last: no fill at any level.
  Solved rcm = RunIncomplete(Arrow(n), Ic(1));
  ASSERT_TRUE(rcm.status.ok()) << rcm.status;
  EXPECT_LE(rcm.factor.nnz_factor, n * n);
}

TEST(IncompleteMethodTest, ManyJacobiSweepsMatchExact) {
  // L of tridiagonal has bandwidth 1: n sweeps solve exactly.
  Solved exact = RunIncomplete(Tridiagonal(30), Ic(0));
  Solved jacobi =
      RunIncomplete(Tridiagonal(30), Ic(0, TriangularSolve::kJacobi, 30));
  ASSERT_TRUE(exact.status.ok() && jacobi.status.ok());
  EXPECT_EQ(jacobi.solve.iterations, exact.solve.iterations);
}

TEST(IncompleteMethodTest, PcgOn494Bus) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  auto shared = std::make_shared<const CsrMatrix>(*std::move(a));
  Solved exact = RunIncomplete(shared, Ic(0));
  ASSERT_TRUE(exact.status.ok()) << exact.status;
  EXPECT_EQ(exact.solve.status, SolveStatus::kConverged);
  EXPECT_LE(exact.solve.relative_residual, 1e-6);
  Solved jacobi = RunIncomplete(shared, Ic(0, TriangularSolve::kJacobi, 20));
  ASSERT_TRUE(jacobi.status.ok()) << jacobi.status;
  // Report, do not require: Jacobi trisolves may stall on bus matrices (S4).
  RecordProperty("jacobi20_iterations", jacobi.solve.iterations);
}

TEST(IncompleteMethodTest, IluOnUnsymmetric) {
  auto a = ReadMatrixMarket(testing::TestDataPath("west0479.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  FactorOptions o;
  o.method = Method::kIlu;
  o.fill_level = 1;
  Solved s = RunIncomplete(std::make_shared<const CsrMatrix>(*std::move(a)), o);
  ASSERT_TRUE(s.status.ok()) << s.status;
  EXPECT_GT(s.factor.nnz_factor, 0);
}

TEST(IncompleteMethodTest, BlockJacobiTrisolveConvergesOn494Bus) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  auto shared = std::make_shared<const CsrMatrix>(*std::move(a));
  Solved exact = RunIncomplete(shared, Ic(0));
  ASSERT_TRUE(exact.status.ok()) << exact.status;
  int previous = 1 << 30;
  for (int sweeps : {1, 5, 20}) {
    Solved s =
        RunIncomplete(shared, Ic(0, TriangularSolve::kBlockJacobi, sweeps));
    ASSERT_TRUE(s.status.ok()) << s.status;
    EXPECT_EQ(s.solve.status, SolveStatus::kConverged) << sweeps;
    EXPECT_LE(s.solve.relative_residual, 1e-6) << sweeps;
    // Supervariable blocks of at most 12 (S4 §3.3): ceil(494 / 12) or more.
    EXPECT_GE(s.factor.blocks, (494 + 11) / 12);
    EXPECT_EQ(s.factor.singular_blocks, 0);
    // More sweeps, fewer PCG iterations, never fewer than exact solves.
    EXPECT_LE(s.solve.iterations, previous) << sweeps;
    EXPECT_GE(s.solve.iterations, exact.solve.iterations - 1) << sweeps;
    previous = s.solve.iterations;
    RecordProperty(absl::StrCat("block_jacobi", sweeps, "_iterations"),
                   s.solve.iterations);
  }
  // 20 block sweeps are as good as exact solves here.
  EXPECT_LE(previous, exact.solve.iterations + 2);
}

TEST(IncompleteMethodTest, BlockSizeOptionShapesTheBlocks) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  auto shared = std::make_shared<const CsrMatrix>(*std::move(a));
  FactorOptions o = Ic(0, TriangularSolve::kBlockJacobi, 2);
  o.trisolve_block_size = 1;
  Solved ones = RunIncomplete(shared, o);
  ASSERT_TRUE(ones.status.ok()) << ones.status;
  EXPECT_EQ(ones.factor.blocks, 494);
  o.trisolve_block_size = 33;
  EXPECT_EQ(RunIncomplete(shared, o).status.code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(IncompleteMethodTest, ColumnNormScalingKeepsThePreconditionedIteration) {
  // With a unit L the factor of S A S is a similarity transform of that of
  // A, so PCG takes (up to rounding) the same iterations; measured, not
  // assumed: a difference of more than 2 iterations fails.
  auto a = ReadMatrixMarket(testing::TestDataPath("1138_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  auto shared = std::make_shared<const CsrMatrix>(*std::move(a));
  for (TriangularSolve t : {TriangularSolve::kExact, TriangularSolve::kJacobi,
                            TriangularSolve::kBlockJacobi}) {
    FactorOptions o = Ic(0, t, 5);
    Solved plain = RunIncomplete(shared, o);
    o.scaling = Scaling::kColumnNorm;
    Solved scaled = RunIncomplete(shared, o);
    ASSERT_TRUE(plain.status.ok() && scaled.status.ok());
    EXPECT_EQ(scaled.solve.status, SolveStatus::kConverged);
    EXPECT_LE(scaled.solve.relative_residual, 1e-6);  // on A as uploaded
    EXPECT_NEAR(scaled.solve.iterations, plain.solve.iterations, 2)
        << static_cast<int>(t);
  }
}

TEST(IncompleteMethodTest, ZeroSweepsIsTheInitialGuessOnly) {
  // S4 eq. 3: zero sweeps = x_0 = D^{-1} b, i.e. M = diag(U) for IC: the
  // preconditioner is then weaker than with 5 sweeps but PCG still runs.
  Solved zero =
      RunIncomplete(Tridiagonal(200), Ic(0, TriangularSolve::kJacobi, 0));
  Solved five =
      RunIncomplete(Tridiagonal(200), Ic(0, TriangularSolve::kJacobi, 5));
  ASSERT_TRUE(zero.status.ok() && five.status.ok());
  EXPECT_EQ(zero.solve.status, SolveStatus::kConverged);
  EXPECT_GT(zero.solve.iterations, five.solve.iterations);
  EXPECT_EQ(RunIncomplete(Tridiagonal(5), Ic(0, TriangularSolve::kJacobi, -1))
                .status.code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(IncompleteMethodTest, CancelledBeforeAnalysisAndFactorization) {
  auto a = Tridiagonal(10);
  Cancellation cancellation;
  cancellation.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancellation;
  EXPECT_EQ(Analyze(*a, Ic(0), ctx).status().code(),
            absl::StatusCode::kCancelled);
  auto analysis = Analyze(*a, Ic(0), ExecContext());
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  EXPECT_EQ(Factorize(a, *analysis, Ic(0), ctx).status().code(),
            absl::StatusCode::kCancelled);
}

TEST(IncompleteMethodTest, BreakdownIsShiftedAndReported) {
  // bcsstk13: IC(0) has non-positive pivots; A + alpha diag(A) is used.
  auto a = ReadMatrixMarket(testing::TestDataPath("bcsstk13.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  Solved s =
      RunIncomplete(std::make_shared<const CsrMatrix>(*std::move(a)), Ic(0));
  ASSERT_TRUE(s.status.ok()) << s.status;
  EXPECT_NE(s.factor.message.find("diag(A)"), std::string::npos);
  EXPECT_EQ(s.solve.status, SolveStatus::kConverged);
}

// The shifted matrix is the system: IC(0) / ILU(0) of the tridiagonal
// A + 4 I is its exact factor (no fill), so the Krylov method, which solves
// A + 4 I, converges at once, and the residual reported is that of A + 4 I;
// x misses A's own solution by far.
TEST(IncompleteMethodTest, ShiftsChangeTheSystem) {
  for (Method method : {Method::kIc, Method::kIlu}) {
    auto a = Tridiagonal(50);
    if (method == Method::kIlu) {
      auto general = std::make_shared<CsrMatrix>(ExpandSymmetric(*a));
      a = general;
    }
    FactorOptions options = Ic(0);
    options.method = method;
    options.shift_rest = 4;
    Solved shifted = RunIncomplete(a, options);
    ASSERT_TRUE(shifted.status.ok()) << shifted.status;
    EXPECT_LE(shifted.solve.iterations, 1) << MethodName(method);
    EXPECT_EQ(shifted.solve.status, SolveStatus::kConverged);
    const std::vector<double> b(a->rows, 1.0);
    const ResidualNorms of_shifted =
        ComputeResidualNorms(*a, options.ShiftVector(a->rows), b, shifted.x);
    EXPECT_EQ(shifted.solve.relative_residual, of_shifted.relative_residual);
    EXPECT_LE(of_shifted.relative_residual, 1e-6);
    EXPECT_GT(ComputeResidualNorms(*a, b, shifted.x).relative_residual, 0.1);
    // The same shift as a per-entry diagonal: the same factor and system.
    options.shift_rest = 0;
    options.diagonal_shift.assign(50, 4.0);
    Solved diagonal = RunIncomplete(a, options);
    ASSERT_TRUE(diagonal.status.ok()) << diagonal.status;
    EXPECT_EQ(diagonal.solve.iterations, shifted.solve.iterations);
    EXPECT_EQ(diagonal.solve.relative_residual,
              shifted.solve.relative_residual);
  }
}

// Factorizes only (the matrix is indefinite; no solve).
absl::StatusOr<FactorReport> FactorOnly(std::shared_ptr<const CsrMatrix> a,
                                        const FactorOptions& options) {
  auto analysis = Analyze(*a, options, ExecContext());
  if (!analysis.ok()) return analysis.status();
  auto factorization = Factorize(a, *analysis, options, ExecContext());
  if (!factorization.ok()) return factorization.status();
  return (*factorization)->report();
}

// A shift lands on the entry it names, wherever the ordering puts it: the
// arrow matrix with a zero hub (row 0) breaks IC(0) down at the hub, which
// RCM numbers last; a shift of the hub alone (by diagonal_shift, or as
// shift_first on the first shift_count = 1 entries) makes its pivot
// positive.
TEST(IncompleteMethodTest, ShiftsReachTheEntryTheyNameThroughTheOrdering) {
  const int n = 6;
  auto hub_zero = std::make_shared<CsrMatrix>(*Arrow(n));
  hub_zero->values[0] = 0.0;  // (0, 0)
  hub_zero->structure = Structure::kSymmetricLower;
  absl::StatusOr<FactorReport> plain = FactorOnly(hub_zero, Ic(0));
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_NE(plain->message.find("broke down"), std::string::npos)
      << plain->message;

  FactorOptions by_vector = Ic(0);
  by_vector.diagonal_shift.assign(n, 0.0);
  by_vector.diagonal_shift[0] = 2.0 * n;
  FactorOptions by_count = Ic(0);
  by_count.shift_first = 2.0 * n;
  by_count.shift_count = 1;
  for (const FactorOptions& options : {by_vector, by_count}) {
    absl::StatusOr<FactorReport> shifted = FactorOnly(hub_zero, options);
    ASSERT_TRUE(shifted.ok()) << shifted.status();
    EXPECT_EQ(shifted->perturbed_pivots, 0);
    EXPECT_EQ(shifted->message, "");
  }
}

TEST(IncompleteMethodTest, IcRefusesUnsymmetric) {
  auto a = std::make_shared<CsrMatrix>(*Tridiagonal(3));
  a->structure = Structure::kGeneral;
  Solved s = RunIncomplete(a, Ic(0));
  EXPECT_EQ(s.status.code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace factord
