// Method ldlt with the matching-based scaling (Scaling::kMatching): the
// same inertia and accuracy as with Ruiz on indefinite matrices with zero
// diagonals, the 2x2 candidates reported, and a structurally singular
// matrix reported as such (perturbed, inertia unreliable).
#include <memory>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/ldlt/ldlt_test_util.h"

namespace factord {
namespace {

using testing::DenseInertia;
using testing::LowerFromDense;
using testing::RunLdlt;

TEST(LdltMatchingScaling, SaddlePointMatchesDenseInertia) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> value(-1, 1);
  for (int trial = 0; trial < 8; ++trial) {
    // [H B^T; B 0] with H diagonal of mixed magnitude, B sparse.
    const int n1 = 12 + 3 * trial, n2 = 5 + trial, n = n1 + n2;
    std::vector<double> a(n * n, 0.0);
    for (int i = 0; i < n1; ++i) a[i * n + i] = std::pow(10.0, i % 7 - 3.0);
    for (int i = n1; i < n; ++i) {
      a[i * n + (i - n1)] = a[(i - n1) * n + i] = 1 + value(rng);
      for (int j = 0; j < n1; ++j) {
        if (rng() % 6 == 0) a[i * n + j] = a[j * n + i] = value(rng);
      }
    }
    std::vector<bool> keep(n * n);
    for (int k = 0; k < n * n; ++k) keep[k] = a[k] != 0 || k % (n + 1) == 0;
    const Inertia expected = DenseInertia(n, a, 1e-12);
    if (expected.zero != 0) continue;
    auto shared = std::make_shared<const CsrMatrix>(LowerFromDense(n, a, keep));
    FactorOptions options;
    options.scaling = Scaling::kMatching;
    for (Backend backend : {Backend::kReference, Backend::kCpu}) {
      auto run = RunLdlt(shared, {}, options, backend, 2);
      ASSERT_TRUE(run.ok());
      EXPECT_EQ(run->factor.inertia.positive, expected.positive);
      EXPECT_EQ(run->factor.inertia.negative, expected.negative);
      EXPECT_TRUE(run->factor.inertia_reliable);
      EXPECT_LE(run->solve.relative_residual, 1e-12) << "trial " << trial;
      EXPECT_NE(run->factor.message.find("2x2 candidates"), std::string::npos);
    }
  }
}

TEST(LdltMatchingScaling, StructurallySingularIsReported) {
  // Rows 1 and 2 connect only to row 0 (and have zero diagonals).
  const std::vector<double> a = {1, 1, 1, 1, 0, 0, 1, 0, 0};
  std::vector<bool> keep(9);
  for (int k = 0; k < 9; ++k) keep[k] = a[k] != 0 || k % 4 == 0;
  auto shared = std::make_shared<const CsrMatrix>(LowerFromDense(3, a, keep));
  FactorOptions options;
  options.scaling = Scaling::kMatching;
  auto run = RunLdlt(shared, {}, options, Backend::kReference, 1);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->factor.status, FactorStatus::kPerturbed);
  EXPECT_FALSE(run->factor.inertia_reliable);
  EXPECT_GT(run->factor.perturbed_pivots, 0);
  EXPECT_NE(run->factor.message.find("structurally singular (rank 2 of 3)"),
            std::string::npos)
      << run->factor.message;
}

}  // namespace
}  // namespace factord
