// The Jacobi LDL^T sweeps (S2 Alg. 2): on a tiny dense matrix they reach the
// exact factor; with enough sweeps they reach block_ildlt's level-scheduled
// factor on the same blocking (same reconstruction error, same
// preconditioner); the sweep error decreases on an SPD matrix; reference and
// threaded sweeps agree bit for bit.
#include "core/jacobi_ldlt/jacobi_ldlt_sweeps.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord::internal {
namespace {

struct SweepSetup {
  std::shared_ptr<const BlockIldltStructure> structure;
  JacobiLdltPlan plan;
  std::vector<double> scaling, a_blocks;
};

SweepSetup Prepare(const CsrMatrix& a, const FactorOptions& options) {
  SweepSetup setup;
  auto s = BuildBlockIldltStructure(a, options);
  EXPECT_TRUE(s.ok()) << s.status();
  setup.structure = std::make_shared<const BlockIldltStructure>(*std::move(s));
  setup.plan = BuildJacobiLdltPlan(*setup.structure);
  EXPECT_TRUE(ScatterScaledBlocks(a, *setup.structure, options, &setup.scaling,
                                  &setup.a_blocks)
                  .ok());
  return setup;
}

FactorOptions NoDropping() {
  FactorOptions options;
  options.drop_tolerance = 0;
  options.fill_factor = 0;
  return options;
}

CsrMatrix Read(const std::string& path) {
  auto a = ReadMatrixMarket(path);
  EXPECT_TRUE(a.ok()) << a.status();
  return *std::move(a);
}

ExecContext Context(Backend backend, int threads) {
  ExecContext ctx;
  ctx.backend = backend;
  ctx.threads = threads;
  return ctx;
}

TEST(JacobiLdltSweeps, DenseSymmetricIndefiniteMatrixIsFactoredExactly) {
  // A dense 6x6 indefinite matrix in blocks of 2: full fill, so the fixed
  // point is the exact LDL^T and the sweeps reach it in finitely many steps.
  const int n = 6;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      a.col_idx.push_back(j);
      a.values.push_back(i == j ? (i % 2 ? -4.0 : 4.0) : u(rng));
    }
    a.row_ptr.push_back(static_cast<int64_t>(a.col_idx.size()));
  }
  FactorOptions options = NoDropping();
  options.ordering = Ordering::kNatural;
  options.max_block_size = 2;
  options.fill_level = 100;
  const SweepSetup setup = Prepare(a, options);
  JacobiSweepOptions sweep;
  sweep.sweeps = 2 * setup.structure->num_blocks() + 2;
  sweep.epsilon = 1e-13;
  sweep.delta = 1.0;
  std::vector<double> errors;
  auto it =
      RunJacobiLdltSweeps(*setup.structure, setup.plan, setup.a_blocks, sweep,
                          Context(Backend::kReference, 1), &errors);
  ASSERT_TRUE(it.ok()) << it.status();
  ASSERT_EQ(static_cast<int>(errors.size()), sweep.sweeps);
  EXPECT_GT(errors.front(), 1e-3);
  EXPECT_LT(errors.back(), 1e-14);
  // With full fill the pattern residual and the product error coincide.
  EXPECT_NEAR(BlockReconstructionError(
                  *setup.structure, setup.plan, setup.a_blocks, it->values, {},
                  it->pivot_order, it->pivot_size, it->d_diag, it->d_off,
                  Context(Backend::kReference, 1)),
              errors.back(), 1e-14);
  EXPECT_EQ(it->perturbed_pivots, 0);
}

