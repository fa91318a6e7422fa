// FactorizeFront, one front of the multifrontal LDL^T, on planted fronts
// with answers computed here: the front's L D L^T against the permuted
// matrix, its contribution block against the Schur complement by dense
// Gauss-Jordan, static pivoting against a naive unpivoted dense LDL^T, the
// inertia of D against planted eigenvalue signs, and the pivots a front
// cannot take (a zero or tiny pivot without a partner is delayed to the
// parent, a zero/anti-diagonal pair is a 2x2, a numerically zero column is
// perturbed, a singular root is completed with a perturbed pivot).
#include "core/ldlt/ldlt_front.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/dense/kernels/dense_ldlt_app.h"
#include "core/dense/kernels/dense_ldlt_unpivoted.h"
#include "core/ldlt/ldlt_symbolic.h"
#include "gtest/gtest.h"
#include "tests/core/block_ildlt/block_ildlt_planted.h"
#include "tests/core/ldlt/ldlt_test_util.h"

namespace factord::internal {
namespace {

using testing::Entry;
using testing::LowerFromEntries;
using Dense = std::vector<std::vector<double>>;

std::vector<int32_t> Identity(int n) {
  std::vector<int32_t> p(n);
  for (int i = 0; i < n; ++i) p[i] = i;
  return p;
}

// S -= L W^T on the lower triangle, plain loops (the contract of
// SchurUpdateFn, written here so that the front is tested on its own).
void PlainSchurUpdate(int r, int q, const double* l, int ldl, const double* w,
                      int ldw, double* s, int lds) {
  for (int j = 0; j < r; ++j) {
    for (int i = j; i < r; ++i) {
      double sum = 0;
      for (int t = 0; t < q; ++t) sum += l[t * ldl + i] * w[t * ldw + j];
      s[j * lds + i] -= sum;
    }
  }
}

// The symbolic structure of `a` in the given fill order, with the values
// gathered in its column order (a missing diagonal is 0).
struct AnalyzedMatrix {
  CsrMatrix a;
  LdltSymbolic sym;
  std::vector<double> values;
};

AnalyzedMatrix Analyzed(CsrMatrix a, const std::vector<int32_t>& fill) {
  AnalyzedMatrix out;
  out.a = std::move(a);
  absl::StatusOr<LdltSymbolic> sym = BuildLdltSymbolic(out.a, fill);
  EXPECT_TRUE(sym.ok()) << sym.status();
  out.sym = *std::move(sym);
  for (int64_t e = 0; e < static_cast<int64_t>(out.sym.col_src.size()); ++e) {
    const int64_t src = out.sym.col_src[e];
    out.values.push_back(src >= 0 ? out.a.values[src] : 0.0);
  }
  return out;
}

// P A P^T, dense and symmetric, in the symbolic's numbering.
Dense PermutedDense(const AnalyzedMatrix& fr) {
  const int n = static_cast<int>(fr.a.rows);
  Dense d(n, std::vector<double>(n, 0.0));
  for (int i = 0; i < n; ++i) {
    for (int64_t k = fr.a.row_ptr[i]; k < fr.a.row_ptr[i + 1]; ++k) {
      const int pi = fr.sym.inverse[i], pj = fr.sym.inverse[fr.a.col_idx[k]];
      d[pi][pj] = d[pj][pi] = fr.a.values[k];
    }
  }
  return d;
}

// The fronts factorized one after another in postorder.
struct Tree {
  FrontFactors factors;
  std::vector<FrontCounts> counts;
  std::vector<ContributionBlock> cbs;
  FrontWorkspace ws;
};

void Begin(const LdltSymbolic& sym, Tree* tree) {
  tree->factors.Allocate(sym);
  tree->counts.assign(sym.num_fronts(), {});
  tree->cbs.assign(sym.num_fronts(), {});
  tree->ws.Reserve(sym);
}

// The pivoting kernel on every front, unless `unpivoted` (then large
// fronts try DenseUnpivotedLdlt first, as the cpu backend does, and fall
// back to DenseAppPartialLdlt when `app`, else to the pivoting kernel).
void FactorOne(const AnalyzedMatrix& fr, int32_t f, bool on_stack,
               const kernels::DenseLdltParams& params, Tree* tree,
               bool unpivoted = false, bool app = true) {
  const FrontKernels kernels{&PlainSchurUpdate,
                             unpivoted ? &DenseUnpivotedLdlt : nullptr,
                             unpivoted && app ? &DenseAppPartialLdlt : nullptr};
  FactorizeFront(fr.sym, f, fr.values, std::span(tree->cbs), on_stack, params,
                 kernels, tree->ws, &tree->factors, &tree->counts[f]);
}

void FactorAll(const AnalyzedMatrix& fr, bool on_stack,
               const kernels::DenseLdltParams& params, Tree* tree,
               bool unpivoted = false, bool app = true) {
  Begin(fr.sym, tree);
  for (int32_t f = 0; f < fr.sym.num_fronts(); ++f) {
    FactorOne(fr, f, on_stack, params, tree, unpivoted, app);
  }
}

// L D L^T of the given fronts in the global permuted numbering (n x n).
Dense Product(const FrontFactors& factors, int n,
              const std::vector<int32_t>& fronts) {
  Dense m(n, std::vector<double>(n, 0.0));
  for (int32_t f : fronts) {
    const FrontFactor& fr = factors.fronts[f];
    const int ld = static_cast<int>(fr.rows.size());
    auto l = [&](int s, int t) {
      return fr.l[static_cast<size_t>(t) * ld + s];
    };
    for (int t = 0; t < fr.q; ++t) {
      const bool pair = fr.pivot_size[t] == 2;
      for (int s1 = 0; s1 < ld; ++s1) {
        for (int s2 = 0; s2 < ld; ++s2) {
          double v = fr.d_diag[t] * l(s1, t) * l(s2, t);
          if (pair) {
            v += fr.d_off[t] *
                     (l(s1, t) * l(s2, t + 1) + l(s1, t + 1) * l(s2, t)) +
                 fr.d_diag[t + 1] * l(s1, t + 1) * l(s2, t + 1);
          }
          m[fr.rows[s1]][fr.rows[s2]] += v;
        }
      }
      if (pair) ++t;
    }
  }
  return m;
}

std::vector<int32_t> AllFronts(const LdltSymbolic& sym) {
  return Identity(static_cast<int>(sym.num_fronts()));
}

double MaxDifference(const Dense& x, const Dense& y) {
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    for (size_t j = 0; j < x.size(); ++j) {
      worst = std::max(worst, std::abs(x[i][j] - y[i][j]));
    }
  }
  return worst;
}

// Sylvester: the inertia of D (a 2x2 block by its determinant and trace).
Inertia InertiaOfD(const FrontFactors& factors) {
  Inertia in;
  for (const FrontFactor& fr : factors.fronts) {
    for (int t = 0; t < fr.q; ++t) {
      if (fr.pivot_size[t] == 2) {
        const double a = fr.d_diag[t], b = fr.d_off[t], c = fr.d_diag[t + 1];
        if (a * c - b * b < 0) {
          ++in.positive;
          ++in.negative;
        } else if (a + c > 0) {
          in.positive += 2;
        } else {
          in.negative += 2;
        }
        ++t;
      } else if (fr.d_diag[t] > 0) {
        ++in.positive;
      } else {
        ++in.negative;
      }
    }
  }
  return in;
}

// Q diag(lambda) Q^T with the Householder reflector Q = I - 2 v v^T / v^T v.
std::vector<Entry> PlantedSpectrum(const std::vector<double>& lambda,
                                   const std::vector<double>& v) {
  const int n = static_cast<int>(lambda.size());
  double vv = 0;
  for (double x : v) vv += x * x;
  auto q = [&](int i, int j) {
    return (i == j ? 1.0 : 0.0) - 2 * v[i] * v[j] / vv;
  };
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += q(i, k) * lambda[k] * q(j, k);
      e.push_back({i, j, s});
    }
  }
  return e;
}

