// Outer push-back pivoting (S2 §V-A): the P, P^{-1}, X arrays on the 5-block
// example of S2 Fig. 2, the structure of the pushed-back order (same set of
// blocks at fill level 0), and the Jacobi LDL^T with push-back after the
// first sweep on a KKT system (reference and threaded agree).
#include "core/jacobi_ldlt/jacobi_ldlt_pushback.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord::internal {
namespace {

TEST(JacobiLdltPushBack, Figure2Example) {
  // Five diagonal blocks; push back blocks 2 and 3 (0-based 1 and 2).
  BlockPushBack p = BlockPushBack::Identity(5);
  const std::vector<uint8_t> flagged = {0, 1, 1, 0, 0};
  const std::vector<int32_t> sizes = {2, 3, 1, 2, 2};
  EXPECT_EQ(PushBackBlocks(flagged, sizes, &p), 2);
  EXPECT_EQ(p.position, (std::vector<int32_t>{0, 3, 4, 1, 2}));
  EXPECT_EQ(p.inverse, (std::vector<int32_t>{0, 3, 4, 1, 2}));
  EXPECT_EQ(p.level, (std::vector<int32_t>{0, 1, 1, 0, 0}));
  EXPECT_EQ(p.pushed_rows, 4);
  // A second push-back of block 1 moves it behind block 2: levels 0,2,1.
  EXPECT_EQ(PushBackBlocks(std::vector<uint8_t>{0, 1, 0, 0, 0}, sizes, &p), 1);
  EXPECT_EQ(p.position, (std::vector<int32_t>{0, 3, 4, 2, 1}));
  for (int k = 0; k < 5; ++k) EXPECT_EQ(p.inverse[p.position[k]], k);
  EXPECT_EQ(p.pushed_blocks, 3);
}

CsrMatrix ReadKkt() {
  auto a = ReadMatrixMarket(
      testing::TestDataPath("kkt/cvxqp1_s/2x2/iter_10/K_10.mtx"));
  EXPECT_TRUE(a.ok()) << a.status();
  return *std::move(a);
}

// The set of block pairs {initial block, initial block} of a structure.
std::set<std::pair<int32_t, int32_t>> BlockPairs(
    const BlockIldltStructure& s, const std::vector<int32_t>& initial_id) {
  std::set<std::pair<int32_t, int32_t>> pairs;
  for (int64_t j = 0; j < s.num_blocks(); ++j) {
    for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
      const int32_t x = initial_id[s.row_block[t]], y = initial_id[j];
      pairs.insert({std::min(x, y), std::max(x, y)});
    }
  }
  return pairs;
}

TEST(JacobiLdltPushBack, FillLevelZeroKeepsTheSameBlocks) {
  const CsrMatrix a = ReadKkt();
  FactorOptions options;
  options.fill_level = 0;  // S2: no fill on the initial block structure
  options.max_block_size = 8;
  auto initial = BuildBlockIldltStructure(a, options);
  ASSERT_TRUE(initial.ok());
  const int64_t nb = initial->num_blocks();
  std::vector<uint8_t> flagged(nb, 0);
  std::vector<int32_t> sizes(nb);
  for (int64_t b = 0; b < nb; ++b) {
    flagged[b] = b % 3 == 1;
    sizes[b] = initial->block_size(b);
  }
  BlockPushBack p = BlockPushBack::Identity(nb);
  PushBackBlocks(flagged, sizes, &p);
  auto pushed = PushedBackStructure(a, options, *initial, p);
  ASSERT_TRUE(pushed.ok()) << pushed.status();
  EXPECT_EQ(pushed->num_slots(), initial->num_slots());
  std::vector<int32_t> identity(nb);
  for (int64_t b = 0; b < nb; ++b) identity[b] = static_cast<int32_t>(b);
  EXPECT_EQ(BlockPairs(*pushed, p.position), BlockPairs(*initial, identity));
  // Block k of the new order is the initial block P[k], rows unchanged.
  for (int64_t k = 0; k < nb; ++k) {
    const int32_t b = p.position[k];
    ASSERT_EQ(pushed->block_size(k), initial->block_size(b));
    for (int32_t r = 0; r < pushed->block_size(k); ++r) {
      EXPECT_EQ(pushed->perm[pushed->block_ptr[k] + r],
                initial->perm[initial->block_ptr[b] + r]);
    }
  }
}

TEST(JacobiLdltPushBack, SweepsWithPushBackAgreeAcrossBackends) {
  const CsrMatrix a = ReadKkt();
  FactorOptions options;
  options.drop_tolerance = 0;
  options.fill_factor = 0;
  options.max_block_size = 8;
  auto s = BuildBlockIldltStructure(a, options);
  ASSERT_TRUE(s.ok());
  auto structure = std::make_shared<const BlockIldltStructure>(*std::move(s));
  auto plan =
      std::make_shared<const JacobiLdltPlan>(BuildJacobiLdltPlan(*structure));
  JacobiSweepOptions sweep;
  sweep.epsilon = 0.01;
  ExecContext reference, threaded;
  reference.backend = Backend::kReference;
  threaded.threads = 2;
  auto r1 = RunJacobiLdlt(a, options, structure, plan, sweep, true, reference);
  auto r2 = RunJacobiLdlt(a, options, structure, plan, sweep, true, threaded);
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_EQ(r1->sweep_errors.size(), 8u);
  EXPECT_EQ(r1->sweep_errors, r2->sweep_errors);
  EXPECT_EQ(r1->iterate.values, r2->iterate.values);
  EXPECT_EQ(r1->push_back.position, r2->push_back.position);
  // Blocks flagged by the first sweep were pushed (the late KKT iteration
  // has tiny pivots at eps = 0.01), and P, P^{-1} stay inverse.
  EXPECT_GT(r1->push_back.pushed_blocks, 0);
  for (size_t k = 0; k < r1->push_back.position.size(); ++k) {
    EXPECT_EQ(r1->push_back.inverse[r1->push_back.position[k]],
              static_cast<int32_t>(k));
  }
  // Without push-back the run is the plain sweeps, unchanged.
  auto plain =
      RunJacobiLdlt(a, options, structure, plan, sweep, false, reference);
  std::vector<double> errors;
  auto direct = RunJacobiLdltSweeps(*structure, *plan, plain->a_blocks, sweep,
                                    reference, &errors);
  ASSERT_TRUE(plain.ok() && direct.ok());
  EXPECT_EQ(plain->sweep_errors, errors);
  EXPECT_EQ(plain->push_back.pushed_blocks, 0);
}

}  // namespace
}  // namespace factord::internal
