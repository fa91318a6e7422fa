// The supernodal substitution (core/ldlt/ldlt_solve.h) against plain loops
// on factors with 1x1, 2x2, perturbed and delayed pivots, from the cpu
// front tree on planted matrices: one and three right-hand sides, with BLAS
// on every front, plain loops on every front and the default mix. Then,
// through the facade, the refinement rule (a well-conditioned system takes
// no step, one with pivot growth takes steps, a shifted one is solved as
// factorized) and SolveMany against Solve column by column.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "core/ldlt/kernels/ldlt_kernels.h"
#include "core/ldlt/ldlt_solve.h"
#include "core/ldlt/ldlt_symbolic.h"
#include "core/solver/residual.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"
#include "tests/core/block_ildlt/block_ildlt_planted.h"

namespace factord {
namespace {

using internal::FrontCounts;
using internal::FrontFactor;
using internal::FrontFactors;
using internal::LdltSymbolic;
using testing::Entry;
using testing::LowerFromEntries;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// The factor of a planted matrix: the symbolic structure in the given fill
// order and the cpu front tree on the values as given (no scaling).
struct Factored {
  int n = 0;
  LdltSymbolic sym;
  FrontFactors factors;
  std::vector<FrontCounts> counts;
};

std::unique_ptr<Factored> Factor(const CsrMatrix& a,
                                 const std::vector<int32_t>& fill) {
  auto out = std::make_unique<Factored>();
  out->n = static_cast<int>(a.rows);
  absl::StatusOr<LdltSymbolic> sym = internal::BuildLdltSymbolic(a, fill);
  EXPECT_TRUE(sym.ok()) << sym.status();
  out->sym = *std::move(sym);
  std::vector<double> values;
  for (int64_t src : out->sym.col_src) {
    values.push_back(src >= 0 ? a.values[src] : 0.0);
  }
  ExecContext ctx;
  ctx.threads = 2;
  absl::Status s = kernels::cpu::FactorizeFrontTree(
      ctx, out->sym, values, {}, &out->factors, &out->counts);
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

// y <- (L D L^T)^{-1} y by plain loops, one right-hand side at a time:
// forward by columns of L over all fronts, then D, then backward by dot
// products (the contract of SolveWithFronts written out).
void ReferenceSolve(std::span<const FrontFactor> fronts, int nrhs, double* y,
                    int64_t ldy) {
  for (int k = 0; k < nrhs; ++k) {
    double* x = y + k * ldy;
    for (const FrontFactor& fr : fronts) {
      const int ld = static_cast<int>(fr.rows.size());
      for (int t = 0; t < fr.q; ++t) {
        const double* col = &fr.l[static_cast<size_t>(t) * ld];
        for (int s = t + 1; s < ld; ++s)
          x[fr.rows[s]] -= col[s] * x[fr.rows[t]];
      }
    }
    for (const FrontFactor& fr : fronts) {
      for (int t = 0; t < fr.q; ++t) {
        if (fr.pivot_size[t] == 2) {
          const double a = fr.d_diag[t], b = fr.d_off[t], c = fr.d_diag[t + 1];
          const double det = a * c - b * b;
          const double x0 = x[fr.rows[t]], x1 = x[fr.rows[t + 1]];
          x[fr.rows[t]] = (c * x0 - b * x1) / det;
          x[fr.rows[t + 1]] = (a * x1 - b * x0) / det;
          ++t;
        } else {
          x[fr.rows[t]] /= fr.d_diag[t];
        }
      }
    }
    for (auto it = fronts.rbegin(); it != fronts.rend(); ++it) {
      const FrontFactor& fr = *it;
      const int ld = static_cast<int>(fr.rows.size());
      for (int t = fr.q - 1; t >= 0; --t) {
        const double* col = &fr.l[static_cast<size_t>(t) * ld];
        for (int s = t + 1; s < ld; ++s) {
          x[fr.rows[t]] -= col[s] * x[fr.rows[s]];
        }
      }
    }
  }
}

// The same substitution on magnitudes: |b| through |L|, |D^{-1}| and |L^T|
// (every product and sum of absolute values). Rounding errors of any
// summation order are bounded by a small multiple of eps times this, per
// entry (for unit triangular T = I - N, |T^{-1}| <= (I - |N|)^{-1}).
void MagnitudeSolve(std::span<const FrontFactor> fronts, int nrhs, double* y,
                    int64_t ldy) {
  for (int k = 0; k < nrhs; ++k) {
    double* m = y + k * ldy;
    for (const FrontFactor& fr : fronts) {
      const int ld = static_cast<int>(fr.rows.size());
      for (int t = 0; t < fr.q; ++t) {
        const double* col = &fr.l[static_cast<size_t>(t) * ld];
        for (int s = t + 1; s < ld; ++s) {
          m[fr.rows[s]] += std::abs(col[s]) * m[fr.rows[t]];
        }
      }
    }
    for (const FrontFactor& fr : fronts) {
      for (int t = 0; t < fr.q; ++t) {
        if (fr.pivot_size[t] == 2) {
          const double a = fr.d_diag[t], b = fr.d_off[t], c = fr.d_diag[t + 1];
          const double det = std::abs(a * c - b * b);
          const double m0 = m[fr.rows[t]], m1 = m[fr.rows[t + 1]];
          m[fr.rows[t]] = (std::abs(c) * m0 + std::abs(b) * m1) / det;
          m[fr.rows[t + 1]] = (std::abs(a) * m1 + std::abs(b) * m0) / det;
          ++t;
        } else {
          m[fr.rows[t]] /= std::abs(fr.d_diag[t]);
        }
      }
    }
    for (auto it = fronts.rbegin(); it != fronts.rend(); ++it) {
      const FrontFactor& fr = *it;
      const int ld = static_cast<int>(fr.rows.size());
      for (int t = fr.q - 1; t >= 0; --t) {
        const double* col = &fr.l[static_cast<size_t>(t) * ld];
        for (int s = t + 1; s < ld; ++s) {
          m[fr.rows[t]] += std::abs(col[s]) * m[fr.rows[s]];
        }
      }
    }
  }
}

std::vector<int32_t> Shuffled(int n, std::mt19937& rng) {
  std::vector<int32_t> p(n);
  for (int i = 0; i < n; ++i) p[i] = i;
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

// A random sparse symmetric indefinite matrix (each entry below the
// diagonal stored with probability 1/`sparsity`) whose every third diagonal
// is zero: the zero diagonals make fronts delay pivots and take 2x2 pivots.
std::vector<Entry> RandomIndefinite(int n, int sparsity, std::mt19937& rng) {
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    e.push_back({i, i, i % 3 == 0 ? 0.0 : 2 * value(rng)});
    for (int j = 0; j < i; ++j) {
      if (static_cast<int>(rng() % sparsity) == 0)
        e.push_back({i, j, value(rng)});
    }
  }
  return e;
}

// `e` (order n) with one more variable that repeats variable 0: the matrix
// is singular, and a pivot is perturbed.
std::vector<Entry> WithDuplicateOfZero(int n, std::vector<Entry> e) {
  // Row n equals row 0: a(n, n) = a(n, 0) = a(0, 0), a(n, i) = a(i, 0).
  std::vector<Entry> copy;
  for (const auto& [i, j, v] : e) {
    if (j != 0) continue;
    if (i == 0) {
      copy.push_back({n, 0, v});
      copy.push_back({n, n, v});
    } else {
      copy.push_back({n, i, v});
    }
  }
  e.insert(e.end(), copy.begin(), copy.end());
  return e;
}

struct Case {
  const char* name;
  std::unique_ptr<Factored> factored;
};

std::vector<Case> PlantedCases() {
  std::vector<Case> cases;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    std::mt19937 rng(seed);
    const int n = 30;
    std::vector<Entry> e = RandomIndefinite(n, 6, rng);
    cases.push_back(
        {"sparse", Factor(LowerFromEntries(n, e), Shuffled(n, rng))});
    std::vector<Entry> d = WithDuplicateOfZero(n, e);
    cases.push_back(
        {"singular", Factor(LowerFromEntries(n + 1, d), Shuffled(n + 1, rng))});
  }
  // Dense enough that the fronts near the root are above the BLAS
  // threshold.
  for (unsigned seed = 5; seed <= 6; ++seed) {
    std::mt19937 rng(seed);
    const int n = 120;
    cases.push_back(
        {"large", Factor(LowerFromEntries(n, RandomIndefinite(n, 3, rng)),
                         Shuffled(n, rng))});
  }
  return cases;
}

TEST(LdltSupernodalSolve, MatchesPlainLoopsOnEveryKindOfPivot) {
  std::vector<Case> cases = PlantedCases();
  int64_t two_by_two = 0, delayed = 0, perturbed = 0, blas_fronts = 0;
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> value(-1, 1);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Factored& f = *c.factored;
    for (const FrontCounts& counts : f.counts) {
      two_by_two += counts.two_by_two;
      delayed += counts.delayed;
      perturbed += counts.perturbed;
    }
    for (const FrontFactor& fr : f.factors.fronts) {
      const int64_t entries = static_cast<int64_t>(fr.rows.size()) * fr.q;
      blas_fronts += entries >= internal::kSolveBlasMinEntries;
    }
    for (int nrhs : {1, 3}) {
      const int64_t ldy = f.n + 2;  // a leading dimension above n
      std::vector<double> b(ldy * nrhs);
      for (double& v : b) v = value(rng);
      std::vector<double> expected = b, magnitude(b.size());
      ReferenceSolve(f.factors.fronts, nrhs, expected.data(), ldy);
      for (size_t i = 0; i < b.size(); ++i) magnitude[i] = std::abs(b[i]);
      MagnitudeSolve(f.factors.fronts, nrhs, magnitude.data(), ldy);
      for (int64_t blas_min : {int64_t{0}, internal::kSolveBlasMinEntries,
                               std::numeric_limits<int64_t>::max()}) {
        SCOPED_TRACE(::testing::Message()
                     << "nrhs " << nrhs << ", blas_min_entries " << blas_min);
        std::vector<double> y = b, work;
        internal::SolveWithFronts(f.factors.fronts, f.n, nrhs, y.data(), ldy,
                                  &work, blas_min);
        // Measured at most 0.4 eps of the magnitude bound on these cases.
        for (int k = 0; k < nrhs; ++k) {
          for (int i = 0; i < f.n; ++i) {
            const int64_t e = k * ldy + i;
            EXPECT_NEAR(y[e], expected[e], 4 * kEps * magnitude[e])
                << "row " << i << " column " << k;
          }
          // The padding below n is not touched.
          for (int64_t i = f.n; i < ldy; ++i) {
            EXPECT_EQ(y[k * ldy + i], b[k * ldy + i]);
          }
        }
      }
    }
  }
  // Guards against a vacuous pass: every kind of pivot and both paths.
  EXPECT_GT(two_by_two, 0);
  EXPECT_GT(delayed, 0);
  EXPECT_GT(perturbed, 0);
  EXPECT_GT(blas_fronts, 0);
}

TEST(LdltSupernodalSolve, ResidualNormsFromAResidualMatchTheFacadeNorms) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-1, 1);
  const int n = 40;
  const CsrMatrix a = LowerFromEntries(n, RandomIndefinite(n, 4, rng));
  std::vector<double> b(n), x(n), r(n);
  for (int i = 0; i < n; ++i) {
    b[i] = value(rng);
    x[i] = value(rng);
  }
  MultiplyUploaded(a, x, r);
  for (int i = 0; i < n; ++i) r[i] = b[i] - r[i];
  const ResidualNorms expected = ComputeResidualNorms(a, b, x);
  const ResidualNorms got = ResidualNormsOf(b, x, r, InfinityNorm(a));
  EXPECT_EQ(got.relative_residual, expected.relative_residual);
  EXPECT_EQ(got.backward_error, expected.backward_error);
  x[3] = std::numeric_limits<double>::quiet_NaN();
  r[3] = std::numeric_limits<double>::quiet_NaN();
  const ResidualNorms nan = ResidualNormsOf(b, x, r, 1.0);
  EXPECT_TRUE(std::isinf(nan.relative_residual));
  EXPECT_TRUE(std::isinf(nan.backward_error));
}

