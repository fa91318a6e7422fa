// The numeric phase of block_ildlt (BlockIldltFactor::Create) on planted
// block matrices with the ordering and blocking given: with the complete
// pattern and no dropping the factor reproduces B = L D L^T to round-off
// (checked by multiplying the factor out here, for every pivoting); with
// 1 x 1 blocks it is the incomplete LDL^T of a naive dense elimination
// restricted to the pattern; a 2 x 2 pivot inside a block, and a singular
// block and an empty row perturbed and counted.
#include <cmath>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "gtest/gtest.h"
#include "tests/core/block_ildlt/block_ildlt_test_blocks.h"

namespace factord {
namespace {

using testing::LinkedBlocks;
using testing::OrderedCase;
using testing::Planted;

struct Factored {
  std::shared_ptr<const BlockIldltStructure> s;
  std::unique_ptr<BlockIldltFactor> f;
};

Factored Factor(const OrderedCase& c, FactorOptions options) {
  const CsrMatrix a = c.Original();
  absl::StatusOr<BlockIldltStructure> s =
      BuildBlockIldltStructureFromBlocks(a, options, c.perm, c.block_ptr);
  EXPECT_TRUE(s.ok()) << s.status();
  Factored out;
  out.s = std::make_shared<const BlockIldltStructure>(*std::move(s));
  ExecContext ctx;
  ctx.backend = Backend::kReference;
  absl::StatusOr<std::unique_ptr<BlockIldltFactor>> f =
      BlockIldltFactor::Create(a, out.s, options, ctx);
  EXPECT_TRUE(f.ok()) << f.status();
  out.f = *std::move(f);
  return out;
}

// The factor multiplied out in the analysis order (n x n, row-major):
// column c of block J is its c-th pivot; the diagonal block holds L_JJ in
// pivot order (row r of L_JJ is the block's local index pivot_order[r]),
// an off-diagonal block L(I, J) has I's rows in their local order.
std::vector<double> Product(const BlockIldltFactor& f) {
  const BlockIldltStructure& s = f.structure();
  const int64_t n = s.n;
  std::vector<double> l(n * n, 0.0), d(n * n, 0.0);
  for (int64_t j = 0; j < s.num_blocks(); ++j) {
    const int bj = s.block_size(j), sj = s.block_ptr[j];
    const double* diag = &f.block_values()[s.value_ptr[s.col_ptr[j]]];
    for (int c = 0; c < bj; ++c) {
      for (int r = 0; r < bj; ++r) {
        l[(sj + f.pivot_order()[sj + r]) * n + sj + c] = diag[r + c * bj];
      }
      d[(sj + c) * n + sj + c] = f.d_diag()[sj + c];
      if (f.pivot_size()[sj + c] == 2) {
        d[(sj + c + 1) * n + sj + c] = d[(sj + c) * n + sj + c + 1] =
            f.d_off()[sj + c];
      }
    }
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      if (!f.kept()[t]) continue;
      const int i = s.row_block[t];
      const int bi = s.block_size(i), si = s.block_ptr[i];
      for (int c = 0; c < bj; ++c) {
        for (int r = 0; r < bi; ++r) {
          l[(si + r) * n + sj + c] =
              f.block_values()[s.value_ptr[t] + r + c * bi];
        }
      }
    }
  }
  std::vector<double> m(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < n; ++p) {
        for (int64_t q = 0; q < n; ++q) {
          const double dpq = d[p * n + q];
          if (dpq != 0) sum += l[i * n + p] * dpq * l[j * n + q];
        }
      }
      m[i * n + j] = sum;
    }
  }
  return m;
}

double MaxDifference(const std::vector<double>& x,
                     const std::vector<double>& y) {
  double worst = 0;
  for (size_t k = 0; k < x.size(); ++k) {
    worst = std::max(worst, std::abs(x[k] - y[k]));
  }
  return worst;
}

// Random block graphs of blocks of 1..4, strictly diagonally dominant with
// diagonals of both signs (every Schur complement stays so: no pivot is
// ever tiny, but the signs force pivoting decisions inside blocks).
OrderedCase DominantIndefinite(unsigned seed) {
  std::mt19937 rng(seed);
  const int nb = 5 + static_cast<int>(rng() % 6);
  std::vector<int> sizes;
  for (int b = 0; b < nb; ++b) sizes.push_back(1 + static_cast<int>(rng() % 4));
  std::vector<std::pair<int, int>> links;
  for (int i = 0; i < nb; ++i) {
    for (int j = 0; j < i; ++j) {
      if (rng() % 3 == 0) links.push_back({i, j});
    }
  }
  int n = 0;
  for (int s : sizes) n += s;
  return LinkedBlocks(sizes, links, testing::Shuffled(n, rng), [](int k) {
    return (k % 3 == 1 ? -1.0 : 1.0) * (3.0 * 10 + 0.1 * k);
  });
}

