// Fault injection: the emulated comparison with the reference must detect a
// deliberately broken build of the kernel sources (faulty_*_kernels.cc). This
// file is compiled into one executable per fault; the other kernels of the same
// source, untouched by that fault, must still match, so a detection is not an
// artefact of a broken harness.
#include <cmath>

#include "gtest/gtest.h"
#include "tests/core/block_ildlt/block_ildlt_cases.h"
#include "tests/core/block_ildlt/block_ildlt_emulated_run.h"
#include "tests/core/block_jacobi/block_jacobi_cases.h"
#include "tests/core/dense/dense_batched_cases.h"
#include "tests/core/dense/dense_ldlt_cases.h"
#include "tests/core/trisolve/trisolve_cases.h"

namespace factord::emulation_testing {
namespace {

constexpr uint64_t kScheduleSeeds[] = {1, 2, 3, 1234567};

// The comparison detects a fault when any output differs from the
// reference beyond the tolerance of the clean tests, a status differs, or a
// launch fails.
bool Detected(const BlockJacobiComparison& cmp, bool check_inverse,
              bool check_apply) {
  return !cmp.launch_error.empty() ||
         (check_inverse &&
          (cmp.status_mismatches > 0 || !(cmp.max_inverse_diff <= 1e-13))) ||
         (check_apply && !(cmp.max_apply_diff <= 1e-13));
}

// The batched dense kernel (S2 §IV) under `params` on the planted blocks:
// "" when the emulated outputs equal the reference's bit for bit, else the
// launch error or the first difference.
std::string BatchedDenseDifference(const NamedDenseParams& np, uint64_t seed) {
  const DenseBlocks input = PlantedDenseBlocks();
  const DenseBlocks want = RunReference(input, np.params);
  std::string error;
  const DenseBlocks got = RunEmulated(input, np.params, seed, &error);
  return error.empty() ? FirstDifference(got, want) : "launch: " + error;
}

// The trisolve sweeps (S4 eqs. 2, 4-5) on the planted factor, 3 sweeps:
// "" when the emulated iterates and statuses equal the reference's bit for
// bit, else the first difference. `block` selects the block sweep.
std::string TrisolveDifference(Triangle triangle, bool block, uint64_t seed) {
  const TrisolveCase c = MakePlantedCase();
  if (!block) {
    return FirstDifference(EmulatedJacobi(c, triangle, 3, seed),
                           ReferenceJacobi(c, triangle, 3));
  }
  std::vector<uint8_t> inverse_status;
  const std::vector<double> inverses =
      ReferenceInverses(c, triangle, &inverse_status);
  return FirstDifference(EmulatedBlockJacobi(c, triangle, inverses, 3, seed),
                         ReferenceBlockJacobi(c, triangle, inverses, 3));
}

// The block_ildlt numeric kernels (S1 §IV-B) on a planted case: "" when the
// emulated factor equals the serial reference's bit for bit, else the
// first difference.
std::string BlockIldltDifference(const std::string& name, uint64_t seed) {
  const BlockIldltCase c = PlantedBlockIldltCase(name);
  return FirstDifference(EmulatedBlockIldlt(c, seed), ReferenceBlockIldlt(c),
                         *c.s);
}

const char* const kBlockIldltFaultCases[] = {
    "chain with dropping", "blocks of 32, rook",
    "uneven blocks, fill level 1, dropping"};

// A fault that the trisolve kernels do not reach leaves them right.
[[maybe_unused]] void ExpectTrisolveUnaffected() {
  for (Triangle triangle : {Triangle::kLower, Triangle::kUpper}) {
    EXPECT_EQ(TrisolveDifference(triangle, /*block=*/false, 7), "");
    EXPECT_EQ(TrisolveDifference(triangle, /*block=*/true, 8), "");
  }
}

#if defined(FACTORD_FAULT_WRONG_SHUFFLE_LANE)
// The block sweep broadcasts r_lj by __shfl_sync: with the next lane's
// residual in its place the block product is wrong (a block of 1 reads an
// idle lane's 0). The scalar sweep has no shuffle: still right.
TEST(EmulatedFaultInjection, DetectsWrongShuffleSourceLaneInBlockTrisolve) {
  for (Triangle triangle : {Triangle::kLower, Triangle::kUpper}) {
    for (uint64_t seed : kScheduleSeeds) {
      const std::string difference =
          TrisolveDifference(triangle, /*block=*/true, seed);
      EXPECT_NE(difference, "") << "seed " << seed;
      std::printf("[wrong shuffle lane] block trisolve %s seed %llu: %s\n",
                  triangle == Triangle::kLower ? "lower" : "upper",
                  static_cast<unsigned long long>(seed), difference.c_str());
    }
    EXPECT_EQ(TrisolveDifference(triangle, /*block=*/false, 9), "");
  }
  // Not only the block of 1 (which reads an idle lane): nearly every row
  // of the first sweep is wrong.
  const TrisolveCase c = MakePlantedCase();
  std::vector<uint8_t> inverse_status;
  const std::vector<double> inverses =
      ReferenceInverses(c, Triangle::kLower, &inverse_status);
  const SweepRun got = EmulatedBlockJacobi(c, Triangle::kLower, inverses, 1, 4);
  const SweepRun want = ReferenceBlockJacobi(c, Triangle::kLower, inverses, 1);
  int64_t wrong_rows = 0;
  for (int64_t i = 0; i < c.n(); ++i) {
    wrong_rows += got.iterates[0][i] != want.iterates[0][i];
  }
  std::printf("[wrong shuffle lane] block trisolve: %lld of %lld rows wrong\n",
              static_cast<long long>(wrong_rows),
              static_cast<long long>(c.n()));
  EXPECT_GT(wrong_rows, c.n() / 2);
}
TEST(EmulatedFaultInjection, DetectsWrongShuffleSourceLaneInGaussJordan) {
  for (const BlockJacobiCase& c :
       {MakePlantedEdgeCases(), MakeRandomCase(9, 31)}) {
    for (uint64_t seed : kScheduleSeeds) {
      SCOPED_TRACE(c.name + ", schedule seed " + std::to_string(seed));
      const BlockJacobiComparison cmp = CompareWithReference(c, seed);
      EXPECT_TRUE(Detected(cmp, /*check_inverse=*/true, /*check_apply=*/false))
          << "inverse diff " << cmp.max_inverse_diff << ", status mismatches "
          << cmp.status_mismatches;
      // The apply kernel has no __shfl_sync: still right.
      EXPECT_FALSE(Detected(cmp, false, true)) << cmp.max_apply_diff;
      std::printf(
          "[wrong shuffle lane] %s seed %llu: inverse diff %g, "
          "%lld status mismatches\n",
          c.name.c_str(), static_cast<unsigned long long>(seed),
          cmp.max_inverse_diff, static_cast<long long>(cmp.status_mismatches));
    }
  }
}

TEST(EmulatedFaultInjection, DetectsWrongShuffleSourceLaneInDenseLdlt) {
  const LdltBatch batch = PlantedBatch();
  DenseLdltParams params;  // Bunch-Kaufman, u = 0.01
  const LdltOutputs want = RunReference(batch, params);
  for (uint64_t seed : kScheduleSeeds) {
    SCOPED_TRACE("schedule seed " + std::to_string(seed));
    std::string error;
    const LdltOutputs got = RunEmulated(batch, params, seed, &error);
    EXPECT_TRUE(!error.empty() || !SameOutputs(got, want));
  }
}

// Every kind and pivoting broadcasts pivots and pivot rows by __shfl_sync.
TEST(EmulatedFaultInjection, DetectsWrongShuffleSourceLaneInBatchedDense) {
  for (const NamedDenseParams& np : AllDenseParams()) {
    const std::string difference = BatchedDenseDifference(np, 5);
    EXPECT_NE(difference, "") << np.name;
    std::printf("[wrong shuffle lane] batched dense %s: %s\n", np.name.c_str(),
                difference.c_str());
  }
}
#endif

#if defined(FACTORD_FAULT_WRONG_SHUFFLE_LANE) || \
    defined(FACTORD_FAULT_WRONG_XOR_STRIDE)
// The block_ildlt kernels have no shuffle: no false alarm.
TEST(EmulatedFaultInjection, BlockIldltWithoutShufflesStillMatches) {
  for (const char* name : kBlockIldltFaultCases) {
    EXPECT_EQ(BlockIldltDifference(name, 3), "") << name;
  }
}
#endif

#if defined(FACTORD_FAULT_MISSING_SYNCTHREADS)
// Without its barriers lane 0 factorizes the diagonal block before the
// other lanes have copied it to shared memory, the pull update reads
// W = L(J,K) D_K before the other threads have written it, and Finish reads
// its radix histogram and tie offsets unfinished: the factor differs from
// the reference's (the first difference is in the first diagonal block).
TEST(EmulatedFaultInjection, DetectsMissingSyncthreadsInBlockIldlt) {
  for (const char* name : kBlockIldltFaultCases) {
    for (uint64_t seed : kScheduleSeeds) {
      const std::string difference = BlockIldltDifference(name, seed);
      EXPECT_NE(difference, "") << name << ", seed " << seed;
      std::printf("[missing __syncthreads] block_ildlt %s seed %llu: %s\n",
                  name, static_cast<unsigned long long>(seed),
                  difference.c_str());
    }
  }
}

TEST(EmulatedFaultInjection, DetectsMissingSyncthreadsInBlockDiagonalApply) {
  for (const BlockJacobiCase& c :
       {MakePlantedEdgeCases(), MakeRandomCase(9, 31)}) {
    for (uint64_t seed : kScheduleSeeds) {
      SCOPED_TRACE(c.name + ", schedule seed " + std::to_string(seed));
      const BlockJacobiComparison cmp = CompareWithReference(c, seed);
      EXPECT_TRUE(Detected(cmp, false, true)) << cmp.max_apply_diff;
      // The Gauss-Jordan kernel has no __syncthreads: still right.
      EXPECT_FALSE(Detected(cmp, true, false)) << cmp.max_inverse_diff;
      std::printf("[missing __syncthreads] %s seed %llu: apply diff %g\n",
                  c.name.c_str(), static_cast<unsigned long long>(seed),
                  cmp.max_apply_diff);
    }
  }
}

// The dense LDL^T kernel has no __syncthreads: this fault leaves it right,
// and the comparison says so (no false alarm).
TEST(EmulatedFaultInjection, DenseLdltWithoutSyncthreadsStillMatches) {
  const LdltBatch batch = PlantedBatch();
  DenseLdltParams params;
  const LdltOutputs want = RunReference(batch, params);
  std::string error;
  const LdltOutputs got = RunEmulated(batch, params, 1, &error);
  EXPECT_EQ(error, "");
  EXPECT_TRUE(SameOutputs(got, want));
}

// Nor have the trisolve sweeps: no false alarm.
TEST(EmulatedFaultInjection, TrisolveWithoutSyncthreadsStillMatches) {
  ExpectTrisolveUnaffected();
}

// Nor has the batched dense kernel: no false alarm for any kind.
TEST(EmulatedFaultInjection, BatchedDenseWithoutSyncthreadsStillMatches) {
  for (const NamedDenseParams& np : AllDenseParams()) {
    EXPECT_EQ(BatchedDenseDifference(np, 6), "") << np.name;
  }
}
#endif

#if defined(FACTORD_FAULT_WRONG_XOR_STRIDE)
// Kinds x pivotings whose pivot search is a warp reduction (WarpArgMax):
// LU partial/full/rook, LL^T full/partial/rook, LDL^T full (Bunch-Parlett).
bool SearchesByReduction(const kernels::DenseBatchParams& p) {
  if (p.pivoting == kernels::kBlockPivotStatic) return false;
  return p.kind != kernels::DenseFactorKind::kLdlt ||
         p.pivoting == kernels::kBlockPivotFull;
}

// The pivot search of the batched dense kernel is a butterfly reduction;
// without its first stage the two half warps pick different pivots.
TEST(EmulatedFaultInjection, DetectsWrongReductionLaneInBatchedDensePivoting) {
  int searched = 0;
  for (const NamedDenseParams& np : AllDenseParams()) {
    if (!SearchesByReduction(np.params)) continue;
    ++searched;
    for (uint64_t seed : kScheduleSeeds) {
      const std::string difference = BatchedDenseDifference(np, seed);
      EXPECT_NE(difference, "") << np.name << ", seed " << seed;
      std::printf("[wrong xor stride] batched dense %s seed %llu: %s\n",
                  np.name.c_str(), static_cast<unsigned long long>(seed),
                  difference.c_str());
    }
  }
  EXPECT_EQ(searched, 8);
}

// The Gauss-Jordan pivot search (S3 §3.1) is the same kind of reduction.
TEST(EmulatedFaultInjection, DetectsWrongReductionLaneInGaussJordan) {
  for (const BlockJacobiCase& c :
       {MakePlantedEdgeCases(), MakeRandomCase(9, 31)}) {
    for (uint64_t seed : kScheduleSeeds) {
      SCOPED_TRACE(c.name + ", schedule seed " + std::to_string(seed));
      const BlockJacobiComparison cmp = CompareWithReference(c, seed);
      EXPECT_TRUE(Detected(cmp, /*check_inverse=*/true, /*check_apply=*/false))
          << "inverse diff " << cmp.max_inverse_diff;
      // The apply kernel has no reduction (it runs on the reference's
      // inverses): still right, although the launch error is shared.
      EXPECT_LE(cmp.max_apply_diff, 1e-13);
      std::printf(
          "[wrong xor stride] Gauss-Jordan %s seed %llu: %s\n", c.name.c_str(),
          static_cast<unsigned long long>(seed),
          cmp.launch_error.empty()
              ? ("inverse diff " + std::to_string(cmp.max_inverse_diff)).c_str()
              : cmp.launch_error.c_str());
    }
  }
}

// The trisolve sweeps have no reduction (the block status is a vote):
// still right.
TEST(EmulatedFaultInjection, TrisolveWithoutReductionsStillMatches) {
  ExpectTrisolveUnaffected();
}

// The dense LDL^T kernel of the fronts searches by gathered columns, not by
// reductions: this fault leaves it right (no false alarm).
TEST(EmulatedFaultInjection, DenseLdltWithoutReductionsStillMatches) {
  const LdltBatch batch = PlantedBatch();
  DenseLdltParams params;
  const LdltOutputs want = RunReference(batch, params);
  std::string error;
  const LdltOutputs got = RunEmulated(batch, params, 1, &error);
  EXPECT_EQ(error, "");
  EXPECT_TRUE(SameOutputs(got, want));
}
#endif

}  // namespace
}  // namespace factord::emulation_testing