// Facade: analyze and factorize with method ldlt.
std::shared_ptr<const Factorization> FactorizeLdlt(CsrMatrix a,
                                                   FactorOptions options = {}) {
  options.method = Method::kLdlt;
  ExecContext ctx;
  ctx.threads = 2;
  auto shared = std::make_shared<const CsrMatrix>(std::move(a));
  auto analysis = Analyze(*shared, options, ctx);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  auto factorization = Factorize(shared, *analysis, options, ctx);
  EXPECT_TRUE(factorization.ok()) << factorization.status();
  return *factorization;
}

// The 1D Laplacian tridiag(-1, diagonal, -1) of order n.
CsrMatrix Tridiagonal(int n, double diagonal) {
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    e.push_back({i, i, diagonal});
    if (i > 0) e.push_back({i, i - 1, -1.0});
  }
  return LowerFromEntries(n, e);
}

std::vector<double> RandomVector(int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = value(rng);
  return v;
}

TEST(LdltSupernodalSolve, WellConditionedSystemTakesNoRefinementStep) {
  // Diagonally dominant: condition number below 3.
  const int n = 500;
  auto f = FactorizeLdlt(Tridiagonal(n, 4.0));
  const std::vector<double> b = RandomVector(n, 1);
  std::vector<double> x(n, 0.0);
  SolveReport report;
  ASSERT_TRUE(f->Solve(b, x, {}, {}, &report).ok());
  EXPECT_EQ(report.iterations, 0);
  EXPECT_EQ(report.status, SolveStatus::kConverged);
  EXPECT_LE(report.backward_error, 4 * kEps);
  EXPECT_GT(report.substitution_s, 0);
  EXPECT_GE(report.refinement_s, 0);
  EXPECT_GE(report.solve_s, report.substitution_s + report.refinement_s);
}

