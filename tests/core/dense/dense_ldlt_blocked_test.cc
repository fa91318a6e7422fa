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

namespace factord::internal {
namespace {

using kernels::DenseLdltCounts;
using kernels::DenseLdltParams;

struct Result {
  DenseLdltCounts counts;
  std::vector<int> order, size;
  std::vector<double> d_diag, d_off, front;
};

Result Factor(std::vector<double> a, int m, int p, DenseLdltParams params,
              bool blocked, int panel = 32) {
  Result r;
  r.order.resize(p);
  r.size.resize(p);
  r.d_diag.resize(p);
  r.d_off.resize(p);
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

// Symmetric m x m: a random sparse-ish indefinite matrix; with `saddle`, the
// last m/3 rows have a zero diagonal and no coupling among themselves.
std::vector<double> Random(int m, bool saddle, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> v(-1.0, 1.0);
  std::vector<double> a(static_cast<size_t>(m) * m, 0.0);
  const int m2 = saddle ? m / 3 : 0;
  for (int j = 0; j < m; ++j) {
    for (int i = j; i < m; ++i) {
      if (i >= m - m2 && j >= m - m2) continue;  // the zero (2,2) block
      if (i != j && v(gen) < 0.2) continue;
      const double x = i == j ? 4 * v(gen) : v(gen);
      a[static_cast<size_t>(j) * m + i] = x;
      a[static_cast<size_t>(i) * m + j] = x;
    }
  }
  return a;
}

// Negative eigenvalue count of D (1x1 and 2x2 blocks).
int Negatives(const Result& r) {
  int neg = 0;
  for (int t = 0; t < r.counts.eliminated; ++t) {
    if (r.size[t] == 2) {
      const double a = r.d_diag[t], b = r.d_off[t], c = r.d_diag[t + 1];
      const double det = a * c - b * b;
      neg += det < 0 ? 1 : (a + c < 0 ? 2 : 0);
      ++t;
    } else {
      neg += r.d_diag[t] < 0;
    }
  }
  return neg;
}

// Checks A(R, R) == [L11; L21] D [L11; L21]^T on the pivot columns and the
// alive columns' Schur complement, where R lists the pivots in order, then
// the alive fully summed columns, then the update rows. Returns max |L|.
double CheckFactor(const std::vector<double>& a, const Result& r, int m,
                   int p) {
  const int q = r.counts.eliminated;
  std::vector<int> rows(r.order.begin(), r.order.end());
  for (int i = p; i < m; ++i) rows.push_back(i);
  auto a_at = [&](int i, int j) { return a[static_cast<size_t>(j) * m + i]; };
  auto f_at = [&](int i, int j) {
    return r.front[static_cast<size_t>(j) * m + i];
  };
  // L(s, t) for s >= t over the ordered rows.
  auto l_at = [&](int s, int t) -> double {
    if (s == t) return 1.0;
    if (s < t || (r.size[t] == 2 && s == t + 1)) return 0.0;
    return f_at(rows[s], r.order[t]);
  };
  double max_l = 0, scale = 0;
  for (double x : a) scale = std::max(scale, std::fabs(x));
  const int n = static_cast<int>(rows.size());
  for (int s = 0; s < n; ++s) {
    for (int t = 0; t < q; ++t) max_l = std::max(max_l, std::fabs(l_at(s, t)));
  }
  // (L D L^T)(s, u) = sum_t L(s, t) (D L^T)(t, u).
  auto ldlt = [&](int s, int u) {
    double sum = 0;
    for (int t = 0; t < q; ++t) {
      if (r.size[t] == 2) {
        const double a0 = r.d_diag[t], b0 = r.d_off[t], c0 = r.d_diag[t + 1];
        const double ls0 = l_at(s, t), ls1 = l_at(s, t + 1);
        const double lu0 = l_at(u, t), lu1 = l_at(u, t + 1);
        sum += ls0 * (a0 * lu0 + b0 * lu1) + ls1 * (b0 * lu0 + c0 * lu1);
        ++t;
      } else {
        sum += l_at(s, t) * r.d_diag[t] * l_at(u, t);
      }
    }
    return sum;
  };
  for (int u = 0; u < p; ++u) {
    for (int s = u; s < n; ++s) {
      const double want = a_at(rows[s], rows[u]);
      if (u < q) {
        if (r.size[u] == -1) continue;  // a perturbed pivot: D differs
        EXPECT_NEAR(ldlt(s, u), want, 1e-9 * scale) << "s=" << s << " u=" << u;
      } else {
        // Alive column: Schur complement on the alive and update rows.
        EXPECT_NEAR(f_at(rows[s], rows[u]) + ldlt(s, u), want, 1e-9 * scale)
            << "alive s=" << s << " u=" << u;
      }
    }
  }
  return max_l;
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
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> v(-1.0, 1.0);
  std::vector<double> a(static_cast<size_t>(m) * m, 0.0);
  for (int i = 0; i < n1; ++i) a[static_cast<size_t>(i) * m + i] = 1.0;
  for (int j = 0; j < n2; ++j) {
    for (int i = 0; i < n1; ++i) {
      const double x = j < 40 ? v(gen) : 0.0;  // 20 empty columns
      a[static_cast<size_t>(n1 + j) * m + i] = x;
      a[static_cast<size_t>(i) * m + n1 + j] = x;
    }
  }
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
