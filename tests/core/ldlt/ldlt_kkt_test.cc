// Method ldlt on the real KKT systems of ../shared/data/kkt (every problem,
// 2x2 and 3x3 forms, every iteration) and on the saddle-point variant of
// each 2x2 system (its (2,2) diagonal set to 0, entries kept), skipped
// without that set; then on the symmetric matrices with values that
// tests/data bundles.
//
// Expected inertia from the structure the data README documents: the
// leading rows have a negative diagonal (the (1,1) block -(H + D), negative
// definite), the trailing rows a positive diagonal with no entry between
// two trailing rows (D2, and in the 3x3 form the bound block). A symmetric
// quasi-definite matrix [-E A^T; A F] has inertia (dim F, dim E, 0); the
// saddle-point variant [-E A^T; A 0] has exactly dim E negative
// eigenvalues (Haynsworth), rank(A) positive ones and dim F - rank(A)
// zero ones; rank(A) comes from LAPACK and CHOLMOD (constraint_rank.h),
// not from ldlt. The sweep must find one system per iteration folder.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/base/timer.h"
#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"
#include "tests/core/ldlt/constraint_rank.h"
#include "tests/core/ldlt/ldlt_test_util.h"

namespace factord {
namespace {

// The number of leading negative-diagonal rows when `a` has the documented
// KKT structure, or -1 (with the reason) when it does not.
int64_t NegativeBlockSize(const CsrMatrix& a, std::string* why) {
  const int64_t n = a.rows;
  std::vector<double> diagonal(n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (a.col_idx[k] == i) diagonal[i] = a.values[k];
    }
  }
  int64_t n1 = 0;
  while (n1 < n && diagonal[n1] < 0) ++n1;
  for (int64_t i = n1; i < n; ++i) {
    if (!(diagonal[i] > 0)) {
      *why = absl::StrFormat("row %d: diagonal %g is not positive", i,
                             diagonal[i]);
      return -1;
    }
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (a.col_idx[k] >= n1 && a.col_idx[k] != i) {
        *why = absl::StrFormat("entry (%d, %d) couples two trailing rows", i,
                               a.col_idx[k]);
        return -1;
      }
    }
  }
  return n1;
}

// The saddle-point variant: trailing diagonal entries set to 0 (kept).
CsrMatrix SaddlePoint(const CsrMatrix& a, int64_t n1) {
  CsrMatrix s = a;
  for (int64_t i = n1; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (a.col_idx[k] == i) s.values[k] = 0.0;
    }
  }
  return s;
}

// FACTORD_KKT_SCALING=matching|ruiz|none (default: the method's default)
// and FACTORD_KKT_PAIRS=0 (matching without its 2x2 candidates imposed on
// the order) measure the same systems under other options.
FactorOptions OptionsFromEnvironment() {
  FactorOptions options;
  const char* scaling = std::getenv("FACTORD_KKT_SCALING");
  if (scaling != nullptr) {
    const std::string s = scaling;
    options.scaling = s == "matching" ? Scaling::kMatching
                      : s == "none"   ? Scaling::kNone
                                      : Scaling::kRuiz;
  }
  const char* pairs = std::getenv("FACTORD_KKT_PAIRS");
  if (pairs != nullptr && std::string(pairs) == "0") {
    options.impose_matching_pairs = false;
  }
  return options;
}

// The zero eigenvalues of the saddle-point variant [-E A^T; A 0] of the
// 2x2 system `a` (E = -(H + D) negative definite: n1 rows): with A of m
// rows and rank r, m - r. The rank is LAPACK's and CHOLMOD's
// (constraint_rank.h), not ldlt's.
int64_t SaddleZeroEigenvalues(const CsrMatrix& a, int64_t n1,
                              const std::string& name) {
  absl::StatusOr<testing::ConstraintRank> rank =
      testing::RankOfConstraintBlock(a, n1);
  EXPECT_TRUE(rank.ok()) << name << ": " << rank.status();
  if (!rank.ok()) return 0;
  std::printf(
      "%-34s A: %lld x %lld, rank %lld (%lld components, %lld by the Gram "
      "Cholesky, smallest rcond %.2g)\n",
      name.c_str(), static_cast<long long>(rank->rows),
      static_cast<long long>(rank->cols), static_cast<long long>(rank->rank),
      static_cast<long long>(rank->components),
      static_cast<long long>(rank->gram_components), rank->smallest_gram_rcond);
  return rank->rows - rank->rank;
}