// 2x2 blocks [delta_k 1; 1 1] in natural order, factorized with static
// pivoting and no scaling: the pivot delta_k (between 1e-12 and 3.2e-12)
// grows the second one to about -1/delta_k, and a substitution computes
// the first unknown of a block as a difference of terms of size
// |b_2k| / delta_k, losing about eps / delta_k there, which refinement
// restores; a right-hand side that is zero on the first row of every block
// has no such difference and is solved at once.
CsrMatrix GrowthBlocks(int blocks) {
  std::vector<Entry> e;
  for (int k = 0; k < blocks; ++k) {
    e.push_back({2 * k, 2 * k, 1e-12 * (1 + 0.37 * (k % 7))});
    e.push_back({2 * k + 1, 2 * k, 1.0});
    e.push_back({2 * k + 1, 2 * k + 1, 1.0});
  }
  return LowerFromEntries(2 * blocks, e);
}

FactorOptions StaticNaturalUnscaled() {
  FactorOptions options;
  options.pivoting = Pivoting::kStatic;
  options.scaling = Scaling::kNone;
  options.ordering = Ordering::kNatural;
  return options;
}

TEST(LdltSupernodalSolve, PivotGrowthIsRefined) {
  const int n = 200;
  auto f = FactorizeLdlt(GrowthBlocks(n / 2), StaticNaturalUnscaled());
  const std::vector<double> b = RandomVector(n, 2);
  std::vector<double> x(n, 0.0);
  SolveOptions solve_options;
  solve_options.tolerance = 1e-12;
  SolveReport report;
  ASSERT_TRUE(f->Solve(b, x, solve_options, {}, &report).ok());
  EXPECT_GE(report.iterations, 1);
  EXPECT_EQ(report.status, SolveStatus::kConverged);
  EXPECT_LE(report.backward_error, 4 * kEps);
  EXPECT_GT(report.refinement_s, 0);
  // The norms reported are those of the solution returned.
  const ResidualNorms norms = ComputeResidualNorms(GrowthBlocks(n / 2), b, x);
  EXPECT_EQ(norms.relative_residual, report.relative_residual);
  EXPECT_EQ(norms.backward_error, report.backward_error);
}

