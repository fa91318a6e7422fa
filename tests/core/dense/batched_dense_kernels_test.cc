// Batched dense LU / LL^T / LDL^T (S2 §IV): tiny blocks with known outcomes
// (zero, tiny and 2x2 pivots, singular and non-SPD blocks, size 1), the cpu
// backend against the reference on the same planted batch, and the
// reconstruction ||P A Q - L U|| on random blocks and on the diagonal blocks
// of 494_bus.
#include "core/dense/kernels/batched_dense_kernels.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord::kernels {
namespace {

// A batch that owns its arrays. Blocks are column-major.
struct OwnedBatch {
  std::vector<int32_t> size;
  std::vector<int64_t> value_offset, index_offset;
  std::vector<double> values;
  std::vector<int32_t> row_perm, col_perm;
  std::vector<int8_t> pivot_size;
  std::vector<double> d_diag, d_off;
  std::vector<int8_t> status;
  std::vector<int32_t> step;

  void Add(int m, const std::vector<double>& col_major) {
    size.push_back(m);
    value_offset.push_back(static_cast<int64_t>(values.size()));
    index_offset.push_back(static_cast<int64_t>(row_perm.size()));
    values.insert(values.end(), col_major.begin(), col_major.end());
    row_perm.resize(row_perm.size() + m);
    col_perm.resize(col_perm.size() + m);
    pivot_size.resize(pivot_size.size() + m);
    d_diag.resize(d_diag.size() + m);
    d_off.resize(d_off.size() + m);
    status.push_back(-1);
    step.push_back(-2);
  }
  int64_t num_blocks() const { return static_cast<int64_t>(size.size()); }
  DenseBatch View() {
    return {size,       value_offset, index_offset, values, row_perm, col_perm,
            pivot_size, d_diag,       d_off,        status, step};
  }
  std::vector<double> Block(int64_t b) const {
    return std::vector<double>(
        values.begin() + value_offset[b],
        values.begin() + value_offset[b] + int64_t{size[b]} * size[b]);
  }
};

// max |A(rp[i], cp[j]) - F(i, j)| / max |A| for the product F of the factors.
double ReconstructionError(DenseFactorKind kind, int m,
                           const std::vector<double>& a, const OwnedBatch& out,
                           int64_t b) {
  const std::vector<double> f = out.Block(b);
  const int64_t x = out.index_offset[b];
  auto l = [&](int i, int k) -> double {
    if (kind == DenseFactorKind::kLu) {
      return i == k ? 1.0 : (i > k ? f[k * m + i] : 0.0);
    }
    return i >= k ? f[k * m + i] : 0.0;  // LLT: L; LDLT: unit L stored
  };
  auto r = [&](int k, int j) -> double {  // the right factor, row k col j
    if (kind == DenseFactorKind::kLu) return k <= j ? f[j * m + k] : 0.0;
    if (kind == DenseFactorKind::kLlt) return l(j, k);
    // (D L^T)(k, j)
    double v = 0;
    for (int t = 0; t < m; ++t) {
      double d = 0;
      if (t == k) d = out.d_diag[x + k];
      if (t == k + 1 && out.pivot_size[x + k] == 2) d = out.d_off[x + k];
      if (t == k - 1 && k > 0 && out.pivot_size[x + k - 1] == 2) {
        d = out.d_off[x + k - 1];
      }
      v += d * l(j, t);
    }
    return v;
  };
  double err = 0, scale = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      const int pi = out.row_perm[x + i], pj = out.col_perm[x + j];
      const double aij = a[pj * m + pi];
      double prod = 0;
      for (int k = 0; k < m; ++k) prod += l(i, k) * r(k, j);
      err = std::max(err, std::abs(aij - prod));
      scale = std::max(scale, std::abs(aij));
    }
  }
  return err / (scale > 0 ? scale : 1.0);
}

bool IsPermutation(const std::vector<int32_t>& p, int64_t off, int m) {
  std::vector<int> seen(m, 0);
  for (int i = 0; i < m; ++i) {
    if (p[off + i] < 0 || p[off + i] >= m || seen[p[off + i]]++) return false;
  }
  return true;
}

DenseBatchParams Params(DenseFactorKind kind, int pivoting) {
  DenseBatchParams p;
  p.kind = kind;
  p.pivoting = pivoting;
  return p;
}

ExecContext Reference() {
  ExecContext ctx;
  ctx.backend = Backend::kReference;
  return ctx;
}

ExecContext Threaded() {
  ExecContext ctx;
  ctx.backend = Backend::kCpu;
  ctx.threads = 2;
  return ctx;
}