TEST(LdltFront, RootFrontReproducesAPlantedIndefiniteMatrix) {
  // Eigenvalues 3, -2, 1, -0.5, 4, -1: inertia (3, 3, 0).
  const AnalyzedMatrix fr = Analyzed(
      LowerFromEntries(
          6, PlantedSpectrum({3, -2, 1, -0.5, 4, -1}, {1, 2, -1, 3, 1, -2})),
      Identity(6));
  ASSERT_EQ(fr.sym.num_fronts(), 1);
  Tree tree;
  FactorAll(fr, true, {}, &tree);
  EXPECT_EQ(tree.factors.fronts[0].q, 6);
  EXPECT_EQ(tree.counts[0].delayed, 0);
  EXPECT_EQ(tree.counts[0].perturbed, 0);
  EXPECT_LE(MaxDifference(Product(tree.factors, 6, {0}), PermutedDense(fr)),
            1e-12);
  const Inertia in = InertiaOfD(tree.factors);
  EXPECT_EQ(in.positive, 3);
  EXPECT_EQ(in.negative, 3);
}

// Two fronts: a leaf over the dense block {0, 1, 2} with update rows
// {6, 7}, and the root {3..7} (the tridiagonal {3, 4, 5} amalgamated with
// {6, 7}). a00 is the leaf's first diagonal.
CsrMatrix LeafAndRoot(double a00) {
  return LowerFromEntries(
      8, {{0, 0, a00}, {1, 0, 2.0}, {1, 1, -3.0}, {2, 0, 1.0}, {2, 1, 1.0},
          {2, 2, 3.0}, {6, 0, 1.0}, {6, 1, 0.5},  {7, 1, 1.0}, {7, 2, 2.0},
          {3, 3, 4.0}, {4, 3, 1.0}, {4, 4, 4.0},  {5, 4, 1.0}, {5, 5, 4.0},
          {6, 5, 1.0}, {7, 3, 1.0}, {6, 6, 5.0},  {7, 6, 1.0}, {7, 7, -3.0}});
}