TEST(LdltSupernodalSolve, RegularizedSystemIsSolvedAsFactorized) {
  // The 1D Laplacian of order 400 (condition number about 6.5e4) with an
  // IPM shift of 1e-7 on every diagonal entry: the solve solves the shifted
  // system it factorized, with no refinement step, and reports that
  // system's norms. The unshifted Laplacian's solution differs by about
  // shift / lambda_min = 1.6e-3.
  const int n = 400;
  FactorOptions options;
  options.shift_first = options.shift_rest = 1e-7;
  auto f = FactorizeLdlt(Tridiagonal(n, 2.0), options);
  const std::vector<double> b = RandomVector(n, 2);
  std::vector<double> x(n, 0.0);
  SolveOptions solve_options;
  solve_options.tolerance = 1e-10;
  SolveReport report;
  ASSERT_TRUE(f->Solve(b, x, solve_options, {}, &report).ok());
  EXPECT_EQ(report.iterations, 0);
  EXPECT_EQ(report.status, SolveStatus::kConverged);
  const CsrMatrix laplacian = Tridiagonal(n, 2.0);
  const ResidualNorms shifted =
      ComputeResidualNorms(laplacian, options.ShiftVector(n), b, x);
  EXPECT_EQ(shifted.relative_residual, report.relative_residual);
  EXPECT_EQ(shifted.backward_error, report.backward_error);
  EXPECT_LE(shifted.backward_error, 4 * kEps);
  EXPECT_GT(ComputeResidualNorms(laplacian, b, x).relative_residual, 1e-6);
}