int8_t FactorOne(DenseFactorKind kind, int pivoting, int m,
                 const std::vector<double>& a, OwnedBatch* out) {
  out->Add(m, a);
  FactorDenseBatch(Reference(), Params(kind, pivoting), out->View());
  return out->status[0];
}

TEST(BatchedDenseKernels, SizeOneBlocks) {
  OwnedBatch lu, llt, ldlt;
  EXPECT_EQ(FactorOne(DenseFactorKind::kLu, kBlockPivotFull, 1, {-3}, &lu),
            kDenseOk);
  EXPECT_EQ(lu.values[0], -3);
  EXPECT_EQ(FactorOne(DenseFactorKind::kLlt, kBlockPivotStatic, 1, {4}, &llt),
            kDenseOk);
  EXPECT_EQ(llt.values[0], 2);
  EXPECT_EQ(
      FactorOne(DenseFactorKind::kLdlt, kBlockPivotStatic, 1, {-5}, &ldlt),
      kDenseOk);
  EXPECT_EQ(ldlt.d_diag[0], -5);
}

TEST(BatchedDenseKernels, ZeroPivotStopsStaticLuButNotPartial) {
  const std::vector<double> a = {0, 1, 2, 3};  // [[0 2] [1 3]]
  OwnedBatch stat, partial;
  EXPECT_EQ(FactorOne(DenseFactorKind::kLu, kBlockPivotStatic, 2, a, &stat),
            kDenseZeroPivot);
  EXPECT_EQ(stat.step[0], 0);
  EXPECT_EQ(FactorOne(DenseFactorKind::kLu, kBlockPivotPartial, 2, a, &partial),
            kDenseOk);
  EXPECT_EQ(partial.row_perm[0], 1);  // the row of the 1 comes first
  EXPECT_LT(ReconstructionError(DenseFactorKind::kLu, 2, a, partial, 0), 1e-15);
}

TEST(BatchedDenseKernels, FullPivotingPicksTheLargestEntry) {
  // [[1 2] [3 9]]: full pivoting starts at 9 (row 1, column 1).
  const std::vector<double> a = {1, 3, 2, 9};
  OwnedBatch out;
  EXPECT_EQ(FactorOne(DenseFactorKind::kLu, kBlockPivotFull, 2, a, &out),
            kDenseOk);
  EXPECT_EQ(out.row_perm[0], 1);
  EXPECT_EQ(out.col_perm[0], 1);
  EXPECT_EQ(out.values[0], 9);
  EXPECT_LT(ReconstructionError(DenseFactorKind::kLu, 2, a, out, 0), 1e-15);
}

TEST(BatchedDenseKernels, TinyPivotIsFlaggedAndKept) {
  const std::vector<double> a = {1e-20, 1, 1, 1};
  OwnedBatch out;
  EXPECT_EQ(FactorOne(DenseFactorKind::kLu, kBlockPivotStatic, 2, a, &out),
            kDenseTinyPivot);
  EXPECT_EQ(out.step[0], 0);
}

TEST(BatchedDenseKernels, SingularBlockGivesZeroPivot) {
  const std::vector<double> ones(9, 1.0);
  OwnedBatch out;
  EXPECT_EQ(FactorOne(DenseFactorKind::kLu, kBlockPivotFull, 3, ones, &out),
            kDenseZeroPivot);
  EXPECT_EQ(out.step[0], 1);
}

TEST(BatchedDenseKernels, LltRejectsIndefiniteBlock) {
  const std::vector<double> a = {1, 2, 2, 1};  // eigenvalues 3, -1
  OwnedBatch stat, full;
  EXPECT_EQ(FactorOne(DenseFactorKind::kLlt, kBlockPivotStatic, 2, a, &stat),
            kDenseNotSpd);
  EXPECT_EQ(stat.step[0], 1);
  EXPECT_EQ(FactorOne(DenseFactorKind::kLlt, kBlockPivotFull, 2, a, &full),
            kDenseNotSpd);
}

TEST(BatchedDenseKernels, LltFullPivotingTakesTheLargestDiagonal) {
  const std::vector<double> a = {1, 1, 1, 4};
  OwnedBatch out;
  EXPECT_EQ(FactorOne(DenseFactorKind::kLlt, kBlockPivotFull, 2, a, &out),
            kDenseOk);
  EXPECT_EQ(out.row_perm[0], 1);
  EXPECT_EQ(out.values[0], 2);
  EXPECT_LT(ReconstructionError(DenseFactorKind::kLlt, 2, a, out, 0), 1e-15);
}

