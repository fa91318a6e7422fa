// The batched dense factorization CUDA kernel (kernels/cuda/dense/
// batched_dense_launch.cu: S2 §IV LU / LL^T / LDL^T, one warp per block)
// under the CPU emulation, against the reference kernel
// (reference::FactorDenseBatch) on the same inputs, for every kind x
// pivoting, bit for bit: factors, permutations, D, pivot sizes, statuses and
// steps. Several scheduler seeds; planted edge cases and random blocks.
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/dense/dense_batched_cases.h"

namespace factord::emulation_testing {
namespace {

using kernels::kDenseNotFinite;
using kernels::kDenseNotSpd;
using kernels::kDenseOk;
using kernels::kDenseTinyPivot;
using kernels::kDenseZeroPivot;

// What the planted batch made the reference do, summed over all params:
// so that a test asserts the planted paths are taken, not just agreed on.
struct PathCounts {
  int64_t by_status[5] = {0, 0, 0, 0, 0};
  int64_t two_by_two = 0;
  int64_t row_exchanges = 0;
  int64_t col_exchanges = 0;
};

void Count(const DenseBlocks& out, PathCounts* counts) {
  for (int8_t s : out.status) ++counts->by_status[s];
  for (int8_t p : out.pivot_size) counts->two_by_two += p == 2;
  for (int64_t b = 0; b < out.num_blocks(); ++b) {
    for (int i = 0; i < out.size[b]; ++i) {
      counts->row_exchanges += out.row_perm[out.index_offset[b] + i] != i;
      counts->col_exchanges += out.col_perm[out.index_offset[b] + i] != i;
    }
  }
}

// Blocks whose entries are all finite and moderate (|a| <= 1e3).
std::vector<bool> ModerateBlocks(const DenseBlocks& in) {
  std::vector<bool> moderate(in.num_blocks(), true);
  for (int64_t b = 0; b < in.num_blocks(); ++b) {
    const int64_t m = in.size[b];
    for (int64_t e = 0; e < m * m; ++e) {
      const double v = in.values[in.value_offset[b] + e];
      if (!(std::fabs(v) <= 1e3)) moderate[b] = false;
    }
  }
  return moderate;
}

// The first non-finite output of a moderate block, or "".
std::string FirstNonFinite(const DenseBlocks& got,
                           const std::vector<bool>& moderate) {
  for (int64_t b = 0; b < got.num_blocks(); ++b) {
    if (!moderate[b]) continue;
    const int64_t m = got.size[b];
    for (int64_t e = 0; e < m * m; ++e) {
      if (!std::isfinite(got.values[got.value_offset[b] + e])) {
        return "block " + std::to_string(b) + " value " + std::to_string(e) +
               ", status " + std::to_string(got.status[b]);
      }
    }
    for (int64_t i = 0; i < m; ++i) {
      if (!std::isfinite(got.d_diag[got.index_offset[b] + i]) ||
          !std::isfinite(got.d_off[got.index_offset[b] + i])) {
        return "block " + std::to_string(b) + " D entry " + std::to_string(i);
      }
    }
  }
  return "";
}

// Runs every params (of `only_kind`, when given) on `input` under its own
// seed (first_seed + index) and expects the emulated outputs to equal the
// reference's bit for bit.
PathCounts ExpectMatchesReference(const DenseBlocks& input, uint64_t first_seed,
                                  const DenseFactorKind* only_kind = nullptr) {
  PathCounts counts;
  const std::vector<bool> moderate = ModerateBlocks(input);
  uint64_t seed = first_seed;
  for (const NamedDenseParams& np : AllDenseParams()) {
    ++seed;
    if (only_kind != nullptr && np.params.kind != *only_kind) continue;
    SCOPED_TRACE(np.name + ", schedule seed " + std::to_string(seed));
    const DenseBlocks want = RunReference(input, np.params);
    std::string error;
    const DenseBlocks got = RunEmulated(input, np.params, seed, &error);
    EXPECT_EQ(error, "");
    EXPECT_EQ(FirstDifference(got, want), "");
    Count(want, &counts);
    // A failure is a status, never a NaN: a block with moderate finite
    // entries has finite outputs whatever its status.
    EXPECT_EQ(FirstNonFinite(got, moderate), "");
  }
  return counts;
}

TEST(EmulatedDenseBatch, PlantedBlocksMatchReferenceForEveryKindAndPivoting) {
  const PathCounts counts = ExpectMatchesReference(PlantedDenseBlocks(), 10);
  // The planted cases reach the paths they are meant to.
  EXPECT_GT(counts.by_status[kDenseOk], 0);
  EXPECT_GT(counts.by_status[kDenseTinyPivot], 0);
  EXPECT_GT(counts.by_status[kDenseZeroPivot], 0);
  EXPECT_GT(counts.by_status[kDenseNotSpd], 0);
  EXPECT_GT(counts.by_status[kDenseNotFinite], 0);
  EXPECT_GT(counts.two_by_two, 0);
  EXPECT_GT(counts.row_exchanges, 0);
  EXPECT_GT(counts.col_exchanges, 0);
}

TEST(EmulatedDenseBatch, RandomLuBlocksMatchReference) {
  const DenseFactorKind kind = DenseFactorKind::kLu;
  ExpectMatchesReference(RandomDenseBlocks(kind, 12, 7), 100, &kind);
}

TEST(EmulatedDenseBatch, RandomSpdBlocksMatchReference) {
  const DenseFactorKind kind = DenseFactorKind::kLlt;
  ExpectMatchesReference(RandomDenseBlocks(kind, 12, 8), 200, &kind);
}

TEST(EmulatedDenseBatch, RandomIndefiniteBlocksMatchReference) {
  const DenseFactorKind kind = DenseFactorKind::kLdlt;
  ExpectMatchesReference(RandomDenseBlocks(kind, 12, 9), 300, &kind);
}

// Known answers, independent of the reference: the statuses and pivots the
// planted small blocks must get from the kernel itself.
TEST(EmulatedDenseBatch, PlantedBlocksHaveKnownStatuses) {
  DenseBlocks in;
  in.Add(2, {0.0, 1.0, 1.0, 0.0});  // [0 1; 1 0]
  in.Add(2, {1.0, 2.0, 2.0, 4.0});  // singular
  in.Add(1, {-2.0});
  std::string error;
  DenseBatchParams p;
  p.kind = DenseFactorKind::kLu;
  p.pivoting = kernels::kBlockPivotStatic;
  DenseBlocks lu = RunEmulated(in, p, 1, &error);
  ASSERT_EQ(error, "");
  EXPECT_EQ(lu.status[0], kDenseZeroPivot);
  EXPECT_EQ(lu.step[0], 0);
  EXPECT_EQ(lu.status[1], kDenseZeroPivot);
  EXPECT_EQ(lu.step[1], 1);
  EXPECT_EQ(lu.status[2], kDenseOk);
  p.pivoting = kernels::kBlockPivotPartial;
  lu = RunEmulated(in, p, 2, &error);
  EXPECT_EQ(lu.status[0], kDenseOk);
  EXPECT_EQ(lu.row_perm[0], 1);  // the row of the 1 comes first
  p.kind = DenseFactorKind::kLlt;
  const DenseBlocks llt = RunEmulated(in, p, 3, &error);
  EXPECT_EQ(llt.status[0], kDenseNotSpd);
  EXPECT_EQ(llt.status[2], kDenseNotSpd);
  p.kind = DenseFactorKind::kLdlt;  // Bunch-Kaufman: one 2x2 pivot
  const DenseBlocks ldlt = RunEmulated(in, p, 4, &error);
  EXPECT_EQ(ldlt.status[0], kDenseOk);
  EXPECT_EQ(ldlt.pivot_size[0], 2);
  EXPECT_EQ(ldlt.d_off[0], 1.0);
  EXPECT_EQ(ldlt.status[1], kDenseZeroPivot);  // perturbed, completes
  EXPECT_EQ(ldlt.d_diag[in.index_offset[2]], -2.0);
  EXPECT_EQ(error, "");
}

}  // namespace
}  // namespace factord::emulation_testing