TEST(LdltSupernodalSolve, SolveManyMatchesSolveColumnByColumn) {
  // Indefinite with zero diagonals (2x2 and delayed pivots), three columns:
  // a random one, one with an initial guess, and a zero one.
  std::mt19937 rng(11);
  const int n = 80;
  CsrMatrix a = LowerFromEntries(n, RandomIndefinite(n, 5, rng));
  for (FactorOptions options : {FactorOptions{}, [] {
                                  FactorOptions o;
                                  o.shift_first = o.shift_rest = 1e-9;
                                  return o;
                                }()}) {
    auto f = FactorizeLdlt(a, options);
    const int nrhs = 3;
    std::vector<double> b = RandomVector(n * nrhs, 3);
    std::fill(b.begin() + 2 * n, b.end(), 0.0);
    std::vector<double> x0(n * nrhs, 0.0);
    const std::vector<double> guess = RandomVector(n, 4);
    std::copy(guess.begin(), guess.end(), x0.begin() + n);

    std::vector<double> many = x0;
    std::vector<SolveReport> reports;
    ASSERT_TRUE(f->SolveMany(b, many, nrhs, {}, {}, &reports).ok());
    ASSERT_EQ(reports.size(), 3u);
    for (int k = 0; k < nrhs; ++k) {
      SCOPED_TRACE(k);
      std::vector<double> x(x0.begin() + k * n, x0.begin() + (k + 1) * n);
      SolveReport report;
      ASSERT_TRUE(
          f->Solve(std::span(b).subspan(k * n, n), x, {}, {}, &report).ok());
      double scale = 0;
      for (double v : x) scale = std::max(scale, std::abs(v));
      for (int i = 0; i < n; ++i) {
        EXPECT_NEAR(many[k * n + i], x[i], 1e-12 * std::max(scale, 1.0));
      }
      EXPECT_EQ(reports[k].status, report.status);
      EXPECT_EQ(reports[k].iterations, report.iterations);
      EXPECT_LE(reports[k].relative_residual, SolveOptions{}.tolerance);
      EXPECT_EQ(reports[k].solve_s, reports[0].solve_s);
      EXPECT_EQ(reports[k].substitution_s, reports[0].substitution_s);
    }
    // The zero column is solved exactly by x = 0.
    for (int i = 0; i < n; ++i) EXPECT_EQ(many[2 * n + i], 0.0);
    EXPECT_EQ(reports[2].iterations, 0);
  }
}