// The inverse of a small dense matrix by Gauss-Jordan with partial pivoting.
Dense Inverse(Dense a) {
  const int n = static_cast<int>(a.size());
  Dense inv(n, std::vector<double>(n, 0.0));
  for (int i = 0; i < n; ++i) inv[i][i] = 1;
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i) {
      if (std::abs(a[i][k]) > std::abs(a[p][k])) p = i;
    }
    std::swap(a[k], a[p]);
    std::swap(inv[k], inv[p]);
    const double d = a[k][k];
    for (int j = 0; j < n; ++j) {
      a[k][j] /= d;
      inv[k][j] /= d;
    }
    for (int i = 0; i < n; ++i) {
      if (i == k) continue;
      const double f = a[i][k];
      for (int j = 0; j < n; ++j) {
        a[i][j] -= f * a[k][j];
        inv[i][j] -= f * inv[k][j];
      }
    }
  }
  return inv;
}

TEST(LdltFront, ContributionBlockIsTheSchurComplementOfTheLeaf) {
  const AnalyzedMatrix fr = Analyzed(LeafAndRoot(0.0), Identity(8));
  ASSERT_EQ(fr.sym.front_begin, (std::vector<int32_t>{0, 3, 8}));
  ASSERT_EQ(fr.sym.front_parent, (std::vector<int32_t>{1, -1}));
  const Dense a = PermutedDense(fr);
  Tree tree;
  Begin(fr.sym, &tree);
  FactorOne(fr, 0, /*on_stack=*/false, {}, &tree);
  const FrontFactor& leaf = tree.factors.fronts[0];
  ASSERT_EQ(leaf.q, 3);  // the zero diagonal is not needed as a pivot
  EXPECT_EQ(tree.counts[0].delayed, 0);

  // The leaf holds the original entries of its columns only, so its
  // contribution over the update rows U = {6, 7} is -A_U1 A_11^{-1} A_1U.
  const Dense a11_inv = Inverse({{a[0][0], a[0][1], a[0][2]},
                                 {a[1][0], a[1][1], a[1][2]},
                                 {a[2][0], a[2][1], a[2][2]}});
  const int update[2] = {6, 7};
  const ContributionBlock& cb = tree.cbs[0];
  ASSERT_EQ(cb.num_delayed, 0);
  ASSERT_EQ(cb.size, 2);
  ASSERT_EQ(cb.values.size(), 3u);
  for (int b = 0; b < 2; ++b) {
    for (int s = b; s < 2; ++s) {
      double schur = 0;
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          schur -= a[update[s]][i] * a11_inv[i][j] * a[j][update[b]];
        }
      }
      EXPECT_NEAR(cb.values[PackedColumn(2, b) + s - b], schur, 1e-12)
          << s << "," << b;
    }
  }
  // The leaf's L D L^T is A on its pivot rows and columns.
  const Dense leaf_product = Product(tree.factors, 8, {0});
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(leaf_product[i][j], a[i][j], 1e-12) << i << "," << j;
    }
  }
  // The root assembles the block and completes the factor.
  FactorOne(fr, 1, false, {}, &tree);
  EXPECT_TRUE(tree.cbs[0].values.empty());  // read once and released
  EXPECT_LE(MaxDifference(Product(tree.factors, 8, {0, 1}), a), 1e-12);
}