TEST(JacobiLdltSweeps, ProductErrorCountsFillOutsideThePattern) {
  // A = [4 1 1; 1 4 0; 1 0 4], scalar blocks, no fill: the incomplete
  // factor has d = (4, 3.75, 3.75), l10 = l20 = 1/4 and matches A on the
  // pattern; the product has the fill (2,1) = l20 d0 l10 = 1/4 outside it, so
  // ||LDL^T - A||_inf / ||A||_inf = 0.25 / 6 (no scaling).
  CsrMatrix a;
  a.rows = a.cols = 3;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr = {0, 1, 3, 5};
  a.col_idx = {0, 0, 1, 0, 2};
  a.values = {4, 1, 4, 1, 4};
  FactorOptions options = NoDropping();
  options.ordering = Ordering::kNatural;
  options.scaling = Scaling::kNone;
  options.max_block_size = 1;
  options.fill_level = 0;
  const SweepSetup setup = Prepare(a, options);
  ASSERT_EQ(setup.structure->num_blocks(), 3);
  JacobiSweepOptions sweep;
  sweep.sweeps = 4;
  sweep.epsilon = 1e-13;
  sweep.delta = 1.0;
  std::vector<double> errors;
  auto it =
      RunJacobiLdltSweeps(*setup.structure, setup.plan, setup.a_blocks, sweep,
                          Context(Backend::kReference, 1), &errors);
  ASSERT_TRUE(it.ok());
  EXPECT_DOUBLE_EQ(it->d_diag[0], 4.0);
  EXPECT_DOUBLE_EQ(it->d_diag[1], 3.75);
  EXPECT_DOUBLE_EQ(it->d_diag[2], 3.75);
  EXPECT_NEAR(errors.back(), 0.25 / 6.0, 1e-15);
  EXPECT_LT(BlockReconstructionError(
                *setup.structure, setup.plan, setup.a_blocks, it->values, {},
                it->pivot_order, it->pivot_size, it->d_diag, it->d_off,
                Context(Backend::kReference, 1)),
            1e-15);
}

// Sweeps needed for the fixed point to settle: information moves one block
// level per sweep through each of the two phases.
TEST(JacobiLdltSweeps, ConvergesToTheLevelScheduledFactorOn494Bus) {
  const CsrMatrix a = Read(testing::TestDataPath("494_bus.mtx"));
  FactorOptions options = NoDropping();
  options.max_block_size = 8;
  const SweepSetup setup = Prepare(a, options);
  auto ildlt = BlockIldltFactor::Create(a, setup.structure, options,
                                        Context(Backend::kReference, 1));
  ASSERT_TRUE(ildlt.ok()) << ildlt.status();
  const BlockIldltFactor& f = **ildlt;
  const ExecContext serial = Context(Backend::kReference, 1);
  // S2's error (the whole product) and the fixed-point residual on the
  // pattern, which an unperturbed level-scheduled factor makes zero.
  const double ildlt_error = BlockProductError(
      *setup.structure, setup.plan, setup.a_blocks, f.block_values(), f.kept(),
      f.pivot_order(), f.pivot_size(), f.d_diag(), f.d_off(), serial);
  const double ildlt_pattern_error = BlockReconstructionError(
      *setup.structure, setup.plan, setup.a_blocks, f.block_values(), f.kept(),
      f.pivot_order(), f.pivot_size(), f.d_diag(), f.d_off(), serial);
  EXPECT_LT(ildlt_pattern_error, 1e-14);
  EXPECT_GT(ildlt_error, 1e-6);  // fill outside the level-1 pattern
  JacobiSweepOptions sweep;
  sweep.sweeps = 2 * setup.structure->num_levels + 4;
  sweep.epsilon = 1e-13;  // block_ildlt's zero-pivot threshold
  sweep.delta = 1.0;
  std::vector<double> errors;
  auto it = RunJacobiLdltSweeps(*setup.structure, setup.plan, setup.a_blocks,
                                sweep, Context(Backend::kCpu, 2), &errors);
  ASSERT_TRUE(it.ok()) << it.status();
  std::printf(
      "[ measured ] 494_bus levels %d sweeps %d: jacobi %.3e (first "
      "sweep %.3e), block_ildlt %.3e\n",
      setup.structure->num_levels, sweep.sweeps, errors.back(), errors.front(),
      ildlt_error);
  EXPECT_NEAR(errors.back(), ildlt_error, 1e-10 + 1e-6 * ildlt_error);
  EXPECT_LT(BlockReconstructionError(
                *setup.structure, setup.plan, setup.a_blocks, it->values, {},
                it->pivot_order, it->pivot_size, it->d_diag, it->d_off, serial),
            1e-13);
  // The same preconditioner: apply both to one vector.
  auto jacobi = BlockIldltFactor::FromParts(
      setup.structure, setup.scaling, it->values, it->pivot_order,
      it->pivot_size, it->d_diag, it->d_off, {});
  std::vector<double> r(a.rows), z1(a.rows), z2(a.rows);
  for (int64_t i = 0; i < a.rows; ++i) r[i] = std::sin(1.0 + i);
  const ExecContext ctx;
  f.Apply(ctx, r, z1);
  jacobi->Apply(ctx, r, z2);
  double diff = 0, norm = 0;
  for (int64_t i = 0; i < a.rows; ++i) {
    diff = std::max(diff, std::abs(z1[i] - z2[i]));
    norm = std::max(norm, std::abs(z1[i]));
  }
  EXPECT_LT(diff, 1e-8 * norm);
}