TEST(BlockIldltNumeric, CompleteFactorReproducesTheMatrixToRoundoff) {
  for (Pivoting pivoting :
       {Pivoting::kStatic, Pivoting::kBunchKaufman, Pivoting::kRook}) {
    for (unsigned seed = 1; seed <= 8; ++seed) {
      SCOPED_TRACE(::testing::Message()
                   << PivotingName(pivoting) << " seed " << seed);
      const OrderedCase c = DominantIndefinite(seed);
      FactorOptions options = Planted();
      options.pivoting = pivoting;
      const Factored run = Factor(c, options);
      ASSERT_NE(run.f, nullptr);
      EXPECT_EQ(run.f->stats().perturbed_pivots, 0);
      EXPECT_EQ(run.f->stats().dropped_entries, 0);
      EXPECT_LE(MaxDifference(Product(*run.f), c.Dense()), 1e-12);
    }
  }
}

// Incomplete LDL^T by a dense right-looking elimination that keeps only
// the entries where `allowed` (row-major n x n, symmetric) holds: with 1 x 1
// blocks, what block_ildlt computes on its block pattern.
void NaiveIncompleteLdlt(int n, std::vector<double> a,
                         const std::vector<bool>& allowed,
                         std::vector<double>* l, std::vector<double>* d) {
  l->assign(n * n, 0.0);
  d->assign(n, 0.0);
  for (int k = 0; k < n; ++k) {
    (*d)[k] = a[k * n + k];
    (*l)[k * n + k] = 1;
    for (int i = k + 1; i < n; ++i) {
      if (allowed[i * n + k]) (*l)[i * n + k] = a[i * n + k] / (*d)[k];
    }
    for (int i = k + 1; i < n; ++i) {
      for (int j = k + 1; j <= i; ++j) {
        if (!allowed[i * n + j]) continue;
        a[i * n + j] -= (*l)[i * n + k] * (*d)[k] * (*l)[j * n + k];
        a[j * n + i] = a[i * n + j];
      }
    }
  }
}

// The 5 x 5 grid Laplacian (SPD) in a scrambled order, 1 x 1 blocks.
OrderedCase GridLaplacian() {
  OrderedCase c;
  const int g = 5;
  c.n = g * g;
  std::mt19937 rng(7);
  c.perm = testing::Shuffled(c.n, rng);
  c.block_ptr = testing::BlockPtr(std::vector<int>(c.n, 1));
  for (int k = 0; k < c.n; ++k) {
    c.ordered.push_back({k, k, 4.0 + 0.01 * k});
    if (k % g > 0) c.ordered.push_back({k, k - 1, -1.0});
    if (k >= g) c.ordered.push_back({k, k - g, -1.0});
  }
  return c;
}

TEST(BlockIldltNumeric, ScalarBlocksAreTheNaiveIncompleteLdltOfThePattern) {
  const OrderedCase c = GridLaplacian();
  const int n = c.n;
  for (int fill : {0, 1, 2}) {
    SCOPED_TRACE(fill);
    FactorOptions options = Planted();
    options.fill_level = fill;
    const Factored run = Factor(c, options);
    ASSERT_NE(run.f, nullptr);
    const BlockIldltStructure& s = *run.s;
    std::vector<bool> allowed(n * n, false);
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t t = s.col_ptr[j]; t < s.col_ptr[j + 1]; ++t) {
        const int i = s.row_block[t];
        allowed[i * n + j] = allowed[j * n + i] = true;
      }
    }
    std::vector<double> l, d;
    NaiveIncompleteLdlt(n, c.Dense(), allowed, &l, &d);
    for (int64_t j = 0; j < n; ++j) {
      EXPECT_NEAR(run.f->d_diag()[j], d[j], 1e-13) << j;
      for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
        const int i = s.row_block[t];
        EXPECT_NEAR(run.f->block_values()[s.value_ptr[t]], l[i * n + j], 1e-13)
            << "(" << i << ", " << j << ")";
      }
    }
    // An incomplete factor matches A on its pattern.
    const std::vector<double> m = Product(*run.f), b = c.Dense();
    for (int k = 0; k < n * n; ++k) {
      if (allowed[k]) {
        EXPECT_NEAR(m[k], b[k], 1e-12) << k;
      }
    }
    EXPECT_EQ(run.f->stats().perturbed_pivots, 0);
  }
}