TEST(LdltFront, StaticPivotingMatchesANaiveUnpivotedDenseLdlt) {
  // Leading minors 4, -16, -45 of the leaf: no pivoting needed.
  const AnalyzedMatrix fr = Analyzed(LeafAndRoot(4.0), Identity(8));
  const Dense a = PermutedDense(fr);
  kernels::DenseLdltParams params;
  params.pivoting = kernels::kDenseStatic;
  Tree tree;
  Begin(fr.sym, &tree);
  FactorOne(fr, 0, false, params, &tree);

  // Right-looking dense LDL^T of the leaf's front [A11 A1U; AU1 0] over
  // rows {0, 1, 2, 6, 7}, three pivots in order.
  const int rows[5] = {0, 1, 2, 6, 7};
  Dense f(5, std::vector<double>(5, 0.0));
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      if (i < 3 || j < 3) f[i][j] = a[rows[i]][rows[j]];
    }
  }
  double d[3];
  Dense l(5, std::vector<double>(3, 0.0));
  for (int k = 0; k < 3; ++k) {
    d[k] = f[k][k];
    for (int i = k; i < 5; ++i) l[i][k] = f[i][k] / d[k];
    for (int i = k + 1; i < 5; ++i) {
      for (int j = k + 1; j < 5; ++j) f[i][j] -= l[i][k] * d[k] * l[j][k];
    }
  }
  const FrontFactor& leaf = tree.factors.fronts[0];
  ASSERT_EQ(leaf.q, 3);
  ASSERT_EQ(leaf.rows.size(), 5u);
  for (int s = 0; s < 5; ++s) EXPECT_EQ(leaf.rows[s], rows[s]);
  for (int t = 0; t < 3; ++t) {
    EXPECT_EQ(leaf.pivot_size[t], 1);
    EXPECT_NEAR(leaf.d_diag[t], d[t], 1e-12);
    for (int s = 0; s < 5; ++s) {
      EXPECT_NEAR(leaf.l[t * 5 + s], l[s][t], 1e-12) << s << "," << t;
    }
  }
  const ContributionBlock& cb = tree.cbs[0];
  ASSERT_EQ(cb.size, 2);
  EXPECT_NEAR(cb.values[0], f[3][3], 1e-12);
  EXPECT_NEAR(cb.values[1], f[4][3], 1e-12);
  EXPECT_NEAR(cb.values[2], f[4][4], 1e-12);
}