TEST(JacobiLdltSweeps, SweepErrorDecreasesOnSpdMatrix) {
  const CsrMatrix a = Read(testing::TestDataPath("494_bus.mtx"));
  const SweepSetup setup = Prepare(a, NoDropping());
  JacobiSweepOptions sweep;  // S2 defaults: eps 0.1, delta 0.95, 8 sweeps
  std::vector<double> errors;
  auto it = RunJacobiLdltSweeps(*setup.structure, setup.plan, setup.a_blocks,
                                sweep, Context(Backend::kCpu, 2), &errors);
  ASSERT_TRUE(it.ok());
  ASSERT_EQ(errors.size(), 8u);
  for (double e : errors) std::printf("[ measured ] sweep error %.3e\n", e);
  EXPECT_LT(errors.back(), 0.5 * errors.front());
  for (size_t k = 1; k < errors.size(); ++k) {
    EXPECT_LE(errors[k], errors[k - 1] * 1.0001) << "sweep " << k;
  }
}

TEST(JacobiLdltSweeps, ReferenceAndThreadedSweepsAgree) {
  // An indefinite KKT system (2x2 pivots and perturbation likely) and
  // 494_bus.
  for (const std::string& path :
       {testing::TestDataPath("kkt/cvxqp1_s/2x2/iter_10/K_10.mtx"),
        testing::TestDataPath("494_bus.mtx")}) {
    auto read = ReadMatrixMarket(path);
    ASSERT_TRUE(read.ok()) << path << ": " << read.status();
    FactorOptions options = NoDropping();
    options.max_block_size = 16;
    const SweepSetup setup = Prepare(*read, options);
    for (Pivoting p : {Pivoting::kStatic, Pivoting::kBunchKaufman}) {
      JacobiSweepOptions sweep;
      sweep.sweeps = 4;
      sweep.epsilon = 0.01;
      sweep.pivoting = p;
      std::vector<double> e1, e2;
      auto ref =
          RunJacobiLdltSweeps(*setup.structure, setup.plan, setup.a_blocks,
                              sweep, Context(Backend::kReference, 1), &e1);
      auto cpu =
          RunJacobiLdltSweeps(*setup.structure, setup.plan, setup.a_blocks,
                              sweep, Context(Backend::kCpu, 2), &e2);
      ASSERT_TRUE(ref.ok() && cpu.ok());
      EXPECT_EQ(e1, e2) << path;
      EXPECT_EQ(ref->values, cpu->values) << path;
      EXPECT_EQ(ref->pivot_order, cpu->pivot_order) << path;
      EXPECT_EQ(ref->pivot_size, cpu->pivot_size) << path;
      EXPECT_EQ(ref->d_diag, cpu->d_diag) << path;
      EXPECT_EQ(ref->perturbed_pivots, cpu->perturbed_pivots) << path;
    }
  }
}

TEST(JacobiLdltSweeps, CancelledBeforeTheFirstSweep) {
  const CsrMatrix a = Read(testing::TestDataPath("494_bus.mtx"));
  const SweepSetup setup = Prepare(a, NoDropping());
  Cancellation cancel;
  cancel.Cancel();
  ExecContext ctx;
  ctx.cancellation = &cancel;
  auto it = RunJacobiLdltSweeps(*setup.structure, setup.plan, setup.a_blocks,
                                JacobiSweepOptions(), ctx, nullptr);
  EXPECT_EQ(it.status().code(), absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace factord::internal