TEST(BlockIldltNumeric, ZeroDiagonalPairIsATwoByTwoPivotInsideItsBlock) {
  // Block 1 is [[0 1]; [1 0]] (no 1 x 1 pivot). Block 2 is linked to
  // blocks 0 and 1; block 1 pulls no update, so its block stays as planted.
  OrderedCase c;
  c.n = 6;
  c.perm = {5, 3, 1, 0, 2, 4};
  c.block_ptr = {0, 2, 4, 6};
  c.ordered = {{0, 0, 4.0}, {1, 0, 1.0},  {1, 1, 5.0}, {2, 2, 0.0},
               {3, 2, 1.0}, {3, 3, 0.0},  {4, 0, 0.5}, {4, 3, 0.25},
               {4, 4, 3.0}, {5, 4, -1.0}, {5, 5, 2.0}};
  const Factored run = Factor(c, Planted());
  ASSERT_NE(run.f, nullptr);
  EXPECT_EQ(run.f->stats().two_by_two_pivots, 1);
  EXPECT_EQ(run.f->stats().perturbed_pivots, 0);
  EXPECT_EQ(run.f->pivot_size()[2], 2);
  EXPECT_EQ(run.f->pivot_size()[3], 0);
  EXPECT_LE(MaxDifference(Product(*run.f), c.Dense()), 1e-13);
}

TEST(BlockIldltNumeric, SmallLeadingPivotIsTakenOutOfOrderInsideItsBlock) {
  // Block 0 = [[1e-4 1 0]; [1 5 .5]; [0 .5 3]]: 1e-4 fails the threshold
  // 0.01 against its column's 1, so Bunch-Kaufman takes its partner 5 first
  // (pivot order 1, 0, 2); block 1 pulls its update through that order.
  OrderedCase c;
  c.n = 5;
  c.perm = {3, 0, 4, 2, 1};
  c.block_ptr = {0, 3, 5};
  c.ordered = {{0, 0, 1e-4}, {1, 0, 1.0}, {1, 1, 5.0}, {2, 1, 0.5},
               {2, 2, 3.0},  {3, 3, 4.0}, {4, 3, 1.0}, {4, 4, 4.0},
               {3, 0, 0.5},  {4, 2, -1.0}};
  const Factored run = Factor(c, Planted());
  ASSERT_NE(run.f, nullptr);
  EXPECT_EQ(run.f->pivot_order()[0], 1);
  EXPECT_EQ(run.f->pivot_order()[1], 0);
  EXPECT_EQ(run.f->pivot_order()[2], 2);
  EXPECT_EQ(run.f->stats().perturbed_pivots, 0);
  EXPECT_LE(MaxDifference(Product(*run.f), c.Dense()), 1e-13);
}

TEST(BlockIldltNumeric, SingularBlockAndEmptyRowArePerturbedAndCounted) {
  // Independent blocks: {0, 1} regular, {2, 3} = [[1 1]; [1 1]] singular,
  // {4} an empty row (no entry, not even a diagonal), {5, 6} regular.
  OrderedCase c;
  c.n = 7;
  c.perm = {6, 0, 5, 1, 4, 2, 3};
  c.block_ptr = {0, 2, 4, 5, 7};
  c.ordered = {{0, 0, 3.0}, {1, 0, 1.0}, {1, 1, -2.0}, {2, 2, 1.0}, {3, 2, 1.0},
               {3, 3, 1.0}, {5, 5, 2.0}, {6, 5, 1.0},  {6, 6, 2.0}};
  const Factored run = Factor(c, Planted());
  ASSERT_NE(run.f, nullptr);
  EXPECT_EQ(run.f->stats().perturbed_pivots, 2);
  EXPECT_EQ(run.f->stats().not_finite_columns, 0);
  // The regular blocks are factorized exactly.
  const std::vector<double> m = Product(*run.f), b = c.Dense();
  for (int i : {0, 1, 5, 6}) {
    for (int j : {0, 1, 5, 6}) {
      EXPECT_NEAR(m[i * c.n + j], b[i * c.n + j], 1e-14) << i << "," << j;
    }
  }
  // The empty row's pivot is the (positive) perturbation, not a zero.
  EXPECT_GT(run.f->d_diag()[4], 0);
}

}  // namespace
}  // namespace factord