// A star: the leaves 0 and 1 hang from 2, and the fronts are {0} and the
// root {1, 2}; a00 and a20 are the leaf's column.
CsrMatrix Star(double a00, double a20) {
  return LowerFromEntries(
      3, {{0, 0, a00}, {1, 1, 2.0}, {2, 0, a20}, {2, 1, 1.0}, {2, 2, 1.0}});
}

TEST(LdltFront, ZeroPivotWithoutAPartnerIsDelayedToTheParent) {
  const AnalyzedMatrix fr = Analyzed(Star(0.0, 1.0), Identity(3));
  ASSERT_EQ(fr.sym.front_begin, (std::vector<int32_t>{0, 1, 3}));
  Tree tree;
  Begin(fr.sym, &tree);
  FactorOne(fr, 0, true, {}, &tree);
  EXPECT_EQ(tree.factors.fronts[0].q, 0);
  EXPECT_EQ(tree.counts[0].delayed, 1);
  const ContributionBlock& cb = tree.cbs[0];
  EXPECT_EQ(cb.num_delayed, 1);
  EXPECT_EQ(cb.delayed_rows, (std::vector<int32_t>{0}));
  EXPECT_EQ(cb.size, 2);  // the delayed column and the update row 2
  EXPECT_GE(cb.stack_offset, 0);

  FactorOne(fr, 1, true, {}, &tree);
  const FrontFactor& root = tree.factors.fronts[1];
  EXPECT_EQ(root.q, 3);  // its two columns and the delayed one
  EXPECT_EQ(root.rows.size(), 3u);
  EXPECT_EQ(tree.counts[1].delayed, 0);
  EXPECT_EQ(tree.counts[1].perturbed, 0);
  EXPECT_EQ(tree.ws.stack_top, 0);  // the leaf's block was popped
  const Dense a = PermutedDense(fr);
  EXPECT_LE(MaxDifference(Product(tree.factors, 3, {0, 1}), a), 1e-12);
  const Inertia expected =
      testing::DenseInertia(3, {0, 0, 1, 0, 2, 1, 1, 1, 1});
  const Inertia in = InertiaOfD(tree.factors);
  EXPECT_EQ(in.positive, expected.positive);
  EXPECT_EQ(in.negative, expected.negative);
}

TEST(LdltFront, TinyPivotIsDelayedBelowTheWeakThresholdOnly) {
  // 1e-12 fails both the threshold u = 0.01 and the weak pass' 1e-10 (it
  // is above tiny = 1e-13): delayed. 1e-6 passes the weak pass, which a
  // one-column front enters (its delay budget is 0): taken.
  for (const auto& [pivot, delayed] :
       std::vector<std::pair<double, int>>{{1e-12, 1}, {1e-6, 0}}) {
    SCOPED_TRACE(pivot);
    const AnalyzedMatrix fr = Analyzed(Star(pivot, 1.0), Identity(3));
    Tree tree;
    FactorAll(fr, true, {}, &tree);
    EXPECT_EQ(tree.counts[0].delayed, delayed);
    EXPECT_EQ(tree.factors.fronts[0].q, 1 - delayed);
    EXPECT_EQ(tree.counts[0].perturbed + tree.counts[1].perturbed, 0);
    EXPECT_LE(
        MaxDifference(Product(tree.factors, 3, {0, 1}), PermutedDense(fr)),
        1e-9);
  }
}