// expected_zero > 0: the matrix is singular with that many zero
// eigenvalues; the factorization must say so (that many perturbed pivots
// and zero pivots, status kPerturbed, inertia_reliable false) instead of
// claiming a nonsingular inertia. Otherwise the inertia must be exact and
// no pivot perturbed.
void CheckSystem(const std::string& name, std::shared_ptr<const CsrMatrix> a,
                 const std::vector<double>& b, int64_t expected_negative,
                 int64_t expected_positive, double* worst_residual,
                 int64_t expected_zero = 0, int* singular = nullptr,
                 bool backward_stable_suffices = false) {
  Timer timer;
  auto run = testing::RunLdlt(a, b, OptionsFromEnvironment());
  const double seconds = timer.Seconds();
  ASSERT_TRUE(run.ok()) << name << ": " << run.status();
  const FactorReport& f = run->factor;
  std::printf(
      "%-34s n=%6lld  relres=%8.1e berr=%8.1e ref=%d  inertia=(%lld,%lld,%lld)"
      " delayed=%lld 2x2=%lld pert=%lld nnzL=%lld  analyze=%.3fs "
      "factor=%.3fs total=%.3fs\n",
      name.c_str(), static_cast<long long>(a->rows),
      run->solve.relative_residual, run->solve.backward_error,
      run->solve.iterations, static_cast<long long>(f.inertia.positive),
      static_cast<long long>(f.inertia.negative),
      static_cast<long long>(f.inertia.zero),
      static_cast<long long>(f.delayed_pivots),
      static_cast<long long>(f.two_by_two_pivots),
      static_cast<long long>(f.perturbed_pivots),
      static_cast<long long>(f.nnz_factor), f.analyze_s,
      f.preprocess_s + f.factorize_s, seconds);
  std::fflush(stdout);
  *worst_residual = std::max(*worst_residual, run->solve.relative_residual);
  if (backward_stable_suffices && run->solve.relative_residual > 1e-10) {
    // Ill-conditioned (huge ||x||): the residual cannot go below roundoff
    // in A x; ask for a backward error at machine precision instead.
    EXPECT_LE(run->solve.backward_error, 1e-15) << name;
  } else {
    EXPECT_LE(run->solve.relative_residual, 1e-10) << name;
  }
  if (expected_zero > 0) {
    EXPECT_EQ(f.status, FactorStatus::kPerturbed)
        << name << ": status " << FactorStatusName(f.status);
    EXPECT_FALSE(f.inertia_reliable) << name;
    EXPECT_EQ(f.perturbed_pivots, expected_zero) << name;
    EXPECT_EQ(f.inertia.zero, expected_zero) << name;
    EXPECT_EQ(f.inertia.negative, expected_negative) << name;
    EXPECT_EQ(f.inertia.positive, expected_positive - expected_zero) << name;
    if (singular != nullptr && f.perturbed_pivots > 0) ++*singular;
    return;
  }
  EXPECT_EQ(f.perturbed_pivots, 0)
      << name << ": perturbed pivots, but the matrix is nonsingular";
  EXPECT_EQ(f.status, FactorStatus::kOk)
      << name << ": status " << FactorStatusName(f.status);
  EXPECT_TRUE(f.inertia_reliable) << name;
  EXPECT_EQ(f.inertia.negative, expected_negative) << name;
  EXPECT_EQ(f.inertia.positive, expected_positive) << name;
  EXPECT_EQ(f.inertia.zero, 0) << name;
}

