// The Jacobi and block-Jacobi triangular sweep CUDA kernels (kernels/cuda/
// trisolve/trisolve_launch.cu, S4 eqs. 2, 4-5) under the CPU emulation,
// against the reference kernels (reference::JacobiSweep / BlockJacobiSweep)
// on the same inputs, bit for bit: every iterate of a chain of sweeps and
// the per-row / per-block status of the last. Lower and upper triangles;
// planted cases (empty strictly triangular rows, blocks of 1, 12, 17, 20
// and 32 rows, a tiny and a zero U pivot) and the IC(0) factor of 494_bus;
// several scheduler seeds.
#include <cmath>
#include <string>
#include <vector>

#include "core/trisolve/kernels/cuda/trisolve_launch.h"
#include "gtest/gtest.h"
#include "tests/core/trisolve/trisolve_cases.h"

namespace factord::emulation_testing {
namespace {

using kernels::cuda::kDeviceSweepNotFinite;
using kernels::cuda::kDeviceSweepOk;

constexpr Triangle kTriangles[] = {Triangle::kLower, Triangle::kUpper};
constexpr int kSweeps = 5;

std::string Name(const TrisolveCase& c, Triangle triangle) {
  return c.name + (triangle == Triangle::kLower ? ", lower" : ", upper");
}

void ExpectScalarSweepsMatch(const TrisolveCase& c, uint64_t seed) {
  for (Triangle triangle : kTriangles) {
    SCOPED_TRACE(Name(c, triangle) + ", scalar, seed " + std::to_string(seed));
    const SweepRun want = ReferenceJacobi(c, triangle, kSweeps);
    const SweepRun got = EmulatedJacobi(c, triangle, kSweeps, seed);
    EXPECT_EQ(FirstDifference(got, want), "");
  }
}

void ExpectBlockSweepsMatch(const TrisolveCase& c, uint64_t seed) {
  for (Triangle triangle : kTriangles) {
    SCOPED_TRACE(Name(c, triangle) + ", block, seed " + std::to_string(seed));
    std::vector<uint8_t> inverse_status;
    const std::vector<double> inverses =
        ReferenceInverses(c, triangle, &inverse_status);
    const SweepRun want = ReferenceBlockJacobi(c, triangle, inverses, kSweeps);
    const SweepRun got =
        EmulatedBlockJacobi(c, triangle, inverses, kSweeps, seed);
    EXPECT_EQ(FirstDifference(got, want), "");
    // A finite factor with invertible blocks gives finite iterates: a
    // failure would be a status, never a NaN.
    for (uint8_t s : got.status) EXPECT_EQ(s, kDeviceSweepOk);
  }
}

TEST(EmulatedTrisolve, PlantedCasesArePresent) {
  const TrisolveCase c = MakePlantedCase();
  EXPECT_EQ(c.diag[kPlantedEmptyLowerRow], c.row_ptr[kPlantedEmptyLowerRow]);
  EXPECT_EQ(c.diag[kPlantedEmptyLowerRow2], c.row_ptr[kPlantedEmptyLowerRow2]);
  EXPECT_EQ(c.diag[kPlantedEmptyUpperRow] + 1,
            c.row_ptr[kPlantedEmptyUpperRow + 1]);
  EXPECT_EQ(c.values[c.diag[kPlantedTinyPivotRow]], 1e-10);
  const auto& ptr = c.blocking.block_ptr;
  const int64_t blocks = c.blocking.num_blocks();
  EXPECT_EQ(ptr[1] - ptr[0], 1);
  EXPECT_EQ(ptr[2] - ptr[1], 12);
  EXPECT_EQ(ptr[3] - ptr[2], 32);
  EXPECT_EQ(ptr[blocks] - ptr[blocks - 1], 17);  // a partially filled warp
  EXPECT_NE(blocks % 4, 0);  // idle warps in the last CUDA block
  // The tiny pivot sits inside the block of 12.
  EXPECT_GE(kPlantedTinyPivotRow, ptr[1]);
  EXPECT_LT(kPlantedTinyPivotRow, ptr[2]);
}

TEST(EmulatedTrisolve, PlantedScalarSweepsMatchReference) {
  const TrisolveCase c = MakePlantedCase();
  for (uint64_t seed : {1, 2, 77}) ExpectScalarSweepsMatch(c, seed);
}

TEST(EmulatedTrisolve, PlantedBlockSweepsMatchReference) {
  const TrisolveCase c = MakePlantedCase();
  for (uint64_t seed : {3, 4, 78}) ExpectBlockSweepsMatch(c, seed);
}

TEST(EmulatedTrisolve, Ic0Of494BusMatchesReference) {
  const TrisolveCase c = Make494BusIc0Case();
  ASSERT_FALSE(c.name.empty()) << "494_bus.mtx or its IC(0) factor missing";
  EXPECT_EQ(c.n(), 494);
  for (uint64_t seed : {5, 6}) {
    ExpectScalarSweepsMatch(c, seed);
    ExpectBlockSweepsMatch(c, seed);
  }
}

// A zero U pivot: the scalar sweep divides by zero as the reference does
// (the same Inf / NaN bits, spreading over the chained sweeps), and marks
// the rows. The lower sweep never divides and stays finite.
TEST(EmulatedTrisolve, ZeroPivotBehavesAsTheReference) {
  const TrisolveCase c = MakeZeroPivotCase();
  const SweepRun one = EmulatedJacobi(c, Triangle::kUpper, 1, 9);
  ASSERT_EQ(one.error, "");
  EXPECT_FALSE(std::isfinite(one.iterates[0][7]));
  for (int64_t i = 0; i < c.n(); ++i) {
    EXPECT_EQ(one.status[i], i == 7 ? kDeviceSweepNotFinite : kDeviceSweepOk)
        << "row " << i;
  }
  EXPECT_EQ(FirstDifference(one, ReferenceJacobi(c, Triangle::kUpper, 1)), "");
  const SweepRun want = ReferenceJacobi(c, Triangle::kUpper, kSweeps);
  const SweepRun got = EmulatedJacobi(c, Triangle::kUpper, kSweeps, 10);
  EXPECT_EQ(FirstDifference(got, want), "");
  int64_t not_finite = 0;
  for (uint8_t s : got.status) not_finite += s == kDeviceSweepNotFinite;
  EXPECT_GT(not_finite, 1);  // spread to the rows that read row 7
  ExpectScalarSweepsMatch(c, 11);
  // The block holding the zero pivot is singular: its inverse is the
  // diagonal fallback, and the block sweep stays finite.
  ExpectBlockSweepsMatch(c, 12);
}

// Known answers, independent of the reference: T = [2 1 0; 0 4 1; 0 0 1]
// (upper) with L = [1 0 0; 3 1 0; 0 -1 1], b = (1, 2, 3), x_old = (1, 1, 1).
TEST(EmulatedTrisolve, SmallFactorHasKnownSweeps) {
  TrisolveCase c;
  c.name = "3x3";
  c.row_ptr = {0, 2, 5, 7};
  c.col_idx = {0, 1, 0, 1, 2, 1, 2};
  c.diag = {0, 3, 6};
  c.values = {2, 1, 3, 4, 1, -1, 1};
  c.b = {1, 2, 3};
  c.x0 = {1, 1, 1};
  c.blocking = *MakeBlockJacobiBlocking({0, 1, 2}, {0, 1, 3});
  // Upper Jacobi: ((1 - 1) / 2, (2 - 1) / 4, 3 / 1).
  const SweepRun upper = EmulatedJacobi(c, Triangle::kUpper, 1, 1);
  EXPECT_EQ(upper.iterates[0], (std::vector<double>{0.0, 0.25, 3.0}));
  // Lower Jacobi (unit diagonal): (1, 2 - 3, 3 + 1).
  const SweepRun lower = EmulatedJacobi(c, Triangle::kLower, 1, 2);
  EXPECT_EQ(lower.iterates[0], (std::vector<double>{1.0, -1.0, 4.0}));
  // Lower block Jacobi on blocks {0}, {1, 2}: row 1's coupling to row 0 is
  // outside its block, so x_1 = 2 - 3 = -1, and x_2 = 3 + x_1 = 2 inside.
  std::vector<uint8_t> inverse_status;
  const std::vector<double> inverses =
      ReferenceInverses(c, Triangle::kLower, &inverse_status);
  const SweepRun block =
      EmulatedBlockJacobi(c, Triangle::kLower, inverses, 1, 3);
  EXPECT_EQ(block.iterates[0], (std::vector<double>{1.0, -1.0, 2.0}));
  EXPECT_EQ(block.status, (std::vector<uint8_t>{kDeviceSweepOk, 0}));
}

}  // namespace
}  // namespace factord::emulation_testing
