// The unpivoted blocked LDL^T against the pivoting kernel it stands in for:
// on fronts where every pivot passes in order (SPD, and indefinite with a
// dominant diagonal of both signs) it succeeds and gives the pivoting
// kernel's L and D to rounding, in one thread and in an arena of two
// (bitwise the same); it fails on a zero pivot, on a pivot that fails the
// threshold against an update row, and (static pivoting) only on a zero
// pivot.
#include "core/dense/kernels/dense_ldlt_unpivoted.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/dense/kernels/dense_ldlt.h"
#include "core/kernels/cpu/parallel.h"
#include "gtest/gtest.h"
#include "tests/core/dense/partial_ldlt_check.h"

namespace factord::internal {
namespace {

using kernels::DenseLdltParams;

// An m x m symmetric front (both triangles), entries in [-0.1, 0.1] off
// the diagonal; diagonal m/10 times `sign(i)`.
std::vector<double> Front(int m, bool indefinite, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  std::vector<double> a(static_cast<size_t>(m) * m);
  for (int j = 0; j < m; ++j) {
    for (int i = j + 1; i < m; ++i) {
      const double v = u(rng);
      a[static_cast<size_t>(j) * m + i] = v;
      a[static_cast<size_t>(i) * m + j] = v;
    }
    a[static_cast<size_t>(j) * m + j] =
        (indefinite && j % 3 == 1 ? -1.0 : 1.0) * m / 10.0;
  }
  return a;
}

// Zeroes row and column j of the symmetric m x m matrix a, its diagonal
// included: a zero pivot wherever the elimination reaches it.
void ZeroVariable(std::vector<double>& a, int m, int j) {
  for (int i = 0; i < m; ++i) {
    a[static_cast<size_t>(j) * m + i] = 0;
    a[static_cast<size_t>(i) * m + j] = 0;
  }
}

struct Unpivoted {
  bool ok = false;  // every pivot taken
  int taken = 0;
  std::vector<double> f, d;
};

Unpivoted RunUnpivoted(std::vector<double> a, int m, int p,
                       const DenseLdltParams& params, int threads) {
  Unpivoted r;
  r.d.assign(p, 0.0);
  std::vector<double> w;
  kernels::cpu::ArenaFor(threads).execute([&] {
    r.taken = DenseUnpivotedLdlt(a.data(), m, p, params, r.d.data(), &w);
    r.ok = r.taken == p;
  });
  r.f = std::move(a);
  return r;
}

// The pivoting kernel's L and D in natural order (it must take every
// pivot in order for the comparison to make sense).
void ExpectMatchesPivoting(const std::vector<double>& a, int m, int p,
                           const DenseLdltParams& params) {
  std::vector<double> g = a;
  std::vector<int> order(p), size(p), work(p);
  std::vector<double> dd(p), doff(p);
  const kernels::DenseLdltCounts c = kernels::DensePartialLdlt(
      g.data(), m, p, params, order.data(), size.data(), dd.data(), doff.data(),
      work.data());
  ASSERT_EQ(c.eliminated, p);
  ASSERT_EQ(c.two_by_two, 0);
  for (int t = 0; t < p; ++t) ASSERT_EQ(order[t], t);

  const Unpivoted one = RunUnpivoted(a, m, p, params, 1);
  const Unpivoted two = RunUnpivoted(a, m, p, params, 2);
  ASSERT_TRUE(one.ok);
  ASSERT_TRUE(two.ok);
  double max_l = 0, max_diff = 0;
  for (int t = 0; t < p; ++t) {
    EXPECT_NEAR(one.d[t], dd[t], 1e-12 * std::fabs(dd[t])) << "pivot " << t;
    EXPECT_EQ(one.d[t], two.d[t]);
    for (int i = t + 1; i < m; ++i) {
      const size_t k = static_cast<size_t>(t) * m + i;
      max_l = std::max(max_l, std::fabs(g[k]));
      max_diff = std::max(max_diff, std::fabs(one.f[k] - g[k]));
      ASSERT_EQ(one.f[k], two.f[k]) << "row " << i << " column " << t;
    }
  }
  EXPECT_LE(max_diff, 1e-12 * std::max(1.0, max_l));
}

TEST(DenseUnpivotedLdlt, SpdFrontMatchesThePivotingKernel) {
  DenseLdltParams params;
  // Several blocks of fully summed columns, update rows below.
  ExpectMatchesPivoting(Front(420, false, 1), 420, 300, params);
  // The root: no update rows.
  ExpectMatchesPivoting(Front(300, false, 2), 300, 300, params);
}

TEST(DenseUnpivotedLdlt, IndefiniteDominantFrontMatchesThePivotingKernel) {
  DenseLdltParams params;
  ExpectMatchesPivoting(Front(400, true, 3), 400, 260, params);
}

TEST(DenseUnpivotedLdlt, ZeroPivotFails) {
  const int m = 300, p = 200;
  std::vector<double> a = Front(m, true, 4);
  ZeroVariable(a, m, 150);  // second block
  DenseLdltParams params;
  EXPECT_FALSE(RunUnpivoted(a, m, p, params, 2).ok);
  params.pivoting = kernels::kDenseStatic;
  EXPECT_FALSE(RunUnpivoted(a, m, p, params, 2).ok);
}

// A failed block is given back: the pivots of the blocks before it stay,
// and the columns from it on hold their Schur complement after them.
TEST(DenseUnpivotedLdlt, FailedBlockLeavesAValidPartialFactorization) {
  const int m = 300, p = 200;
  std::vector<double> a = Front(m, true, 6);
  ZeroVariable(a, m, 150);  // second block: it fails
  const Unpivoted r = RunUnpivoted(a, m, p, {}, 2);
  ASSERT_EQ(r.taken, 128);
  ldlt_check::Result check;
  check.counts.eliminated = r.taken;
  for (int t = 0; t < p; ++t) check.order.push_back(t);
  check.size.assign(p, 1);
  check.d_diag = r.d;
  check.d_off.assign(p, 0.0);
  check.front = r.f;
  ldlt_check::CheckFactor(a, check, m, p);

  // A failure in the first block gives the front back unchanged.
  ZeroVariable(a, m, 10);
  const Unpivoted first = RunUnpivoted(a, m, p, {}, 2);
  EXPECT_EQ(first.taken, 0);
  for (int j = 0; j < p; ++j) {
    for (int i = j; i < m; ++i) {
      ASSERT_EQ(first.f[static_cast<size_t>(j) * m + i],
                a[static_cast<size_t>(j) * m + i]);
    }
  }
}

TEST(DenseUnpivotedLdlt, ThresholdFailureInAnUpdateRowFails) {
  const int m = 300, p = 200;
  std::vector<double> a = Front(m, false, 5);
  // Column 10's pivot (30) is below u = 0.5 times an entry of an update row
  // (100): the pivoting kernel would not take it in order.
  a[static_cast<size_t>(10) * m + 250] = 100;
  a[static_cast<size_t>(250) * m + 10] = 100;
  a[static_cast<size_t>(250) * m + 250] = 1e4;  // the front stays SPD
  DenseLdltParams params;
  params.threshold = 0.5;
  const Unpivoted r = RunUnpivoted(a, m, p, params, 1);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.taken, 0);
  // Static pivoting has no threshold: the same front passes.
  params.pivoting = kernels::kDenseStatic;
  EXPECT_TRUE(RunUnpivoted(a, m, p, params, 1).ok);
}

}  // namespace
}  // namespace factord::internal
