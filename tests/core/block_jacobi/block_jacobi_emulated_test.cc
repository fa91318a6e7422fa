// The block-Jacobi CUDA kernels (kernels/cuda/block_jacobi/
// block_jacobi_launch.cu) run under the CPU emulation and compared with the
// reference kernels on the same inputs, for several scheduler seeds.
#include <cmath>

#include "core/emulation/cuda_emulation.h"
#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"
#include "tests/core/block_jacobi/block_jacobi_cases.h"

namespace factord::emulation_testing {
namespace {

constexpr uint64_t kScheduleSeeds[] = {1, 2, 3, 1234567};
// The kernel performs the reference's operations in the reference's order;
// under the emulation (no FMA contraction) the results agree to the bit,
// and the tolerance only guards against a compiler contracting differently.
constexpr double kTolerance = 1e-13;

void ExpectMatchesReference(const BlockJacobiCase& c, uint64_t seed) {
  SCOPED_TRACE(c.name + ", schedule seed " + std::to_string(seed));
  const BlockJacobiComparison cmp = CompareWithReference(c, seed);
  EXPECT_EQ(cmp.launch_error, "");
  EXPECT_EQ(cmp.status_mismatches, 0);
  EXPECT_LE(cmp.max_extract_diff, 0.0);
  EXPECT_LE(cmp.max_inverse_diff, kTolerance);
  EXPECT_LE(cmp.max_apply_diff, kTolerance);
  EXPECT_FALSE(cmp.non_finite_output);
  if (!cmp.bitwise_equal) {
    ADD_FAILURE() << "not bitwise equal to the reference (inverse diff "
                  << cmp.max_inverse_diff << ", apply diff "
                  << cmp.max_apply_diff << ")";
  }
}

TEST(EmulatedBlockJacobi, HandComputedInverses) {
  // [[0 1][1 0]] needs an exchange; [[2 1][1 2]]^-1 = [[2 -1][-1 2]] / 3;
  // [[0]] is singular and gets the fallback 1.
  const BlockJacobiCase c =
      MakeCase("hand", {{0.0, 1.0, 1.0, 0.0}, {2.0, 1.0, 1.0, 2.0}, {0.0}}, 11);
  std::vector<double> blocks(c.value_ptr.back()), inverses(blocks.size());
  std::vector<uint8_t> status(3, 0xee);
  const ExecContext ctx{.backend = Backend::kReference};
  kernels::reference::ExtractDiagonalBlocks(ctx, c.a, c.Layout(), blocks);
  emulation::SetScheduleSeed(5);
  ASSERT_EQ(kernels::cuda::LaunchInvertDiagonalBlocks(
                c.DeviceLayout(), blocks.data(), inverses.data(), status.data(),
                nullptr),
            cudaSuccess)
      << emulation::LastLaunchError();
  const std::vector<double> expected = {
      0.0, 1.0, 1.0, 0.0, 2.0 / 3.0, -1.0 / 3.0, -1.0 / 3.0, 2.0 / 3.0, 1.0};
  ASSERT_EQ(inverses.size(), expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    EXPECT_NEAR(inverses[k], expected[k], 1e-15) << "entry " << k;
  }
  EXPECT_EQ(status[0], kernels::kBlockOk);
  EXPECT_EQ(status[1], kernels::kBlockOk);
  EXPECT_EQ(status[2], kernels::kBlockSingular);
}

TEST(EmulatedBlockJacobi, PlantedEdgeCasesMatchReference) {
  const BlockJacobiCase c = MakePlantedEdgeCases();
  // The planted singular blocks: the zero 1x1, the exactly singular, the
  // rank-deficient, the non-finite, the zero-row and the dependent ones.
  const BlockJacobiComparison probe = CompareWithReference(c, 0);
  EXPECT_GE(probe.singular_blocks, 6);
  for (uint64_t seed : kScheduleSeeds) ExpectMatchesReference(c, seed);
}

TEST(EmulatedBlockJacobi, RandomBlocksMatchReference) {
  for (uint64_t seed : {21u, 22u, 23u}) {
    const BlockJacobiCase c = MakeRandomCase(23, seed);
    ExpectMatchesReference(c, seed);
  }
}

TEST(EmulatedBlockJacobi, RealMatrixBlocksMatchReference) {
  absl::StatusOr<CsrMatrix> lower =
      ReadMatrixMarket(factord::testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(lower.ok()) << lower.status();
  const CsrMatrix a = ExpandSymmetric(*lower);
  for (int block_size : {1, 7, 32}) {
    ExpectMatchesReference(
        MakeCaseFromMatrix("494_bus/" + std::to_string(block_size), a,
                           block_size),
        block_size);
  }
}

TEST(EmulatedBlockJacobi, EmptyLayoutLaunchesNothing) {
  const BlockJacobiCase c = MakeCase("empty", {}, 3);
  const int64_t launches = emulation::Stats().launches;
  EXPECT_EQ(kernels::cuda::LaunchInvertDiagonalBlocks(
                c.DeviceLayout(), nullptr, nullptr, nullptr, nullptr),
            cudaSuccess);
  EXPECT_EQ(emulation::Stats().launches, launches);
}

}  // namespace
}  // namespace factord::emulation_testing