TEST(LdltKkt, EveryKktSystemAndItsSaddlePointVariant) {
  if (!testing::HaveSharedData()) {
    GTEST_SKIP() << testing::SharedDataAbsent(
        "the sweep over every KKT system of kkt/ and its saddle-point "
        "variant");
  }
  const std::vector<testing::KktSystem> systems = testing::KktSystems();
  const int64_t folders = testing::KktIterationFolders();
  ASSERT_GT(folders, 0) << "no kkt/<problem>/<form>/iter_<k> folder";
  ASSERT_EQ(static_cast<int64_t>(systems.size()), folders)
      << "K_<k>.mtx files found vs iteration folders";
  std::printf("%zu KKT systems\n", systems.size());
  Timer total;
  double worst = 0;
  int singular = 0, expected_singular = 0, run = 0;
  // FACTORD_KKT_FILTER=<substring> runs the matching systems only.
  const char* filter = std::getenv("FACTORD_KKT_FILTER");
  for (const testing::KktSystem& system : systems) {
    if (filter != nullptr && system.name.find(filter) == std::string::npos) {
      continue;
    }
    ++run;
    auto a = ReadMatrixMarket(system.matrix);
    ASSERT_TRUE(a.ok()) << system.matrix << ": " << a.status();
    auto b = ReadDenseVector(system.rhs);
    ASSERT_TRUE(b.ok()) << system.rhs << ": " << b.status();
    std::string why;
    const int64_t n1 = NegativeBlockSize(*a, &why);
    ASSERT_GE(n1, 0) << system.name << ": not the documented KKT form: " << why;
    const int64_t m = a->rows - n1;
    auto shared = std::make_shared<const CsrMatrix>(*a);
    CheckSystem(system.name, shared, *b, n1, m, &worst);
    if (system.name.find("/2x2/") != std::string::npos) {
      const std::string saddle = system.name + " saddle";
      const int64_t zero = SaddleZeroEigenvalues(*a, n1, saddle);
      if (zero > 0) ++expected_singular;
      CheckSystem(saddle,
                  std::make_shared<const CsrMatrix>(SaddlePoint(*a, n1)), *b,
                  n1, m, &worst, zero, &singular);
    }
  }
  std::printf(
      "%d of %zu KKT systems (+ saddle variants), worst relative residual "
      "%.2e, %d saddle variants singular (%d by the rank of A), %.1f s\n",
      run, systems.size(), worst, singular, expected_singular, total.Seconds());
  // A filter that matches nothing runs nothing: that is a failure, not a
  // pass.
  EXPECT_GT(run, 0) << "FACTORD_KKT_FILTER=" << (filter ? filter : "")
                    << " matches no system";
  if (filter == nullptr) EXPECT_EQ(run, static_cast<int>(systems.size()));
}

TEST(LdltKkt, SymmetricCollectionMatrices) {
  double worst = 0;
  for (const char* name : {"494_bus", "1138_bus", "bcsstk13"}) {
    auto a =
        ReadMatrixMarket(testing::TestDataPath(std::string(name) + ".mtx"));
    ASSERT_TRUE(a.ok()) << name << ": " << a.status();
    const int64_t n = a->rows;
    // SPD: every pivot positive.
    CheckSystem(name, std::make_shared<const CsrMatrix>(*std::move(a)), {}, 0,
                n, &worst, /*expected_zero=*/0, nullptr,
                /*backward_stable_suffices=*/true);
  }
  // Indefinite, hundreds of zero diagonal entries: inertia from LAPACK's
  // dense Bunch-Kaufman on the same matrix.
  for (const char* name :
       {"hangGlider_2", "tumorAntiAngiogenesis_2", "reorientation_1"}) {
    auto a =
        ReadMatrixMarket(testing::TestDataPath(std::string(name) + ".mtx"));
    ASSERT_TRUE(a.ok()) << name << ": " << a.status();
    const Inertia expected = testing::LapackInertia(*a);
    ASSERT_EQ(expected.zero, 0) << name;
    CheckSystem(name, std::make_shared<const CsrMatrix>(*std::move(a)), {},
                expected.negative, expected.positive, &worst,
                /*expected_zero=*/0, nullptr,
                /*backward_stable_suffices=*/true);
  }
}

TEST(LdltKkt, SingularZeniosIsFlagged) {
  auto a = ReadMatrixMarket(testing::TestDataPath("zenios.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  auto run = testing::RunLdlt(std::make_shared<const CsrMatrix>(*a), {});
  ASSERT_TRUE(run.ok()) << run.status();
  std::printf(
      "zenios: status %d perturbed %lld inertia (%lld,%lld,%lld) "
      "relres %.2e solve status %d\n",
      static_cast<int>(run->factor.status),
      static_cast<long long>(run->factor.perturbed_pivots),
      static_cast<long long>(run->factor.inertia.positive),
      static_cast<long long>(run->factor.inertia.negative),
      static_cast<long long>(run->factor.inertia.zero),
      run->solve.relative_residual, static_cast<int>(run->solve.status));
  EXPECT_NE(run->factor.status, FactorStatus::kOk);
  EXPECT_FALSE(run->factor.inertia_reliable);
  EXPECT_GT(run->factor.inertia.zero, 0);
}

}  // namespace
}  // namespace factord
