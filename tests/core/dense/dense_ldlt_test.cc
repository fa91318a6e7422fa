// The dense partial LDL^T with pivoting (S1 §IV-B1) on planted cases: a zero
// diagonal that needs a 2x2 pivot, a pivot that must be delayed, the forced
// root with a perturbed zero pivot, and L D L^T == A on random indefinite
// matrices for every pivoting strategy.
#include "core/dense/kernels/dense_ldlt.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace factord::kernels {
namespace {

struct Result {
  DenseLdltCounts counts;
  std::vector<int> order, size;
  std::vector<double> d_diag, d_off, front;
};

// `a` is m x m column-major symmetric (both triangles).
Result Factor(std::vector<double> a, int m, int p, DenseLdltParams params) {
  Result r;
  r.order.resize(p);
  r.size.resize(p);
  r.d_diag.resize(p);
  r.d_off.resize(p);
  std::vector<int> work(p);
  r.counts =
      DensePartialLdlt(a.data(), m, p, params, r.order.data(), r.size.data(),
                       r.d_diag.data(), r.d_off.data(), work.data());
  r.front = std::move(a);
  return r;
}

TEST(DenseLdlt, ZeroDiagonalTakesTwoByTwo) {
  const Result r = Factor({0, 1, 1, 0}, 2, 2, {});
  EXPECT_EQ(r.counts.eliminated, 2);
  EXPECT_EQ(r.counts.two_by_two, 1);
  EXPECT_EQ(r.size[0], 2);
  EXPECT_EQ(r.size[1], 0);
  EXPECT_DOUBLE_EQ(r.d_off[0], 1.0);
}

TEST(DenseLdlt, PivotWhoseLargeEntryIsAnUpdateRowIsDelayed) {
  // Fully summed column 0 has a zero diagonal and its only entry in update
  // row 1: no pivot can be formed inside this front.
  const std::vector<double> a = {0, 1, 1, 5};
  const Result r = Factor(a, 2, 1, {});
  EXPECT_EQ(r.counts.eliminated, 0);
  EXPECT_EQ(r.order[0], 0);  // left alive, for the parent
}

TEST(DenseLdlt, TinyPivotFailsTheThresholdButNotTheWeakPass) {
  // |a00| = 1e-5 < u * 1: delayed with the default budget, taken when the
  // budget is exhausted (weak threshold 1e-10).
  const std::vector<double> a = {1e-5, 1, 1, 5};
  DenseLdltParams params;
  EXPECT_EQ(Factor(a, 2, 1, params).counts.eliminated, 0);
  params.delay_budget = 0;
  EXPECT_EQ(Factor(a, 2, 1, params).counts.eliminated, 1);
}

TEST(DenseLdlt, ForcedRootPerturbsAZeroPivot) {
  DenseLdltParams params;
  params.force = true;
  params.perturbation = 1e-8;
  const Result r = Factor({0, 0, 0, 3}, 2, 2, params);
  EXPECT_EQ(r.counts.eliminated, 2);
  EXPECT_EQ(r.counts.perturbed, 1);
  EXPECT_EQ(r.counts.zero, 1);
  int perturbed = 0;
  for (int t = 0; t < 2; ++t) perturbed += r.size[t] == -1;
  EXPECT_EQ(perturbed, 1);
}

TEST(DenseLdlt, ReconstructsRandomIndefiniteMatrices) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> value(-1, 1);
  for (int pivoting : {kDenseStatic, kDenseBunchKaufman, kDenseRook}) {
    for (int m : {1, 2, 5, 17, 40}) {
      std::vector<double> a(m * m);
      for (int j = 0; j < m; ++j) {
        for (int i = j; i < m; ++i) {
          double v = value(rng);
          if (i == j && j % 4 == 1 && pivoting != kDenseStatic) v = 0;
          a[j * m + i] = a[i * m + j] = v;
        }
      }
      DenseLdltParams params;
      params.pivoting = pivoting;
      params.force = true;
      const Result r = Factor(a, m, m, params);
      ASSERT_EQ(r.counts.eliminated, m);
      ASSERT_EQ(r.counts.perturbed, 0);
      // Dense L (in pivot order) and D, then compare P A P^T with L D L^T.
      std::vector<double> l(m * m, 0.0), d(m * m, 0.0);
      for (int t = 0; t < m; ++t) {
        l[t * m + t] = 1;
        const int first = r.size[t] == 2 ? t + 2 : t + 1;
        for (int s = first; s < m; ++s) {
          l[t * m + s] = r.front[r.order[t] * m + r.order[s]];
        }
        d[t * m + t] = r.d_diag[t];
        if (r.size[t] == 2) d[t * m + t + 1] = d[(t + 1) * m + t] = r.d_off[t];
      }
      double worst = 0;
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
          double sum = 0;
          for (int s = 0; s < m; ++s) {
            for (int t = 0; t < m; ++t) {
              sum += l[s * m + i] * d[t * m + s] * l[t * m + j];
            }
          }
          worst =
              std::max(worst, std::abs(sum - a[r.order[j] * m + r.order[i]]));
        }
      }
      EXPECT_LT(worst, 1e-10) << "pivoting " << pivoting << " m " << m;
    }
  }
}

}  // namespace
}  // namespace factord::kernels
