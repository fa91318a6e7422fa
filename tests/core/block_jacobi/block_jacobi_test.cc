// Block-Jacobi (S3 with S4 blockings): exact on a block-diagonal matrix,
// singular blocks counted and made safe, invalid blockings rejected, the
// blocking stages (pattern-only order + value-based amalgamation) and
// shifts.
#include "core/block_jacobi/block_jacobi.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"

namespace factord {
namespace {

using ::factord::testing::DenseToCsr;

// Two 2 x 2 blocks {0, 2} and {1, 3} (interleaved rows), no coupling.
CsrMatrix Interleaved(double d3) {
  return DenseToCsr(4, {4, 0, 1, 0,  //
                        0, 3, 0, 1,  //
                        1, 0, 2, 0,  //
                        0, 1, 0, d3});
}

TEST(BlockJacobiPreconditioner, ExactInverseOfABlockDiagonalMatrix) {
  const CsrMatrix a = Interleaved(5);
  auto blocking = std::make_shared<const BlockJacobiBlocking>(
      *MakeBlockJacobiBlocking({0, 2, 1, 3}, {0, 2, 4}));
  auto m = BlockJacobiPreconditioner::Create(a, blocking, ExecContext{});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)->singular_blocks(), 0);
  const auto x = testing::KnownSolution(4);
  const auto b = testing::Multiply(a, x);
  std::vector<double> z(4);
  (*m)->Apply(ExecContext{}, b, z);
  EXPECT_LT(testing::MaxError(z, x), 1e-15);
}

TEST(BlockJacobiPreconditioner, SingularBlockIsReportedAndMadeSafe) {
  // Block {1, 3} = [[3, 1], [1, 1/3]] is singular.
  const CsrMatrix a = Interleaved(1.0 / 3);
  auto blocking = std::make_shared<const BlockJacobiBlocking>(
      *MakeBlockJacobiBlocking({0, 2, 1, 3}, {0, 2, 4}));
  auto m = BlockJacobiPreconditioner::Create(a, blocking, ExecContext{});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ((*m)->singular_blocks(), 1);
  EXPECT_EQ((*m)->first_singular_block(), 1);
  std::vector<double> z(4);
  (*m)->Apply(ExecContext{}, std::vector<double>{1, 3, 1, 1}, z);
  for (double v : z) EXPECT_TRUE(std::isfinite(v));
  EXPECT_DOUBLE_EQ(z[1], 1.0);  // diagonal fallback: 3 / 3
  EXPECT_DOUBLE_EQ(z[3], 3.0);  // 1 / (1/3)
}

TEST(BlockJacobiPreconditioner, InvalidBlockingsAreRejected) {
  EXPECT_FALSE(MakeBlockJacobiBlocking({0, 1, 1}, {0, 3}).ok());  // repeat
  EXPECT_FALSE(MakeBlockJacobiBlocking({0, 1}, {0, 0, 2}).ok());  // empty
  std::vector<int32_t> order(33);
  for (int i = 0; i < 33; ++i) order[i] = i;
  EXPECT_FALSE(MakeBlockJacobiBlocking(order, {0, 33}).ok());  // > 32
  const CsrMatrix a = Interleaved(5);
  EXPECT_FALSE(ComputeBlockJacobiBlocking(a, 33, true).ok());
  EXPECT_FALSE(ComputeBlockJacobiBlocking(a, 0, true).ok());
  auto wrong = std::make_shared<const BlockJacobiBlocking>(
      *MakeBlockJacobiBlocking({0, 1}, {0, 2}));
  EXPECT_FALSE(BlockJacobiPreconditioner::Create(a, wrong, ExecContext{}).ok());
}

TEST(BlockJacobiPreconditioner, BlockingStagesFindTheCoupledPairs) {
  const CsrMatrix a = Interleaved(5);
  auto sv = ComputeSupervariableOrder(a, /*use_rcm=*/true);
  ASSERT_TRUE(sv.ok());
  for (Amalgamation how :
       {Amalgamation::kConsecutive, Amalgamation::kPriority}) {
    auto b = AmalgamateBlocks(a, *sv, 2, how);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->num_blocks(), 2);
    // RCM puts each coupled pair next to each other, so both ways find
    // the true blocks: 0 with 2, 1 with 3.
    EXPECT_EQ(b->block_of_row[0], b->block_of_row[2]);
    EXPECT_EQ(b->block_of_row[1], b->block_of_row[3]);
    EXPECT_EQ(b->max_block, 2);
  }
}

TEST(BlockJacobiPreconditioner, ShiftRegularizesTheBlocks) {
  const CsrMatrix a = Interleaved(1.0 / 3);  // singular block {1, 3}
  auto blocking = std::make_shared<const BlockJacobiBlocking>(
      *MakeBlockJacobiBlocking({0, 2, 1, 3}, {0, 2, 4}));
  const std::vector<double> shift(4, 1.0);
  auto m = BlockJacobiPreconditioner::Create(a, blocking, ExecContext{}, shift);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ((*m)->singular_blocks(), 0);
}

}  // namespace
}  // namespace factord
