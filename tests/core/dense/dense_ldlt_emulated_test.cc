// The batched dense LDL^T CUDA kernel (kernels/cuda/factor/
// dense_ldlt_launch.cu) under the CPU emulation, against the host routine
// DensePartialLdlt (core/dense/kernels/dense_ldlt.h) block by block, for every
// pivoting strategy, with and without `force`, and several scheduler seeds.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/dense/dense_ldlt_cases.h"

namespace factord::emulation_testing {
namespace {

// Bitwise comparison (NaN payloads included), reporting the first mismatch.
template <typename T>
void ExpectSameBits(const std::vector<T>& got, const std::vector<T>& want,
                    const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) {
    if (std::memcmp(&got[k], &want[k], sizeof(T)) != 0) {
      ADD_FAILURE() << what << "[" << k << "]: " << got[k] << " vs reference "
                    << want[k];
      return;
    }
  }
}

struct NamedParams {
  const char* name;
  DenseLdltParams params;
};

std::vector<NamedParams> AllParams() {
  std::vector<NamedParams> all;
  for (bool force : {false, true}) {
    DenseLdltParams p;
    p.force = force;
    p.pivoting = kernels::kDenseStatic;
    all.push_back({force ? "static+force" : "static", p});
    p.pivoting = kernels::kDenseBunchKaufman;
    p.threshold = 0.01;
    all.push_back({force ? "bk0.01+force" : "bk0.01", p});
    p.threshold = 0.5;
    all.push_back({force ? "bk0.5+force" : "bk0.5", p});
    p.pivoting = kernels::kDenseRook;
    p.threshold = 0.1;
    all.push_back({force ? "rook0.1+force" : "rook0.1", p});
    // Over a zero delay budget, the second pass with the weak threshold.
    p.pivoting = kernels::kDenseBunchKaufman;
    p.threshold = 0.5;
    p.delay_budget = 0;
    p.weak_threshold = 1e-3;
    all.push_back({force ? "bk0.5/weak+force" : "bk0.5/weak", p});
  }
  return all;
}

// Each strategy runs under its own scheduler seed (first_seed + index), so
// that a run covers several interleavings without repeating every case.
void ExpectBatchMatchesReference(const LdltBatch& batch, uint64_t first_seed,
                                 bool planted) {
  int64_t two_by_two = 0, delayed = 0, perturbed = 0;
  uint64_t seed = first_seed;
  for (const NamedParams& np : AllParams()) {
    ++seed;
    const LdltOutputs want = RunReference(batch, np.params);
    for (const DenseLdltCounts& c : want.counts) {
      two_by_two += c.two_by_two;
      perturbed += c.perturbed;
    }
    for (size_t b = 0; b < want.counts.size(); ++b) {
      delayed += (batch.pivot_ptr[b + 1] - batch.pivot_ptr[b]) -
                 want.counts[b].eliminated;
    }
    {
      SCOPED_TRACE(std::string(np.name) + ", schedule seed " +
                   std::to_string(seed));
      std::string error;
      const LdltOutputs got = RunEmulated(batch, np.params, seed, &error);
      ASSERT_EQ(error, "");
      ExpectSameBits(got.values, want.values, "factor");
      ExpectSameBits(got.d_diag, want.d_diag, "d_diag");
      ExpectSameBits(got.d_off, want.d_off, "d_off");
      ExpectSameBits(got.order, want.order, "order");
      ExpectSameBits(got.size, want.size, "size");
      for (size_t b = 0; b < want.counts.size(); ++b) {
        EXPECT_EQ(got.counts[b].eliminated, want.counts[b].eliminated) << b;
        EXPECT_EQ(got.counts[b].two_by_two, want.counts[b].two_by_two) << b;
        EXPECT_EQ(got.counts[b].perturbed, want.counts[b].perturbed) << b;
        EXPECT_EQ(got.counts[b].zero, want.counts[b].zero) << b;
      }
    }
  }
  // The planted cases do exercise the paths they are meant to (random
  // blocks usually factor with 1x1 and 2x2 pivots only).
  EXPECT_GT(two_by_two, 0);
  if (planted) {
    EXPECT_GT(delayed, 0);
    EXPECT_GT(perturbed, 0);
  }
}

TEST(EmulatedDenseLdlt, PlantedBlocksMatchReferenceForEveryPivoting) {
  ExpectBatchMatchesReference(PlantedBatch(), 0, /*planted=*/true);
}

TEST(EmulatedDenseLdlt, RandomIndefiniteBlocksMatchReference) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> size(1, 32);
  LdltBatch batch;
  for (int b = 0; b < 6; ++b) {
    const int m = size(rng);
    batch.Add(m, RandomLower(m, rng, 0.4));
  }
  ExpectBatchMatchesReference(batch, 100, /*planted=*/false);
}

TEST(EmulatedDenseLdlt, TwoByTwoPivotHasKnownFactors) {
  // [0 1; 1 0] is one 2x2 pivot D = [0 1; 1 0] under Bunch-Kaufman.
  LdltBatch batch;
  batch.Add(2, {0.0, 1.0, 0.0});
  DenseLdltParams p;
  std::string error;
  const LdltOutputs got = RunEmulated(batch, p, 7, &error);
  ASSERT_EQ(error, "");
  EXPECT_EQ(got.counts[0].eliminated, 2);
  EXPECT_EQ(got.counts[0].two_by_two, 1);
  EXPECT_EQ(got.size[0], 2);
  EXPECT_EQ(got.size[1], 0);
  EXPECT_EQ(got.d_diag[0], 0.0);
  EXPECT_EQ(got.d_off[0], 1.0);
  EXPECT_EQ(got.d_diag[1], 0.0);
}

}  // namespace
}  // namespace factord::emulation_testing
