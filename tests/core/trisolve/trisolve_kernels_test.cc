// The cpu triangular-solve kernels (S4 §2.1) against the serial reference on
// a combined L\U factor with planted cases: a 1 x 1 block, a block of 12, a
// row whose strictly lower part is empty, a row whose strictly upper part is
// empty, and a tiny U pivot (1e-10, regular). Every row is computed by the
// same code in the same order, so the results must be identical; the
// reference itself is checked against the definition (T x = b, and Jacobi /
// block-Jacobi sweeps reach the substitution's answer once the sweeps
// exceed the number of level sets, since the iteration matrix is nilpotent).
#include "core/trisolve/kernels/trisolve_kernels.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "core/block_jacobi/block_jacobi.h"
#include "core/incomplete/incomplete_symbolic.h"
#include "gtest/gtest.h"

namespace factord::kernels {
namespace {

using internal::ComputeLevelSets;
using internal::IncompletePattern;
using internal::LevelSets;

constexpr int64_t kEmptyLowerRow = 700;  // no strictly lower entries
constexpr int64_t kEmptyUpperRow = 701;  // no strictly upper entries
constexpr int64_t kTinyPivotRow = 5;     // inside the block of 12

struct Planted {
  IncompletePattern pattern;
  std::vector<double> values;
  BlockJacobiBlocking blocking;  // consecutive blocks, identity order
  TriangularFactor View() const { return pattern.View(values); }
  BlockLayout Layout() const {
    return BlockLayout{blocking.block_ptr, blocking.block_rows,
                       blocking.block_of_row, blocking.local_index,
                       blocking.value_ptr};
  }
};

// n = 1601 rows (several cpu chunks), bandwidth <= 40, about 6 entries a
// row on each side; blocks 1, 12, then sizes cycling through 3, 7, 32, 2.
Planted MakePlanted() {
  const int64_t n = 1601;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> off(-0.3, 0.3), pivot(1.0, 2.0);
  Planted p;
  p.pattern.diag.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int32_t> cols{static_cast<int32_t>(i)};
    for (int k = 0; k < 12; ++k) {
      const int64_t j = i + static_cast<int64_t>(rng() % 81) - 40;
      if (j < 0 || j >= n || j == i) continue;
      if (i == kEmptyLowerRow && j < i) continue;
      if (i == kEmptyUpperRow && j > i) continue;
      cols.push_back(static_cast<int32_t>(j));
    }
    // Dense coupling inside the planted block of 12 (rows 1..12).
    if (i >= 1 && i <= 12) {
      for (int32_t j = 1; j <= 12; ++j) cols.push_back(j);
    }
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (int32_t c : cols) {
      if (c == i) {
        p.pattern.diag[i] = static_cast<int64_t>(p.pattern.col_idx.size());
      }
      p.pattern.col_idx.push_back(c);
      p.values.push_back(c == i ? pivot(rng) : off(rng));
    }
    p.pattern.row_ptr.push_back(static_cast<int64_t>(p.pattern.col_idx.size()));
  }
  p.values[p.pattern.diag[kTinyPivotRow]] = 1e-10;
  std::vector<int64_t> block_ptr{0, 1, 13};
  const int sizes[] = {3, 7, 32, 2};
  for (int k = 0; block_ptr.back() < n; ++k) {
    block_ptr.push_back(std::min<int64_t>(n, block_ptr.back() + sizes[k % 4]));
  }
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  p.blocking = *MakeBlockJacobiBlocking(order, block_ptr);
  return p;
}

std::vector<double> Rhs(int64_t n) {
  std::vector<double> b(n);
  for (int64_t i = 0; i < n; ++i) b[i] = std::cos(0.3 * i) + 0.5;
  return b;
}

// y = T x from the definition (unit diagonal for kLower).
std::vector<double> Multiply(const TriangularFactor& t, Triangle triangle,
                             const std::vector<double>& x) {
  std::vector<double> y(t.n(), 0.0);
  for (int64_t i = 0; i < t.n(); ++i) {
    const bool lower = triangle == Triangle::kLower;
    const int64_t begin = lower ? t.row_ptr[i] : t.diag[i];
    const int64_t end = lower ? t.diag[i] : t.row_ptr[i + 1];
    for (int64_t p = begin; p < end; ++p) y[i] += t.values[p] * x[t.col_idx[p]];
    if (lower) y[i] += x[i];
  }
  return y;
}

double MaxAbs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

double MaxDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

std::vector<double> Inverses(const Planted& p, Triangle triangle,
                             std::vector<uint8_t>* status) {
  const BlockLayout layout = p.Layout();
  std::vector<double> dense(p.blocking.value_ptr.back());
  std::vector<double> inverse(dense.size());
  status->assign(layout.num_blocks(), 0);
  reference::ExtractTriangularBlocks(ExecContext{}, p.View(), triangle, layout,
                                     dense);
  reference::InvertDiagonalBlocks(ExecContext{}, layout, dense, inverse,
                                  *status);
  return inverse;
}

TEST(TrisolveKernels, PlantedCasesArePresent) {
  const Planted p = MakePlanted();
  const auto& pt = p.pattern;
  EXPECT_EQ(pt.diag[kEmptyLowerRow], pt.row_ptr[kEmptyLowerRow]);
  EXPECT_EQ(pt.diag[kEmptyUpperRow] + 1, pt.row_ptr[kEmptyUpperRow + 1]);
  EXPECT_EQ(p.blocking.block_ptr[1] - p.blocking.block_ptr[0], 1);
  EXPECT_EQ(p.blocking.block_ptr[2] - p.blocking.block_ptr[1], 12);
  EXPECT_EQ(p.values[pt.diag[kTinyPivotRow]], 1e-10);
}

TEST(TrisolveKernels, ReferenceSubstitutionSolvesTheTriangle) {
  const Planted p = MakePlanted();
  const std::vector<double> b = Rhs(p.pattern.n());
  for (Triangle triangle : {Triangle::kLower, Triangle::kUpper}) {
    const LevelSets levels = ComputeLevelSets(p.pattern, triangle);
    std::vector<double> x(b.size(), NAN);
    reference::Substitute(ExecContext{}, p.View(), triangle, levels.view(), b,
                          x);
    const std::vector<double> tx = Multiply(p.View(), triangle, x);
    EXPECT_LE(MaxDiff(tx, b), 1e-12 * MaxAbs(x) + 1e-12)
        << (triangle == Triangle::kLower ? "lower" : "upper");
    if (triangle == Triangle::kUpper) {
      EXPECT_GT(MaxAbs(x), 1e6);  // the tiny pivot shows
    }
  }
}

TEST(TrisolveKernels, ExtractedBlocksAreTheTrianglesDiagonalBlocks) {
  const Planted p = MakePlanted();
  const BlockLayout layout = p.Layout();
  std::vector<double> lower(p.blocking.value_ptr.back(), NAN);
  std::vector<double> upper(lower.size(), NAN);
  reference::ExtractTriangularBlocks(ExecContext{}, p.View(), Triangle::kLower,
                                     layout, lower);
  reference::ExtractTriangularBlocks(ExecContext{}, p.View(), Triangle::kUpper,
                                     layout, upper);
  // The 1 x 1 block: L's unit diagonal and U's pivot.
  EXPECT_EQ(lower[0], 1.0);
  EXPECT_EQ(upper[0], p.values[p.pattern.diag[0]]);
  // The block of 12 (rows 1..12) is dense in the pattern: the strict lower
  // part of the dense block is L's, the upper part U's.
  const double* l12 = lower.data() + p.blocking.value_ptr[1];
  const double* u12 = upper.data() + p.blocking.value_ptr[1];
  for (int li = 0; li < 12; ++li) {
    const int64_t i = 1 + li;
    for (int lj = 0; lj < 12; ++lj) {
      const int64_t j = 1 + lj;
      double a_ij = 0;
      for (int64_t q = p.pattern.row_ptr[i]; q < p.pattern.row_ptr[i + 1];
           ++q) {
        if (p.pattern.col_idx[q] == j) a_ij = p.values[q];
      }
      EXPECT_EQ(l12[li * 12 + lj], li == lj ? 1.0 : (lj < li ? a_ij : 0.0));
      EXPECT_EQ(u12[li * 12 + lj], lj >= li ? a_ij : 0.0);
    }
  }
  EXPECT_EQ(u12[(kTinyPivotRow - 1) * 12 + (kTinyPivotRow - 1)], 1e-10);
}

TEST(TrisolveKernels, SweepsReachTheSubstitutionWithinTheLevelCount) {
  const Planted p = MakePlanted();
  const int64_t n = p.pattern.n();
  const std::vector<double> b = Rhs(n);
  const ExecContext ref;
  const BlockLayout layout = p.Layout();
  for (Triangle triangle : {Triangle::kLower, Triangle::kUpper}) {
    const LevelSets levels = ComputeLevelSets(p.pattern, triangle);
    const int64_t num_levels =
        static_cast<int64_t>(levels.level_ptr.size()) - 1;
    std::vector<double> exact(n);
    reference::Substitute(ref, p.View(), triangle, levels.view(), b, exact);
    std::vector<uint8_t> status;
    const std::vector<double> inverse = Inverses(p, triangle, &status);
    EXPECT_EQ(std::count(status.begin(), status.end(), 0),
              static_cast<long>(status.size()));  // the tiny pivot is regular
    // Scalar Jacobi: x_0 = D^{-1} b (S4 eq. 3), then num_levels sweeps.
    std::vector<double> x(n), next(n);
    for (int64_t i = 0; i < n; ++i) {
      x[i] = triangle == Triangle::kLower ? b[i]
                                          : b[i] / p.values[p.pattern.diag[i]];
    }
    const double error0 = MaxDiff(x, exact);
    for (int64_t s = 0; s < num_levels; ++s) {
      reference::JacobiSweep(ref, p.View(), triangle, b, x, next);
      std::swap(x, next);
    }
    EXPECT_GT(error0, 1e-3);
    EXPECT_LE(MaxDiff(x, exact), 1e-9 * MaxAbs(exact));
    // Block Jacobi: x_0 = D_B^{-1} b, then num_levels sweeps.
    reference::ApplyBlockDiagonal(ref, layout, inverse, b, x);
    for (int64_t s = 0; s < num_levels; ++s) {
      reference::BlockJacobiSweep(ref, p.View(), triangle, layout, inverse, b,
                                  x, next);
      std::swap(x, next);
    }
    EXPECT_LE(MaxDiff(x, exact), 1e-9 * MaxAbs(exact));
  }
}

TEST(TrisolveKernels, CpuMatchesReferenceExactly) {
  const Planted p = MakePlanted();
  const int64_t n = p.pattern.n();
  const std::vector<double> b = Rhs(n);
  std::vector<double> x_old(n);
  for (int64_t i = 0; i < n; ++i) x_old[i] = std::sin(1.0 + i);
  const BlockLayout layout = p.Layout();
  const ExecContext ref;
  for (Triangle triangle : {Triangle::kLower, Triangle::kUpper}) {
    const LevelSets levels = ComputeLevelSets(p.pattern, triangle);
    ASSERT_GT(levels.level_ptr.size(), 3u);
    std::vector<double> sub_ref(n), jac_ref(n), blk_ref(n);
    std::vector<double> dense_ref(p.blocking.value_ptr.back());
    reference::Substitute(ref, p.View(), triangle, levels.view(), b, sub_ref);
    reference::JacobiSweep(ref, p.View(), triangle, b, x_old, jac_ref);
    reference::ExtractTriangularBlocks(ref, p.View(), triangle, layout,
                                       dense_ref);
    std::vector<uint8_t> status;
    const std::vector<double> inverse = Inverses(p, triangle, &status);
    reference::BlockJacobiSweep(ref, p.View(), triangle, layout, inverse, b,
                                x_old, blk_ref);
    for (int threads : {1, 2, 3}) {
      ExecContext ctx;
      ctx.threads = threads;
      std::vector<double> sub(n, NAN), jac(n, NAN), blk(n, NAN);
      std::vector<double> dense(dense_ref.size(), NAN);
      cpu::Substitute(ctx, p.View(), triangle, levels.view(), b, sub);
      cpu::JacobiSweep(ctx, p.View(), triangle, b, x_old, jac);
      cpu::ExtractTriangularBlocks(ctx, p.View(), triangle, layout, dense);
      cpu::BlockJacobiSweep(ctx, p.View(), triangle, layout, inverse, b, x_old,
                            blk);
      EXPECT_EQ(sub, sub_ref) << threads;
      EXPECT_EQ(jac, jac_ref) << threads;
      EXPECT_EQ(dense, dense_ref) << threads;
      EXPECT_EQ(blk, blk_ref) << threads;
      for (double v : sub) ASSERT_TRUE(std::isfinite(v));
    }
  }
}

TEST(TrisolveKernels, EmptyAndOneByOneFactors) {
  for (int64_t n : {0, 1}) {
    IncompletePattern pattern;
    std::vector<double> values;
    if (n == 1) {
      pattern.col_idx = {0};
      pattern.diag = {0};
      pattern.row_ptr = {0, 1};
      values = {4.0};
    }
    const TriangularFactor t = pattern.View(values);
    const std::vector<double> b(n, 2.0);
    for (Triangle triangle : {Triangle::kLower, Triangle::kUpper}) {
      const LevelSets levels = ComputeLevelSets(pattern, triangle);
      std::vector<double> x_ref(n, NAN), x_cpu(n, NAN);
      reference::Substitute(ExecContext{}, t, triangle, levels.view(), b,
                            x_ref);
      ExecContext ctx;
      ctx.threads = 2;
      cpu::Substitute(ctx, t, triangle, levels.view(), b, x_cpu);
      EXPECT_EQ(x_cpu, x_ref);
      if (n == 1) EXPECT_EQ(x_ref[0], triangle == Triangle::kLower ? 2 : 0.5);
    }
  }
}

}  // namespace
}  // namespace factord::kernels
