// The blocked partial LDL^T against its contract: on fronts wider than a
// panel (random indefinite, saddle-point with zero diagonals whose 2x2
// partners lie in other panels, a rank-deficient root), L D L^T reproduces
// the eliminated part, the alive columns hold the exact Schur complement,
// |L| <= 1/u, the inertia equals the unblocked kernel's, and for a front
// within one panel the result is bit-for-bit DensePartialLdlt's.
#include "core/dense/kernels/dense_ldlt_blocked.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/dense/partial_ldlt_check.h"

namespace factord::internal {
namespace {

using kernels::DenseLdltCounts;
using kernels::DenseLdltParams;
using ldlt_check::CheckFactor;
using ldlt_check::Negatives;
using ldlt_check::Random;
using ldlt_check::Result;

Result Factor(std::vector<double> a, int m, int p, DenseLdltParams params,
              bool blocked, int panel = 32) {
  Result r = ldlt_check::SizedFor(p);
  if (blocked) {
    r.counts = DenseBlockedPartialLdlt(a.data(), m, p, params, r.order.data(),
                                       r.size.data(), r.d_diag.data(),
                                       r.d_off.data(), panel);
  } else {
    std::vector<int> work(p);
    r.counts = kernels::DensePartialLdlt(a.data(), m, p, params, r.order.data(),
                                         r.size.data(), r.d_diag.data(),
                                         r.d_off.data(), work.data());
  }
  r.front = std::move(a);
  return r;
}

TEST(DenseBlockedLdlt, WithinOnePanelIsTheUnblockedKernel) {
  const int m = 40, p = 30;
  const std::vector<double> a = Random(m, true, 1);
  const Result blocked = Factor(a, m, p, {}, true);
  const Result plain = Factor(a, m, p, {}, false);
  EXPECT_EQ(blocked.order, plain.order);
  EXPECT_EQ(blocked.size, plain.size);
  EXPECT_EQ(blocked.d_diag, plain.d_diag);
  EXPECT_EQ(blocked.front, plain.front);
}

TEST(DenseBlockedLdlt, RandomIndefiniteEveryPivoting) {
  for (int pivoting : {kernels::kDenseStatic, kernels::kDenseBunchKaufman,
                       kernels::kDenseRook}) {
    for (bool saddle : {false, true}) {
      const int m = 150, p = 120;
      const std::vector<double> a = Random(m, saddle, 7 + pivoting);
      DenseLdltParams params;
      params.pivoting = pivoting;
      const Result r = Factor(a, m, p, params, true, 16);
      const double max_l = CheckFactor(a, r, m, p);
      if (pivoting != kernels::kDenseStatic) {
        EXPECT_LE(max_l, 1 / params.threshold + 1e-9);
      }
      EXPECT_GT(r.counts.eliminated, p / 2);
    }
  }
}

TEST(DenseBlockedLdlt, ForcedRootMatchesUnblockedInertia) {
  for (unsigned seed : {3u, 4u, 5u}) {
    const int m = 130;
    const std::vector<double> a = Random(m, true, seed);
    DenseLdltParams params;
    params.force = true;
    const Result blocked = Factor(a, m, m, params, true, 16);
    const Result plain = Factor(a, m, m, params, false);
    ASSERT_EQ(blocked.counts.eliminated, m);
    EXPECT_EQ(blocked.counts.perturbed, plain.counts.perturbed);
    EXPECT_EQ(Negatives(blocked), Negatives(plain));
    CheckFactor(a, blocked, m, m);
  }
}

TEST(DenseBlockedLdlt, RankDeficientRootPerturbsTheNullColumns) {
  // Saddle point [I B; B^T 0] with B of rank 40 of 60 columns: 20 null
  // pivots, forced at the root, exactly as many as the unblocked kernel.
  const int n1 = 80, n2 = 60, m = n1 + n2;
  const std::vector<double> a = ldlt_check::RankDeficientSaddle(n1, n2, 40, 11);
  DenseLdltParams params;
  params.force = true;
  const Result blocked = Factor(a, m, m, params, true, 16);
  const Result plain = Factor(a, m, m, params, false);
  EXPECT_EQ(blocked.counts.eliminated, m);
  EXPECT_EQ(blocked.counts.perturbed, 20);
  EXPECT_EQ(plain.counts.perturbed, 20);
  EXPECT_EQ(Negatives(blocked), 40);
  CheckFactor(a, blocked, m, m);
}

}  // namespace
}  // namespace factord::internal