TEST(LdltSupernodalSolve, SolveManyRefinesEachColumnAsLongAsItNeeds) {
  // GrowthBlocks: a random right-hand side needs a step, one that is zero
  // on the first row of every block none (it is solved at once), a zero
  // one none. Each column's steps and solution are those of Solve.
  const int n = 200;
  auto f = FactorizeLdlt(GrowthBlocks(n / 2), StaticNaturalUnscaled());
  const int nrhs = 3;
  std::vector<double> b = RandomVector(n * nrhs, 5);
  for (int i = 0; i < n; i += 2) b[n + i] = 0.0;
  std::fill(b.begin() + 2 * n, b.end(), 0.0);
  SolveOptions solve_options;
  solve_options.tolerance = 1e-12;
  std::vector<double> many(n * nrhs, 0.0);
  std::vector<SolveReport> reports;
  ASSERT_TRUE(f->SolveMany(b, many, nrhs, solve_options, {}, &reports).ok());
  for (int k = 0; k < nrhs; ++k) {
    SCOPED_TRACE(k);
    std::vector<double> x(n, 0.0);
    SolveReport report;
    ASSERT_TRUE(
        f->Solve(std::span(b).subspan(k * n, n), x, solve_options, {}, &report)
            .ok());
    EXPECT_EQ(reports[k].iterations, report.iterations);
    EXPECT_EQ(reports[k].status, SolveStatus::kConverged);
    double scale = 0;
    for (double v : x) scale = std::max(scale, std::abs(v));
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(many[k * n + i], x[i], 1e-12 * std::max(scale, 1.0));
    }
  }
  EXPECT_GE(reports[0].iterations, 1);
  EXPECT_EQ(reports[1].iterations, 0);
  EXPECT_EQ(reports[2].iterations, 0);
  EXPECT_GT(reports[0].refinement_s, 0);
}

TEST(LdltSupernodalSolve, SolveManyChecksItsSizes) {
  auto f = FactorizeLdlt(Tridiagonal(10, 4.0));
  std::vector<double> b(20), x(19);
  std::vector<SolveReport> reports;
  EXPECT_EQ(f->SolveMany(b, x, 2, {}, {}, &reports).code(),
            absl::StatusCode::kInvalidArgument);
  x.resize(20);
  EXPECT_EQ(f->SolveMany(b, x, 3, {}, {}, &reports).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(f->SolveMany({}, {}, 0, {}, {}, &reports).ok());
  EXPECT_TRUE(reports.empty());
}

// A factorization that only has Solve: x = b / 2, to test the default
// SolveMany's slicing into columns.
class HalvingFactorization final : public Factorization {
 public:
  const FactorReport& report() const override { return report_; }
  int64_t bytes() const override { return 0; }
  absl::Status Solve(std::span<const double> b, std::span<double> x,
                     const SolveOptions&, const ExecContext&,
                     SolveReport* report) const override {
    for (size_t i = 0; i < b.size(); ++i) x[i] = b[i] / 2;
    report->iterations = static_cast<int>(b.size());
    report->relative_residual = b[0];
    return absl::OkStatus();
  }

 private:
  FactorReport report_;
};

TEST(LdltSupernodalSolve, DefaultSolveManyCallsSolvePerColumn) {
  HalvingFactorization f;
  const std::vector<double> b = {1, 2, 3, 4, 5, 6};
  std::vector<double> x(6);
  std::vector<SolveReport> reports;
  ASSERT_TRUE(f.SolveMany(b, x, 3, {}, {}, &reports).ok());
  EXPECT_EQ(x, (std::vector<double>{0.5, 1, 1.5, 2, 2.5, 3}));
  ASSERT_EQ(reports.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(reports[k].iterations, 2);
    EXPECT_EQ(reports[k].relative_residual, b[2 * k]);
  }
}

}  // namespace
}  // namespace factord
