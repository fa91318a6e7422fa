// The a-posteriori pivoting kernel against its contract and against the
// pivoting kernel on the same inputs: L D L^T reproduces the eliminated
// part and the alive columns hold their Schur complement (through the
// kernel's permutation), |L| <= 1/u, the inertia of a complete
// factorization is the pivoting kernel's (Sylvester), only the lower
// triangle of the fully summed columns is read and the contribution block is
// left alone. Planted cases: saddle points whose 2x2 partners lie in other
// blocks, a block that keeps no pivot (it is retried last), tiny pivots,
// a rank-deficient forced root, fronts the pivoting kernel must finish.
#include "core/dense/kernels/dense_ldlt_app.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/dense/kernels/dense_ldlt_blocked.h"
#include "core/dense/kernels/dense_ldlt_unpivoted.h"
#include "core/kernels/cpu/parallel.h"
#include "gtest/gtest.h"
#include "tests/core/dense/partial_ldlt_check.h"

namespace factord::internal {
namespace {

using kernels::DenseLdltParams;
using ldlt_check::CheckFactor;
using ldlt_check::Negatives;
using ldlt_check::Random;
using ldlt_check::Result;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Runs the kernel on `a` (both triangles) with the entries it must not read
// set to NaN: the upper triangle of the fully summed columns and the whole
// contribution block. Checks that the contribution block is untouched.
Result App(const std::vector<double>& a, int m, int p, DenseLdltParams params,
           int block) {
  std::vector<double> f = a;
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < m; ++i) {
      if (j >= p || i < j) f[static_cast<size_t>(j) * m + i] = kNaN;
    }
  }
  Result r = ldlt_check::SizedFor(p);
  r.perm.resize(p);
  r.counts = DenseAppPartialLdlt(f.data(), m, p, params, r.perm.data(),
                                 r.order.data(), r.size.data(), r.d_diag.data(),
                                 r.d_off.data(), block);
  for (int j = p; j < m; ++j) {
    for (int i = 0; i < m; ++i) {
      EXPECT_TRUE(std::isnan(f[static_cast<size_t>(j) * m + i]))
          << "contribution block written at " << i << "," << j;
    }
  }
  // The checks read A(R, R) through perm, and L D L^T from f's lower
  // triangle (and the alive block, both triangles).
  r.front = std::move(f);
  return r;
}

Result Pivoting(std::vector<double> a, int m, int p, DenseLdltParams params) {
  Result r = ldlt_check::SizedFor(p);
  r.counts =
      DenseBlockedPartialLdlt(a.data(), m, p, params, r.order.data(),
                              r.size.data(), r.d_diag.data(), r.d_off.data());
  r.front = std::move(a);
  return r;
}