TEST(LdltFront, ZeroAntiDiagonalPairIsOneTwoByTwoPivot) {
  // [[0 1 .1]; [1 0 .1]; [.1 .1 1]]: neither zero diagonal can be a 1x1.
  const AnalyzedMatrix fr = Analyzed(LowerFromEntries(3, {{0, 0, 0.0},
                                                          {1, 0, 1.0},
                                                          {1, 1, 0.0},
                                                          {2, 0, 0.1},
                                                          {2, 1, 0.1},
                                                          {2, 2, 1.0}}),
                                     Identity(3));
  ASSERT_EQ(fr.sym.num_fronts(), 1);
  Tree tree;
  FactorAll(fr, true, {}, &tree);
  const FrontFactor& root = tree.factors.fronts[0];
  EXPECT_EQ(tree.counts[0].two_by_two, 1);
  EXPECT_EQ(tree.counts[0].perturbed, 0);
  ASSERT_EQ(root.q, 3);
  EXPECT_EQ(root.pivot_size[0], 2);
  EXPECT_EQ(root.pivot_size[1], 0);
  EXPECT_EQ(root.d_diag[0], 0.0);
  EXPECT_EQ(root.d_diag[1], 0.0);
  EXPECT_EQ(root.d_off[0], 1.0);
  EXPECT_LE(MaxDifference(Product(tree.factors, 3, {0}), PermutedDense(fr)),
            1e-14);
  const Inertia in = InertiaOfD(tree.factors);
  const Inertia expected =
      testing::DenseInertia(3, {0, 1, 0.1, 1, 0, 0.1, 0.1, 0.1, 1});
  EXPECT_EQ(in.positive, expected.positive);
  EXPECT_EQ(in.negative, expected.negative);
}

TEST(LdltFront, NumericallyZeroColumnIsPerturbedNotDelayed) {
  // The leaf's column is stored but all zero: no later elimination can
  // change it, so it is the zero pivot, perturbed in the leaf itself.
  const AnalyzedMatrix fr = Analyzed(Star(0.0, 0.0), Identity(3));
  ASSERT_EQ(fr.sym.front_begin, (std::vector<int32_t>{0, 1, 3}));
  kernels::DenseLdltParams params;
  Tree tree;
  FactorAll(fr, true, params, &tree);
  const FrontFactor& leaf = tree.factors.fronts[0];
  EXPECT_EQ(tree.counts[0].delayed, 0);
  EXPECT_EQ(tree.counts[0].perturbed, 1);
  ASSERT_EQ(leaf.q, 1);
  EXPECT_EQ(leaf.pivot_size[0], -1);
  EXPECT_EQ(leaf.d_diag[0], params.perturbation);
}

TEST(LdltFront, SingularRootIsCompletedWithAPerturbedPivot) {
  // [[1 1]; [1 1]]: the Schur complement after the first pivot is 0.
  const AnalyzedMatrix fr =
      Analyzed(LowerFromEntries(2, {{0, 0, 1.0}, {1, 0, 1.0}, {1, 1, 1.0}}),
               Identity(2));
  Tree tree;
  FactorAll(fr, true, {}, &tree);
  EXPECT_EQ(tree.factors.fronts[0].q, 2);
  EXPECT_EQ(tree.counts[0].perturbed, 1);
  EXPECT_EQ(tree.counts[0].delayed, 0);
}

// A random sparse indefinite matrix with zero diagonals in a random order.
AnalyzedMatrix RandomIndefinite(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    e.push_back({i, i, i % 3 == 0 ? 0.0 : 2 * value(rng)});
    for (int j = 0; j < i; ++j) {
      if (rng() % 6 == 0) e.push_back({i, j, value(rng)});
    }
  }
  std::vector<int32_t> fill = Identity(n);
  std::shuffle(fill.begin(), fill.end(), rng);
  return Analyzed(LowerFromEntries(n, e), fill);
}

