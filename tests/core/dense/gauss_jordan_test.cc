// The shared dense Gauss-Jordan inverse (S3 §2.3): known inverses, blocks
// that need pivoting, tiny but regular pivots, singular blocks, and the
// fallback that keeps a singular block finite.
#include "core/dense/kernels/gauss_jordan.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace factord::kernels {
namespace {

// max |(A * inverse - I)_ij|
double IdentityError(int m, const std::vector<double>& a,
                     const std::vector<double>& inverse) {
  double error = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      double sum = 0;
      for (int k = 0; k < m; ++k) sum += a[i * m + k] * inverse[k * m + j];
      error = std::max(error, std::abs(sum - (i == j ? 1.0 : 0.0)));
    }
  }
  return error;
}

TEST(GaussJordan, OneByOne) {
  const double a = -4.0;
  double inverse = 0;
  EXPECT_EQ(GaussJordanInvert(1, &a, &inverse), -1);
  EXPECT_EQ(inverse, -0.25);
}

TEST(GaussJordan, ZeroLeadingPivotNeedsPivoting) {
  // Without pivoting the first step divides by 0.
  const std::vector<double> a = {0, 2, 0,  //
                                 3, 0, 1,  //
                                 0, 1, 5};
  std::vector<double> inverse(9);
  ASSERT_EQ(GaussJordanInvert(3, a.data(), inverse.data()), -1);
  EXPECT_LT(IdentityError(3, a, inverse), 1e-15);
}

TEST(GaussJordan, PermutationMatrixInverseIsItsTranspose) {
  const std::vector<double> a = {0, 0, 1,  //
                                 1, 0, 0,  //
                                 0, 1, 0};
  std::vector<double> inverse(9);
  ASSERT_EQ(GaussJordanInvert(3, a.data(), inverse.data()), -1);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(inverse[i * 3 + j], a[j * 3 + i]);
  }
}

TEST(GaussJordan, TinyPivotOfABadlyScaledRowIsNotSingular) {
  const std::vector<double> a = {1, 0,  //
                                 0, 1e-200};
  std::vector<double> inverse(4);
  ASSERT_EQ(GaussJordanInvert(2, a.data(), inverse.data()), -1);
  EXPECT_EQ(inverse[3], 1e200);
}

TEST(GaussJordan, SmallPivotIsPickedOverByPartialPivoting) {
  const std::vector<double> a = {1e-18, 1,  //
                                 1, 1};
  std::vector<double> inverse(4);
  ASSERT_EQ(GaussJordanInvert(2, a.data(), inverse.data()), -1);
  EXPECT_LT(IdentityError(2, a, inverse), 1e-15);
}

TEST(GaussJordan, RandomFullBlocksOfEverySize) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int m = 1; m <= kMaxGaussJordanSize; ++m) {
    std::vector<double> a(m * m), inverse(m * m);
    for (double& v : a) v = u(rng);
    for (int i = 0; i < m; ++i) a[i * m + i] += 0.5 * (i % 2 ? 1 : -1);
    ASSERT_EQ(GaussJordanInvert(m, a.data(), inverse.data()), -1) << m;
    EXPECT_LT(IdentityError(m, a, inverse), 1e-9) << m;
  }
}

TEST(GaussJordan, SingularBlocksAreReportedAtTheFailingStep) {
  const std::vector<double> rank_one = {1, 2,  //
                                        2, 4};
  std::vector<double> inverse(4);
  EXPECT_EQ(GaussJordanInvert(2, rank_one.data(), inverse.data()), 1);
  const std::vector<double> zero(9, 0.0);
  std::vector<double> inverse3(9);
  EXPECT_EQ(GaussJordanInvert(3, zero.data(), inverse3.data()), 0);
  // Rank deficient up to rounding: the pivot is tiny relative to its row.
  const std::vector<double> nearly = {1, 1.0 / 3,  //
                                      3, 1};
  EXPECT_GE(GaussJordanInvert(2, nearly.data(), inverse.data()), 0);
}

TEST(GaussJordan, NonFiniteInputIsSingular) {
  const std::vector<double> a = {1, NAN,  //
                                 0, 1};
  std::vector<double> inverse(4);
  EXPECT_GE(GaussJordanInvert(2, a.data(), inverse.data()), 0);
}

TEST(GaussJordan, FallbackIsTheInverseDiagonalWithOneForZeros) {
  const std::vector<double> a = {2, 5, 1,  //
                                 5, 0, 7,  //
                                 1, 7, -4};
  std::vector<double> inverse(9, NAN);
  DiagonalInverseFallback(3, a.data(), inverse.data());
  EXPECT_EQ(inverse, (std::vector<double>{0.5, 0, 0, 0, 1, 0, 0, 0, -0.25}));
}

}  // namespace
}  // namespace factord::kernels