bool IsPermutation(const std::vector<int>& perm) {
  std::vector<char> seen(perm.size(), 0);
  for (int v : perm) {
    if (v < 0 || v >= static_cast<int>(perm.size()) || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}

// [H B; B^T 0] with H diagonal (h on it) and B n1 x n2 dense random,
// interleaved so that a multiplier follows every few primal variables and
// a block of consecutive columns rarely holds a pivot's best partner.
std::vector<double> Saddle(int n1, int n2, double h, unsigned seed) {
  const int m = n1 + n2;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> v(-1.0, 1.0);
  // Position of primal i and multiplier j in the interleaved order.
  std::vector<int> pos_primal(n1), pos_mult(n2);
  for (int i = 0, t = 0, j = 0; t < m; ++t) {
    if (j < n2 && (t % 3 == 2 || i == n1)) {
      pos_mult[j++] = t;
    } else {
      pos_primal[i++] = t;
    }
  }
  std::vector<double> a(static_cast<size_t>(m) * m, 0.0);
  auto set = [&](int r, int c, double x) {
    a[static_cast<size_t>(c) * m + r] = x;
    a[static_cast<size_t>(r) * m + c] = x;
  };
  for (int i = 0; i < n1; ++i) set(pos_primal[i], pos_primal[i], h);
  for (int j = 0; j < n2; ++j) {
    for (int i = 0; i < n1; ++i) set(pos_primal[i], pos_mult[j], v(gen));
  }
  return a;
}

TEST(DenseAppLdlt, RandomIndefiniteMeetsTheContract) {
  for (int pivoting : {kernels::kDenseBunchKaufman, kernels::kDenseRook}) {
    for (bool saddle : {false, true}) {
      for (int block : {16, 64}) {
        const int m = 260, p = 200;
        const std::vector<double> a = Random(m, saddle, 17 + pivoting);
        DenseLdltParams params;
        params.pivoting = pivoting;
        const Result r = App(a, m, p, params, block);
        ASSERT_TRUE(IsPermutation(r.perm));
        const double max_l = CheckFactor(a, r, m, p);
        EXPECT_LE(max_l, 1 / params.threshold + 1e-9);
        EXPECT_GT(r.counts.eliminated, p / 2)
            << "pivoting " << pivoting << " saddle " << saddle;
      }
    }
  }
}

TEST(DenseAppLdlt, RandomShapesMeetTheContract) {
  // Fronts of many shapes (rows, fully summed columns, block width,
  // saddle-point or not, pivoting, root or not, small diagonals planted):
  // the factorization reproduces the front through the permutation, and
  // every pivot taken at the threshold has |L| <= 1/u.
  std::mt19937 shapes(2026);
  for (int trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE(trial);
    const int m = 40 + static_cast<int>(shapes() % 220);
    const int p = 1 + static_cast<int>(shapes() % m);
    const int block = 8 << (shapes() % 4);  // 8 .. 64
    const bool saddle = shapes() % 2 == 0;
    std::vector<double> a = Random(m, saddle, 100 + trial);
    if (shapes() % 3 == 0) {  // tiny diagonal entries here and there
      for (int j = 0; j < m; j += 7) a[static_cast<size_t>(j) * m + j] = 1e-14;
    }
    DenseLdltParams params;
    params.pivoting =
        shapes() % 2 == 0 ? kernels::kDenseBunchKaufman : kernels::kDenseRook;
    params.force = p == m && shapes() % 2 == 0;
    const Result r = App(a, m, p, params, block);
    ASSERT_TRUE(IsPermutation(r.perm));
    ASSERT_LE(r.counts.eliminated, p);
    if (params.force) {
      EXPECT_EQ(r.counts.eliminated, p);
    }
    const double max_l = CheckFactor(a, r, m, p);
    if (r.counts.weak == 0 && r.counts.perturbed == 0) {
      EXPECT_LE(max_l, 1 / params.threshold + 1e-9);
    }
  }
}

TEST(DenseAppLdlt, CompleteFactorizationHasThePivotingKernelsInertia) {
  for (unsigned seed : {21u, 22u, 23u}) {
    for (bool saddle : {false, true}) {
      const int m = 180;
      const std::vector<double> a = Random(m, saddle, seed);
      DenseLdltParams params;
      params.force = true;
      const Result app = App(a, m, m, params, 32);
      const Result piv = Pivoting(a, m, m, params);
      ASSERT_EQ(app.counts.eliminated, m);
      ASSERT_EQ(piv.counts.eliminated, m);
      EXPECT_EQ(app.counts.perturbed, 0);
      EXPECT_EQ(Negatives(app), Negatives(piv));
      CheckFactor(a, app, m, m);
    }
  }
}

TEST(DenseAppLdlt, SaddlePartnersInOtherBlocksAreKeptLater) {
  // Small diagonal on the primal columns (they fail the 1x1 test) and zero
  // on the multipliers: the pivots are 2x2, with a partner that is often
  // outside the block. Failed columns are retried at the head of the next
  // block. Without update rows the front is nonsingular and every pivot is
  // taken; with update rows (the last r multipliers) the threshold on them
  // leaves columns alive, no more than the pivoting kernel leaves.
  const int n1 = 200, n2 = 100;
  for (int r : {0, 40}) {
    const int m = n1 + n2 + r, p = n1 + n2;
    const std::vector<double> a = Saddle(n1, n2 + r, 1e-3, 5);
    DenseLdltParams params;
    const Result app = App(a, m, p, params, 32);
    ASSERT_TRUE(IsPermutation(app.perm));
    const double max_l = CheckFactor(a, app, m, p);
    EXPECT_LE(max_l, 1 / params.threshold + 1e-9);
    EXPECT_GT(app.counts.two_by_two, 0);
    EXPECT_EQ(app.counts.perturbed, 0);
    if (r == 0) {
      // Sylvester: n1 positive and n2 negative pivots.
      EXPECT_EQ(app.counts.eliminated, p);
      EXPECT_EQ(Negatives(app), n2);
    } else {
      const Result piv = Pivoting(a, m, p, params);
      EXPECT_GE(app.counts.eliminated, piv.counts.eliminated);
    }
  }
}

TEST(DenseAppLdlt, BlockWithoutPivotIsRetriedLast) {
  // [0 B; B^T I]: the first block (the zero block) has no pivot of its
  // own (its local factorization perturbs the zero columns and the test on
  // the rows below rejects them): it moves to the end, the identity part is
  // taken, and then the zero block's Schur complement -B^T B, all by blocks,
  // none perturbed.
  const int n0 = 32, n1 = 64, m = n0 + n1 + 20;
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> v(-1.0, 1.0);
  std::vector<double> a(static_cast<size_t>(m) * m, 0.0);
  auto set = [&](int r, int c, double x) {
    a[static_cast<size_t>(c) * m + r] = x;
    a[static_cast<size_t>(r) * m + c] = x;
  };
  for (int j = 0; j < n0; ++j) {
    for (int i = n0; i < m; ++i) set(i, j, v(gen));
  }
  for (int i = n0; i < m; ++i) set(i, i, 1.0);
  const int p = n0 + n1;
  DenseLdltParams params;
  const Result app = App(a, m, p, params, n0);
  ASSERT_TRUE(IsPermutation(app.perm));
  EXPECT_EQ(app.counts.perturbed, 0);
  EXPECT_EQ(app.counts.eliminated, p);
  EXPECT_EQ(Negatives(app), n0);
  // Blocks took every pivot in order, the zero block's variables last.
  for (int t = 0; t < p; ++t) EXPECT_EQ(app.order[t], t);
  for (int t = n1; t < p; ++t) EXPECT_LT(app.perm[t], n0) << t;
  const double max_l = CheckFactor(a, app, m, p);
  EXPECT_LE(max_l, 1 / params.threshold + 1e-9);
}

TEST(DenseAppLdlt, ContinuesFromTheUnpivotedKernelsPivots) {
  // A dominant diagonal on the first 150 columns, and column 200 coupled
  // to the update rows only, with a zero diagonal: the unpivoted kernel
  // keeps its first block and stops at the second; the blocked pivoting
  // kernel takes the rest from there (column 200 stays alive).
  const int m = 400, p = 300;
  std::vector<double> a = Random(m, false, 31);
  for (int j = 0; j < 150; ++j) a[static_cast<size_t>(j) * m + j] = 50.0;
  for (int i = 0; i < p; ++i) {
    a[static_cast<size_t>(200) * m + i] = 0;
    a[static_cast<size_t>(i) * m + 200] = 0;
  }
  std::vector<double> f = a;
  std::vector<double> d(p), scratch;
  DenseLdltParams params;
  const int taken =
      DenseUnpivotedLdlt(f.data(), m, p, params, d.data(), &scratch);
  ASSERT_EQ(taken, 128);
  Result r = ldlt_check::SizedFor(p);
  r.d_diag = d;
  r.perm.resize(p);
  r.counts = DenseAppPartialLdlt(f.data(), m, p, params, r.perm.data(),
                                 r.order.data(), r.size.data(), r.d_diag.data(),
                                 r.d_off.data(), 32, taken);
  r.front = std::move(f);
  ASSERT_TRUE(IsPermutation(r.perm));
  for (int t = 0; t < taken; ++t) {
    EXPECT_EQ(r.perm[t], t);
    EXPECT_EQ(r.size[t], 1);
  }
  EXPECT_GT(r.counts.eliminated, taken);
  const double max_l = CheckFactor(a, r, m, p);
  EXPECT_LE(max_l, 1 / params.threshold + 1e-9);
}

TEST(DenseAppLdlt, BitwiseTheSameOnOneAndTwoThreads) {
  // Wide enough for several update chunks and row chunks of the solve.
  const int m = 1100, p = 600;
  const std::vector<double> a = Random(m, true, 41);
  DenseLdltParams params;
  Result one, two;
  kernels::cpu::ArenaFor(1).execute([&] { one = App(a, m, p, params, 64); });
  kernels::cpu::ArenaFor(2).execute([&] { two = App(a, m, p, params, 64); });
  ASSERT_GT(one.counts.eliminated, p / 2);
  EXPECT_EQ(one.counts.eliminated, two.counts.eliminated);
  EXPECT_EQ(one.perm, two.perm);
  EXPECT_EQ(one.order, two.order);
  EXPECT_EQ(one.d_diag, two.d_diag);
  EXPECT_EQ(one.d_off, two.d_off);
  for (size_t k = 0; k < one.front.size(); ++k) {
    if (std::isnan(one.front[k]) && std::isnan(two.front[k])) continue;
    ASSERT_EQ(one.front[k], two.front[k]) << "entry " << k;
  }
}

TEST(DenseAppLdlt, TinyPivotsAreNotTaken) {
  // Tiny diagonal entries (1e-20) with O(1) columns: no 1x1 pivot on them;
  // they go as 2x2 pivots or stay alive, never perturbed.
  const int m = 150, p = 120;
  std::vector<double> a = Random(m, false, 9);
  for (int j = 0; j < p; j += 5) a[static_cast<size_t>(j) * m + j] = 1e-20;
  DenseLdltParams params;
  const Result app = App(a, m, p, params, 16);
  EXPECT_EQ(app.counts.perturbed, 0);
  const double max_l = CheckFactor(a, app, m, p);
  EXPECT_LE(max_l, 1 / params.threshold + 1e-9);
  for (int t = 0; t < app.counts.eliminated; ++t) {
    if (app.size[t] == 1) {
      EXPECT_GT(std::fabs(app.d_diag[t]), 1e-15) << "pivot " << t;
    }
  }
}

TEST(DenseAppLdlt, RankDeficientRootPerturbsTheNullColumns) {
  // [I B; B^T 0] with B of rank 40 of 60 columns: the forced root ends with
  // 20 null pivots, perturbed as by the pivoting kernel.
  const int n1 = 80, n2 = 60, m = n1 + n2;
  const std::vector<double> a = ldlt_check::RankDeficientSaddle(n1, n2, 40, 11);
  DenseLdltParams params;
  params.force = true;
  const Result app = App(a, m, m, params, 16);
  EXPECT_EQ(app.counts.eliminated, m);
  EXPECT_EQ(app.counts.perturbed, 20);
  EXPECT_EQ(Negatives(app), 40);
  CheckFactor(a, app, m, m);
}

TEST(DenseAppLdlt, DelaysWhatNoPivotCanTake) {
  // Fully summed columns coupled only to update rows, with a zero diagonal
  // block: no pivot passes anywhere; every column stays alive with its
  // Schur complement (here the input), as the pivoting kernel leaves it.
  const int p = 40, m = 100;
  std::mt19937 gen(13);
  std::uniform_real_distribution<double> v(-1.0, 1.0);
  std::vector<double> a(static_cast<size_t>(m) * m, 0.0);
  for (int j = 0; j < p; ++j) {
    for (int i = p; i < m; ++i) {
      const double x = v(gen);
      a[static_cast<size_t>(j) * m + i] = x;
      a[static_cast<size_t>(i) * m + j] = x;
    }
  }
  DenseLdltParams params;
  const Result app = App(a, m, p, params, 16);
  const Result piv = Pivoting(a, m, p, params);
  EXPECT_EQ(app.counts.eliminated, piv.counts.eliminated);
  EXPECT_EQ(app.counts.perturbed, piv.counts.perturbed);
  CheckFactor(a, app, m, p);
}

}  // namespace
}  // namespace factord::internal