TEST(LdltFront, FrontTreeReproducesRandomIndefiniteMatrices) {
  int checked = 0;
  int64_t delayed = 0;
  for (unsigned seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE(seed);
    const AnalyzedMatrix fr = RandomIndefinite(24, seed);
    Tree tree;
    FactorAll(fr, true, {}, &tree);
    int64_t perturbed = 0, pivots = 0;
    for (int64_t f = 0; f < fr.sym.num_fronts(); ++f) {
      perturbed += tree.counts[f].perturbed;
      pivots += tree.factors.fronts[f].q;
      delayed += tree.counts[f].delayed;
    }
    EXPECT_EQ(pivots, 24);
    if (perturbed > 0) continue;  // a singular draw: nothing exact to check
    const Dense a = PermutedDense(fr);
    EXPECT_LE(MaxDifference(Product(tree.factors, 24, AllFronts(fr.sym)), a),
              1e-9);
    ++checked;
  }
  // Guards against a vacuous pass: most draws are regular, and the zero
  // diagonals make some fronts delay pivots to their parents.
  EXPECT_GE(checked, 4);
  EXPECT_GT(delayed, 0);
}

TEST(LdltFront, StackAndHeapContributionBlocksGiveTheSameFactor) {
  const AnalyzedMatrix fr = RandomIndefinite(30, 3);
  ASSERT_GT(fr.sym.num_fronts(), 2);
  Tree stack, heap;
  FactorAll(fr, true, {}, &stack);
  FactorAll(fr, false, {}, &heap);
  EXPECT_EQ(stack.ws.stack_top, 0);
  for (int64_t f = 0; f < fr.sym.num_fronts(); ++f) {
    const FrontFactor& x = stack.factors.fronts[f];
    const FrontFactor& y = heap.factors.fronts[f];
    ASSERT_EQ(x.q, y.q);
    ASSERT_EQ(x.rows.size(), y.rows.size());
    for (size_t s = 0; s < x.rows.size(); ++s) EXPECT_EQ(x.rows[s], y.rows[s]);
    for (size_t s = 0; s < x.l.size(); ++s) EXPECT_EQ(x.l[s], y.l[s]);
    for (int t = 0; t < x.q; ++t) EXPECT_EQ(x.d_diag[t], y.d_diag[t]);
  }
}