TEST(BatchedDenseKernels, LdltNeedsTwoByTwoPivot) {
  const std::vector<double> a = {0, 1, 1, 0};
  for (int piv : {kBlockPivotPartial, kBlockPivotRook, kBlockPivotFull}) {
    OwnedBatch out;
    EXPECT_EQ(FactorOne(DenseFactorKind::kLdlt, piv, 2, a, &out), kDenseOk)
        << piv;
    EXPECT_EQ(out.pivot_size[0], 2) << piv;
    EXPECT_LT(ReconstructionError(DenseFactorKind::kLdlt, 2, a, out, 0), 1e-15);
  }
  // Static pivoting takes no threshold 2x2 pivot, but the forced last
  // resort of DensePartialLdlt still pairs the zero with its partner.
  OwnedBatch stat;
  EXPECT_EQ(FactorOne(DenseFactorKind::kLdlt, kBlockPivotStatic, 2, a, &stat),
            kDenseOk);
  EXPECT_EQ(stat.pivot_size[0], 2);
}

TEST(BatchedDenseKernels, LdltZeroColumnIsPerturbedAndReported) {
  const std::vector<double> a = {0, 0, 0, 1};  // a zero row and column
  for (int piv : {kBlockPivotStatic, kBlockPivotPartial, kBlockPivotFull}) {
    OwnedBatch out;
    EXPECT_EQ(FactorOne(DenseFactorKind::kLdlt, piv, 2, a, &out),
              kDenseZeroPivot)
        << piv;
    EXPECT_GE(out.step[0], 0) << piv;
  }
}

TEST(BatchedDenseKernels, NonFiniteInputIsReported) {
  OwnedBatch out;
  EXPECT_EQ(FactorOne(DenseFactorKind::kLu, kBlockPivotPartial, 2,
                      {1, NAN, 0, 1}, &out),
            kDenseNotFinite);
}

std::vector<double> RandomBlock(std::mt19937* rng, int m, bool symmetric,
                                double diagonal_shift) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(m * m);
  for (double& v : a) v = u(*rng);
  if (symmetric) {
    for (int j = 0; j < m; ++j) {
      for (int i = 0; i < j; ++i) a[j * m + i] = a[i * m + j];
    }
  }
  for (int i = 0; i < m; ++i) a[i * m + i] += diagonal_shift;
  return a;
}

// A batch of mixed sizes 1..32 with planted trouble, for one kind.
OwnedBatch PlantedBatch(DenseFactorKind kind, uint32_t seed) {
  std::mt19937 rng(seed);
  OwnedBatch batch;
  const bool symmetric = kind != DenseFactorKind::kLu;
  for (int m : {1, 2, 3, 5, 8, 13, 16, 21, 31, 32, 4, 7}) {
    // SPD-ish for LL^T (shifted by m), indefinite otherwise.
    batch.Add(m, RandomBlock(&rng, m, symmetric,
                             kind == DenseFactorKind::kLlt ? m : 0.0));
  }
  batch.Add(2, {0, 1, 1, 0});                 // needs a 2x2 / row pivot
  batch.Add(3, std::vector<double>(9, 1.0));  // singular
  batch.Add(2, {1e-20, 1, 1, 1});             // tiny pivot
  batch.Add(2, {1, 2, 2, 1});                 // indefinite
  batch.Add(1, {0});                          // zero 1x1
  return batch;
}

void ExpectSameOutputs(const OwnedBatch& x, const OwnedBatch& y) {
  EXPECT_EQ(x.values, y.values);
  EXPECT_EQ(x.row_perm, y.row_perm);
  EXPECT_EQ(x.col_perm, y.col_perm);
  EXPECT_EQ(x.pivot_size, y.pivot_size);
  EXPECT_EQ(x.d_diag, y.d_diag);
  EXPECT_EQ(x.d_off, y.d_off);
  EXPECT_EQ(x.status, y.status);
  EXPECT_EQ(x.step, y.step);
}

