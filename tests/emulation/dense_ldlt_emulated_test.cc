// The batched dense LDL^T CUDA kernel (kernels/cuda/factor/
// dense_ldlt_launch.cu) under the CPU emulation, against the host routine
// DensePartialLdlt (kernels/common/dense_ldlt.h) block by block, for every
// pivoting strategy, with and without `force`, and several scheduler seeds.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/dense_ldlt.h"
#include "kernels/cuda/factor/dense_ldlt_launch.h"
#include "tests/emulation/cuda_emulation.h"

namespace factord::emulation_testing {
namespace {

using kernels::DenseLdltCounts;
using kernels::DenseLdltParams;

// Symmetric blocks, column-major with both triangles.
struct LdltBatch {
  std::vector<int64_t> value_ptr{0};
  std::vector<int64_t> pivot_ptr{0};
  std::vector<double> values;

  void Add(int m, const std::vector<double>& lower_rows) {
    // lower_rows: the lower triangle row by row (m (m + 1) / 2 values).
    std::vector<double> f(static_cast<size_t>(m) * m);
    size_t k = 0;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j <= i; ++j, ++k) {
        f[j * m + i] = f[i * m + j] = lower_rows[k];
      }
    }
    values.insert(values.end(), f.begin(), f.end());
    value_ptr.push_back(value_ptr.back() + int64_t{m} * m);
    pivot_ptr.push_back(pivot_ptr.back() + m);
  }
  int64_t num_blocks() const { return int64_t(pivot_ptr.size()) - 1; }
};

std::vector<double> RandomLower(int m, std::mt19937_64& rng,
                                double zero_diagonal_fraction) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<double> lower;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j <= i; ++j) {
      double v = value(rng);
      if (i == j && coin(rng) < zero_diagonal_fraction) v = 0.0;
      lower.push_back(v);
    }
  }
  return lower;
}

// Planted: blocks of size 1 (positive, zero, negative), a pure 2x2 pivot,
// a zero block, a singular 3x3, tiny diagonals next to large couplings, a
// KKT-like block with a zero (2,2) part, a rank-one block, random
// indefinite blocks partially filling the warp, and full 32-row ones; 17
// blocks, so the last CUDA block has idle warps.
LdltBatch PlantedBatch() {
  std::mt19937_64 rng(99);
  LdltBatch batch;
  batch.Add(1, {5.0});
  batch.Add(1, {0.0});
  batch.Add(1, {-2.0});
  batch.Add(2, {0.0, 1.0, 0.0});
  batch.Add(2, {0.0, 0.0, 0.0});
  batch.Add(3, {0.0, 1.0, 0.0, 0.0, 1.0, 0.0});
  batch.Add(2, {1e-20, 1.0, 1e-20});
  batch.Add(3, {1e-3, 1.0, 1e-3, 0.5, 0.25, 2.0});
  {  // KKT: [H A^T; A 0] with H 5x5 SPD-ish, A 3x5
    std::vector<double> lower;
    for (int i = 0; i < 8; ++i) {
      for (int j = 0; j <= i; ++j) {
        double v = 0;
        if (i < 5)
          v = (i == j) ? 2.0 + i : 0.1 * (i - j);
        else if (j < 5)
          v = ((i + 2 * j) % 3) - 1.0;
        lower.push_back(v);
      }
    }
    batch.Add(8, lower);
  }
  {  // rank one: v v^T
    std::vector<double> v = {1, -2, 3, 0.5, -1, 2};
    std::vector<double> lower;
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j <= i; ++j) lower.push_back(v[i] * v[j]);
    }
    batch.Add(6, lower);
  }
  batch.Add(5, RandomLower(5, rng, 0.5));
  batch.Add(17, RandomLower(17, rng, 0.3));
  batch.Add(31, RandomLower(31, rng, 0.2));
  batch.Add(32, RandomLower(32, rng, 0.0));
  batch.Add(32, RandomLower(32, rng, 0.6));
  batch.Add(12, RandomLower(12, rng, 1.0));  // zero diagonal throughout
  batch.Add(4, {0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0});
  return batch;
}

struct LdltOutputs {
  std::vector<double> values, d_diag, d_off;
  std::vector<int> order, size;
  std::vector<DenseLdltCounts> counts;
};

LdltOutputs Sentinel(const LdltBatch& batch) {
  const size_t n = batch.pivot_ptr.back();
  LdltOutputs out;
  out.values = batch.values;
  out.d_diag.assign(n, -3.5e99);
  out.d_off.assign(n, -3.5e99);
  out.order.assign(n, -99);
  out.size.assign(n, -99);
  out.counts.assign(batch.num_blocks(), DenseLdltCounts{-1, -1, -1, -1});
  return out;
}

LdltOutputs RunReference(const LdltBatch& batch, const DenseLdltParams& p) {
  LdltOutputs out = Sentinel(batch);
  for (int64_t b = 0; b < batch.num_blocks(); ++b) {
    const int m = static_cast<int>(batch.pivot_ptr[b + 1] - batch.pivot_ptr[b]);
    const int64_t first = batch.pivot_ptr[b];
    std::vector<int> work(m);
    out.counts[b] = kernels::DensePartialLdlt(
        out.values.data() + batch.value_ptr[b], m, m, p,
        out.order.data() + first, out.size.data() + first,
        out.d_diag.data() + first, out.d_off.data() + first, work.data());
  }
  return out;
}

LdltOutputs RunEmulated(const LdltBatch& batch, const DenseLdltParams& p,
                        uint64_t seed, std::string* error) {
  LdltOutputs out = Sentinel(batch);
  kernels::cuda::DeviceDenseLdltBatch device;
  device.num_blocks = batch.num_blocks();
  device.value_ptr = batch.value_ptr.data();
  device.pivot_ptr = batch.pivot_ptr.data();
  emulation::SetScheduleSeed(seed);
  if (kernels::cuda::LaunchDenseLdltBatch(
          device, p, out.values.data(), out.order.data(), out.size.data(),
          out.d_diag.data(), out.d_off.data(), out.counts.data(),
          nullptr) != cudaSuccess) {
    *error = emulation::LastLaunchError();
  }
  return out;
}

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