// A dense SPD matrix of order 120 (one front of 120 fully summed columns):
// the unpivoted kernel takes every pivot and the factor reproduces the
// matrix; on random indefinite matrices with zero diagonals its attempt
// fails, the blocked a-posteriori kernel takes the fronts with the pivoting
// kernel's inertia, and without it the restored fronts give exactly the
// pivoting kernel's factor.
TEST(LdltFront, UnpivotedKernelOnLargeFronts) {
  const int n = 120;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    e.push_back({i, i, 2.0 * n});
    for (int j = 0; j < i; ++j) e.push_back({i, j, value(rng)});
  }
  const AnalyzedMatrix spd = Analyzed(LowerFromEntries(n, e), Identity(n));
  Tree fast;
  FactorAll(spd, true, {}, &fast, /*unpivoted=*/true);
  EXPECT_EQ(InertiaOfD(fast.factors).positive, n);
  EXPECT_LE(MaxDifference(Product(fast.factors, n, AllFronts(spd.sym)),
                          PermutedDense(spd)),
            1e-9 * n);

  // Random indefinite matrices with zero diagonals: the natural order fails
  // and the blocked a-posteriori kernel runs; the factor reproduces the
  // matrix with the pivoting kernel's inertia.
  int large_fronts = 0;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(seed);
    const AnalyzedMatrix fr = RandomIndefinite(110, seed);
    Tree pivoting, tried;
    FactorAll(fr, true, {}, &pivoting);
    FactorAll(fr, true, {}, &tried, /*unpivoted=*/true);
    int64_t perturbed = 0;
    for (int64_t f = 0; f < fr.sym.num_fronts(); ++f) {
      if (tried.factors.fronts[f].q >= 64) ++large_fronts;
      perturbed += pivoting.counts[f].perturbed + tried.counts[f].perturbed;
    }
    if (perturbed > 0) continue;  // singular: nothing exact to compare
    const Inertia x = InertiaOfD(pivoting.factors);
    const Inertia y = InertiaOfD(tried.factors);
    EXPECT_EQ(x.positive, y.positive);
    EXPECT_EQ(x.negative, y.negative);
    EXPECT_EQ(x.zero, y.zero);
    EXPECT_LE(MaxDifference(Product(tried.factors, 110, AllFronts(fr.sym)),
                            PermutedDense(fr)),
              1e-9);
  }
  EXPECT_GT(large_fronts, 0);  // the attempts were made

  // No diagonal at all, and the pivoting kernel as the fallback: the front
  // restored after the failed attempt gives exactly its factor.
  std::vector<Entry> zero_diagonal;
  for (int i = 0; i < n; ++i) {
    zero_diagonal.push_back({i, i, 0.0});
    for (int j = 0; j < i; ++j) zero_diagonal.push_back({i, j, value(rng)});
  }
  const AnalyzedMatrix zd =
      Analyzed(LowerFromEntries(n, zero_diagonal), Identity(n));
  Tree pivoting, tried;
  FactorAll(zd, true, {}, &pivoting);
  FactorAll(zd, true, {}, &tried, /*unpivoted=*/true, /*app=*/false);
  for (int64_t f = 0; f < zd.sym.num_fronts(); ++f) {
    const FrontFactor& x = pivoting.factors.fronts[f];
    const FrontFactor& y = tried.factors.fronts[f];
    ASSERT_EQ(x.q, y.q);
    for (size_t s = 0; s < x.l.size(); ++s) ASSERT_EQ(x.l[s], y.l[s]);
    for (int t = 0; t < x.q; ++t) ASSERT_EQ(x.d_diag[t], y.d_diag[t]);
  }
}

// A saddle point [[I, B^T], [B, 0]] in one front, the multipliers first:
// the natural order fails at once; the blocked a-posteriori kernel takes
// every pivot within the threshold (|L| <= 1/u), none perturbed, with the
// inertia (primal, multipliers, 0).
TEST(LdltFront, SaddlePointFrontIsTakenByTheBlockedPivotingKernel) {
  const int n1 = 90, n2 = 40, n = n1 + n2;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<Entry> e;
  // Multipliers 0..n2-1 (zero diagonal), primal n2..n-1 (diagonal 4); every
  // entry stored (explicit zeros outside B), so that the pattern is dense
  // and the matrix one front.
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      double v = 0;
      if (i == j && i >= n2) v = 4.0;
      if (i >= n2 && j < n2) v = value(rng);
      e.push_back({i, j, v});
    }
  }
  const AnalyzedMatrix fr = Analyzed(LowerFromEntries(n, e), Identity(n));
  ASSERT_EQ(fr.sym.num_fronts(), 1);
  Tree tried;
  FactorAll(fr, true, {}, &tried, /*unpivoted=*/true);
  const FrontFactor& root = tried.factors.fronts[0];
  ASSERT_EQ(root.q, n);
  EXPECT_EQ(tried.counts[0].perturbed, 0);
  EXPECT_EQ(tried.counts[0].weak, 0);
  double max_l = 0;
  for (double l : root.l) max_l = std::max(max_l, std::fabs(l));
  EXPECT_LE(max_l, 1 / kernels::DenseLdltParams().threshold + 1e-9);
  const Inertia inertia = InertiaOfD(tried.factors);
  EXPECT_EQ(inertia.positive, n1);
  EXPECT_EQ(inertia.negative, n2);
  EXPECT_LE(MaxDifference(Product(tried.factors, n, AllFronts(fr.sym)),
                          PermutedDense(fr)),
            1e-9);
}

}  // namespace
}  // namespace factord::internal