TEST(BatchedDenseKernels, CpuMatchesReferenceOnPlantedBatches) {
  const DenseFactorKind kinds[] = {DenseFactorKind::kLu, DenseFactorKind::kLlt,
                                   DenseFactorKind::kLdlt};
  for (DenseFactorKind kind : kinds) {
    for (int piv : {kBlockPivotStatic, kBlockPivotPartial, kBlockPivotFull,
                    kBlockPivotRook}) {
      // Replicate the batch so that the cpu backend runs several chunks.
      OwnedBatch ref, cpu;
      for (uint32_t seed = 1; seed <= 6; ++seed) {
        OwnedBatch part = PlantedBatch(kind, seed);
        for (int64_t b = 0; b < part.num_blocks(); ++b) {
          ref.Add(part.size[b], part.Block(b));
          cpu.Add(part.size[b], part.Block(b));
        }
      }
      const OwnedBatch input = ref;
      reference::FactorDenseBatch(Reference(), Params(kind, piv), ref.View());
      cpu::FactorDenseBatch(Threaded(), Params(kind, piv), cpu.View());
      SCOPED_TRACE(::testing::Message()
                   << "kind " << static_cast<int>(kind) << " pivoting " << piv);
      ExpectSameOutputs(ref, cpu);
      int failures = 0;
      for (int64_t b = 0; b < ref.num_blocks(); ++b) {
        const int m = ref.size[b];
        ASSERT_TRUE(IsPermutation(ref.row_perm, ref.index_offset[b], m));
        ASSERT_TRUE(IsPermutation(ref.col_perm, ref.index_offset[b], m));
        if (ref.status[b] != kDenseOk) {
          ++failures;
          continue;
        }
        EXPECT_LT(ReconstructionError(kind, m, input.Block(b), ref, b), 1e-9)
            << "block " << b << " size " << m;
      }
      EXPECT_GT(failures, 0);  // the planted blocks are reported
    }
  }
}

TEST(BatchedDenseKernels, FullPivotingKeepsTheFactorsBounded) {
  // S2 §IV: full pivoting bounds |L| <= 1 for LU.
  std::mt19937 rng(7);
  OwnedBatch batch;
  for (int k = 0; k < 20; ++k) batch.Add(32, RandomBlock(&rng, 32, false, 0));
  const OwnedBatch input = batch;
  FactorDenseBatch(Threaded(), Params(DenseFactorKind::kLu, kBlockPivotFull),
                   batch.View());
  for (int64_t b = 0; b < batch.num_blocks(); ++b) {
    ASSERT_EQ(batch.status[b], kDenseOk);
    const std::vector<double> f = batch.Block(b);
    for (int j = 0; j < 32; ++j) {
      for (int i = j + 1; i < 32; ++i) EXPECT_LE(std::abs(f[j * 32 + i]), 1.0);
    }
    EXPECT_LT(
        ReconstructionError(DenseFactorKind::kLu, 32, input.Block(b), batch, b),
        1e-12);
  }
}

TEST(BatchedDenseKernels, DiagonalBlocksOf494Bus) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  const int n = static_cast<int>(a->rows);
  // Consecutive 16 x 16 diagonal blocks (the last one smaller): SPD, so every
  // kind and pivoting must factor them.
  std::vector<std::vector<double>> blocks;
  std::vector<int> sizes;
  for (int start = 0; start < n; start += 16) {
    const int m = std::min(16, n - start);
    std::vector<double> d(m * m, 0.0);
    for (int i = start; i < start + m; ++i) {
      for (int64_t e = a->row_ptr[i]; e < a->row_ptr[i + 1]; ++e) {
        const int j = a->col_idx[e];
        if (j < start || j >= start + m) continue;
        d[(j - start) * m + (i - start)] = a->values[e];
        d[(i - start) * m + (j - start)] = a->values[e];
      }
    }
    blocks.push_back(d);
    sizes.push_back(m);
  }
  for (DenseFactorKind kind :
       {DenseFactorKind::kLu, DenseFactorKind::kLlt, DenseFactorKind::kLdlt}) {
    for (int piv : {kBlockPivotStatic, kBlockPivotPartial, kBlockPivotFull}) {
      OwnedBatch ref, cpu;
      for (size_t b = 0; b < blocks.size(); ++b) {
        ref.Add(sizes[b], blocks[b]);
        cpu.Add(sizes[b], blocks[b]);
      }
      reference::FactorDenseBatch(Reference(), Params(kind, piv), ref.View());
      cpu::FactorDenseBatch(Threaded(), Params(kind, piv), cpu.View());
      ExpectSameOutputs(ref, cpu);
      for (size_t b = 0; b < blocks.size(); ++b) {
        ASSERT_EQ(ref.status[b], kDenseOk) << "block " << b;
        EXPECT_LT(ReconstructionError(kind, sizes[b], blocks[b], ref, b), 1e-13)
            << "block " << b << " kind " << static_cast<int>(kind);
      }
    }
  }
}

}  // namespace
}  // namespace factord::kernels
