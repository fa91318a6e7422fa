// Matching-based symmetric scaling on tiny hand-built matrices with known
// maximum-product matchings (a zero diagonal matched off the diagonal, a
// structurally singular matrix), optimality against brute force on small
// random matrices, and the bound |s_i a_ij s_j| <= 1 everywhere.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "core/order/scaling.h"
#include "gtest/gtest.h"
#include "tests/core/ldlt/ldlt_test_util.h"

namespace factord {
namespace {

using testing::LowerFromDense;

// max |s_i a_ij s_j| over the stored entries.
double MaxScaled(const CsrMatrix& a, const std::vector<double>& s) {
  double big = 0;
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      big = std::max(big, std::abs(s[i] * a.values[k] * s[a.col_idx[k]]));
    }
  }
  return big;
}

// |a_ij| of the dense row-major symmetric matrix.
double Mag(const std::vector<double>& a, int n, int i, int j) {
  return std::abs(a[i * n + j]);
}

TEST(MatchingScaling, DiagonallyDominantMatchesTheDiagonal) {
  const std::vector<double> a = {4, 1, 0, 1, -5, 2, 0, 2, 3};
  const CsrMatrix m = LowerFromDense(3, a);
  const MatchingScaling out = ComputeMatchingScaling(m, m.values);
  EXPECT_EQ(out.matched, 3);
  EXPECT_FALSE(out.structurally_singular());
  for (int j = 0; j < 3; ++j) EXPECT_EQ(out.match[j], j);
  EXPECT_TRUE(out.two_by_two.empty());
  // Matched (diagonal) entries scale to magnitude 1, the rest below.
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(out.scaling[i] * out.scaling[i] * Mag(a, 3, i, i), 1.0, 1e-12);
  }
  EXPECT_LE(MaxScaled(m, out.scaling), 1 + 1e-12);
}

TEST(MatchingScaling, ZeroDiagonalIsMatchedOffTheDiagonal) {
  // [[0 2] [2 0]]: the only perfect matching uses the off-diagonal pair.
  const CsrMatrix m = LowerFromDense(2, {0, 2, 2, 0}, {true, true, true, true});
  const MatchingScaling out = ComputeMatchingScaling(m, m.values);
  EXPECT_EQ(out.matched, 2);
  EXPECT_EQ(out.match[0], 1);
  EXPECT_EQ(out.match[1], 0);
  ASSERT_EQ(out.two_by_two.size(), 1u);
  EXPECT_EQ(out.two_by_two[0], std::make_pair(0, 1));
  EXPECT_NEAR(out.scaling[0] * 2 * out.scaling[1], 1.0, 1e-12);
}

TEST(MatchingScaling, PrefersTheLargerProduct) {
  // [[4 1 0] [1 0 3] [0 3 1]]: diagonal impossible (a_11 = 0); matchings
  // {a_00, a_12, a_21} = 36 and {a_01, a_10, a_22} = 1: the first wins,
  // so (1, 2) is the 2x2 candidate and 0 a 1x1.
  const std::vector<double> a = {4, 1, 0, 1, 0, 3, 0, 3, 1};
  std::vector<bool> keep(9);
  for (int k = 0; k < 9; ++k) keep[k] = a[k] != 0 || k % 4 == 0;
  const CsrMatrix m = LowerFromDense(3, a, keep);
  const MatchingScaling out = ComputeMatchingScaling(m, m.values);
  EXPECT_EQ(out.matched, 3);
  EXPECT_EQ(out.match[0], 0);
  EXPECT_EQ(out.match[1], 2);
  EXPECT_EQ(out.match[2], 1);
  ASSERT_EQ(out.two_by_two.size(), 1u);
  EXPECT_EQ(out.two_by_two[0], std::make_pair(1, 2));
  EXPECT_NEAR(out.scaling[1] * 3 * out.scaling[2], 1.0, 1e-12);
  EXPECT_NEAR(out.scaling[0] * 4 * out.scaling[0], 1.0, 1e-12);
  EXPECT_LE(MaxScaled(m, out.scaling), 1 + 1e-12);
}

TEST(MatchingScaling, StructurallySingularIsReported) {
  // Rows/columns 1 and 2 connect only to 0: structural rank 2.
  const std::vector<double> a = {0, 1, 1, 1, 0, 0, 1, 0, 0};
  std::vector<bool> keep(9);
  for (int k = 0; k < 9; ++k) keep[k] = a[k] != 0 || k % 4 == 0;
  const CsrMatrix m = LowerFromDense(3, a, keep);
  const MatchingScaling out = ComputeMatchingScaling(m, m.values);
  EXPECT_EQ(out.matched, 2);
  EXPECT_TRUE(out.structurally_singular());
  EXPECT_EQ(std::count(out.match.begin(), out.match.end(), -1), 1);
  for (double s : out.scaling) {
    EXPECT_TRUE(std::isfinite(s));
    EXPECT_GT(s, 0);
  }
  EXPECT_LE(MaxScaled(m, out.scaling), 1 + 1e-12);
}

TEST(MatchingScaling, EmptyRowIsUnmatched) {
  const CsrMatrix m =
      LowerFromDense(2, {3, 0, 0, 0}, {true, false, false, true});
  const MatchingScaling out = ComputeMatchingScaling(m, m.values);
  EXPECT_EQ(out.matched, 1);
  EXPECT_EQ(out.match[1], -1);
  EXPECT_EQ(out.scaling[1], 1.0);
}

// Small random symmetric matrices: the matching's product equals the best
// over all permutations (brute force), and every scaled entry is <= 1.
TEST(MatchingScaling, OptimalAgainstBruteForce) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> value(-1, 1);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 2 + trial % 6;
    std::vector<double> a(n * n, 0.0);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) {
        if (rng() % 3 != 0) {
          const double v = value(rng) * std::pow(10.0, rng() % 7 - 3.0);
          a[i * n + j] = a[j * n + i] = v;
        }
      }
    }
    const CsrMatrix m = LowerFromDense(n, a);
    const MatchingScaling out = ComputeMatchingScaling(m, m.values);
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    double best = -1;
    do {
      double product = 1;
      for (int j = 0; j < n; ++j) product *= Mag(a, n, perm[j], j);
      best = std::max(best, product);
    } while (std::next_permutation(perm.begin(), perm.end()));
    if (best == 0) {  // no perfect matching: structurally singular
      EXPECT_LT(out.matched, n) << "trial " << trial;
      continue;
    }
    ASSERT_EQ(out.matched, n) << "trial " << trial;
    double product = 1;
    for (int j = 0; j < n; ++j) product *= Mag(a, n, out.match[j], j);
    EXPECT_NEAR(product, best, 1e-10 * best) << "trial " << trial;
    EXPECT_LE(MaxScaled(m, out.scaling), 1 + 1e-10) << "trial " << trial;
    // Every 2x2 candidate is a stored, nonzero, matched off-diagonal pair.
    for (auto [i, j] : out.two_by_two) {
      EXPECT_LT(i, j);
      EXPECT_TRUE(out.match[j] == i || out.match[i] == j);
      EXPECT_GT(Mag(a, n, i, j), 0);
    }
  }
}

}  // namespace
}  // namespace factord
