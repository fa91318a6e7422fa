// ldlt's ordering=auto (CHOLMOD's default strategy): exact predictions on
// a tiny arrow matrix, CHOLMOD's rule at its boundaries, AMD kept on a 2D
// grid, a small KKT system and a 20^3 grid below the rule's threshold (same
// permutation as plain AMD), METIS chosen on a 26^3 grid where it predicts
// fewer flops, 2x2 pairs kept consecutive,
// explicit orderings kept as asked, and the factorization report naming the
// ordering with both predictions.
#include "core/order/ordering_choice.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/order/amd.h"
#include "core/order/ordering.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"

namespace factord {
namespace {

using Pairs = std::vector<std::pair<int32_t, int32_t>>;

// Symmetric-lower matrix from lower entries (i >= j), rows sorted.
CsrMatrix Lower(int64_t n,
                std::vector<std::vector<std::pair<int32_t, double>>> rows) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    for (auto [j, v] : row) {
      a.col_idx.push_back(j);
      a.values.push_back(v);
    }
    a.row_ptr.push_back(a.col_idx.size());
  }
  return a;
}

// The 7-point (nz > 1) or 5-point (nz == 1) Laplacian of an nx x ny x nz
// grid, lower triangle: SPD.
CsrMatrix Poisson(int nx, int ny, int nz) {
  const int64_t n = int64_t{nx} * ny * nz;
  std::vector<std::vector<std::pair<int32_t, double>>> rows(n);
  auto index = [&](int x, int y, int z) { return (z * ny + y) * nx + x; };
  for (int z = 0; z < nz; ++z) {
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        auto& row = rows[index(x, y, z)];
        row.push_back({index(x, y, z), nz > 1 ? 6.0 : 4.0});
        if (x > 0) row.push_back({index(x - 1, y, z), -1.0});
        if (y > 0) row.push_back({index(x, y - 1, z), -1.0});
        if (z > 0) row.push_back({index(x, y, z - 1), -1.0});
      }
    }
  }
  return Lower(n, std::move(rows));
}

// [H B^T; B 0] with H the 2D Laplacian of a g x g grid and B (m rows) the
// differences of neighbouring grid values: an equality-constrained QP.
CsrMatrix Kkt(int g, int m) {
  const int64_t nh = int64_t{g} * g;
  CsrMatrix h = Poisson(g, g, 1);
  std::vector<std::vector<std::pair<int32_t, double>>> rows(nh + m);
  for (int64_t i = 0; i < nh; ++i) {
    for (int64_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) {
      rows[i].push_back({h.col_idx[k], h.values[k]});
    }
  }
  for (int r = 0; r < m; ++r) {
    const int32_t c = static_cast<int32_t>((r * 7) % (nh - 1));
    rows[nh + r].push_back({c, 1.0});
    rows[nh + r].push_back({c + 1, -1.0});
  }
  return Lower(nh + m, std::move(rows));
}

TEST(PredictFactor, ArrowMatrixCountsAreExact) {
  // Node 0 joined to 1, 2, 3: first it fills L completely, last not at all.
  const CsrMatrix a = Lower(4, {{{0, 4.0}},
                                {{0, 1.0}, {1, 4.0}},
                                {{0, 1.0}, {2, 4.0}},
                                {{0, 1.0}, {3, 4.0}}});
  const std::vector<int32_t> first = {0, 1, 2, 3}, last = {1, 2, 3, 0};
  auto dense = PredictFactor(a, first);
  ASSERT_TRUE(dense.ok()) << dense.status();
  EXPECT_EQ(dense->nnz_factor, 10);  // 4 + 3 + 2 + 1
  EXPECT_EQ(dense->flops, 30);       // 16 + 9 + 4 + 1
  EXPECT_EQ(dense->nnz_lower, 7);    // 3 off-diagonal + 4
  auto sparse = PredictFactor(a, last);
  ASSERT_TRUE(sparse.ok()) << sparse.status();
  EXPECT_EQ(sparse->nnz_factor, 7);  // 2 + 2 + 2 + 1
  EXPECT_EQ(sparse->flops, 13);      // 4 + 4 + 4 + 1
}

TEST(PredictFactor, RefusesWhatIsNotAPermutation) {
  const CsrMatrix a = Poisson(3, 3, 1);
  EXPECT_FALSE(PredictFactor(a, std::vector<int32_t>{0, 1, 2}).ok());
  EXPECT_FALSE(
      PredictFactor(a, std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 7}).ok());
  EXPECT_FALSE(
      PredictFactor(a, std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 9}).ok());
}

TEST(PredictFactor, AmdStatisticsAreUpperBoundsOfTheExactCounts) {
  const CsrMatrix a = Poisson(12, 12, 12);
  AmdStatistics statistics;
  auto perm = AmdOrdering(a, &statistics);
  ASSERT_TRUE(perm.ok()) << perm.status();
  auto exact = PredictFactor(a, *perm);
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_EQ(statistics.nnz_lower, exact->nnz_lower);
  EXPECT_GE(statistics.nnz_factor, exact->nnz_factor);
  EXPECT_GE(statistics.flops, exact->flops);
  // "Slight" upper bounds.
  EXPECT_LE(statistics.nnz_factor, 1.1 * exact->nnz_factor);
  EXPECT_LE(statistics.flops, 1.2 * exact->flops);
}

TEST(AmdIsGoodEnough, CholmodsRuleAtItsBoundaries) {
  // fl < 500 lnz or lnz < 5 anz: good enough, METIS not tried.
  EXPECT_TRUE(AmdIsGoodEnough({499.0 * 100, 100, 1}));
  EXPECT_TRUE(AmdIsGoodEnough({1e9, 100, 21}));
  EXPECT_FALSE(AmdIsGoodEnough({500.0 * 100, 100, 20}));
  EXPECT_TRUE(AmdIsGoodEnough({0, 0, 0}));
}

TEST(ChooseLdltOrdering, TwoDimensionalGridKeepsAmd) {
  const CsrMatrix a = Poisson(40, 40, 1);
  auto choice = ChooseLdltOrdering(a, {}, Ordering::kAuto);
  ASSERT_TRUE(choice.ok()) << choice.status();
  EXPECT_EQ(choice->ordering, Ordering::kAmd);
  EXPECT_NE(choice->note.find("metis not tried"), std::string::npos)
      << choice->note;
  auto amd = ComputeOrdering(a, Ordering::kAmd);
  ASSERT_TRUE(amd.ok());
  EXPECT_EQ(choice->perm, *amd);  // the same analysis as before the choice
}

TEST(ChooseLdltOrdering, SmallKktSystemKeepsAmd) {
  const CsrMatrix a = Kkt(15, 60);
  auto choice = ChooseLdltOrdering(a, {}, Ordering::kAuto);
  ASSERT_TRUE(choice.ok()) << choice.status();
  EXPECT_EQ(choice->ordering, Ordering::kAmd) << choice->note;
  auto amd = ComputeOrdering(a, Ordering::kAmd);
  ASSERT_TRUE(amd.ok());
  EXPECT_EQ(choice->perm, *amd);
}

// AMD on a 3D grid of side g takes about g^2 flops per entry of L: 366 at
// g = 20, past CHOLMOD's 500 from g = 24.
constexpr int kMetisGrid = 26;

TEST(ChooseLdltOrdering, RuleKeepsAmdWithoutTryingMetisBelowItsThreshold) {
  // METIS would predict fewer flops here (1.4e8 against 3.1e8), but AMD's
  // 366 flops per entry of L are below CHOLMOD's threshold: METIS is not
  // run and AMD's order is kept unchanged.
  const CsrMatrix a = Poisson(20, 20, 20);
  auto choice = ChooseLdltOrdering(a, {}, Ordering::kAuto);
  ASSERT_TRUE(choice.ok()) << choice.status();
  EXPECT_EQ(choice->ordering, Ordering::kAmd);
  EXPECT_NE(choice->note.find("metis not tried"), std::string::npos)
      << choice->note;
  auto metis = PredictFactor(a, *ComputeOrdering(a, Ordering::kMetis));
  auto amd = PredictFactor(a, choice->perm);
  ASSERT_TRUE(metis.ok() && amd.ok());
  EXPECT_LT(metis->flops, amd->flops);
  EXPECT_LT(amd->flops, 500 * amd->nnz_factor);
}

TEST(ChooseLdltOrdering, ThreeDimensionalGridChoosesMetis) {
  const CsrMatrix a = Poisson(kMetisGrid, kMetisGrid, kMetisGrid);
  auto choice = ChooseLdltOrdering(a, {}, Ordering::kAuto);
  ASSERT_TRUE(choice.ok()) << choice.status();
  EXPECT_EQ(choice->ordering, Ordering::kMetis) << choice->note;
  auto metis = ComputeOrdering(a, Ordering::kMetis);
  auto amd = ComputeOrdering(a, Ordering::kAmd);
  ASSERT_TRUE(metis.ok() && amd.ok());
  EXPECT_EQ(choice->perm, *metis);
  auto metis_flops = PredictFactor(a, *metis);
  auto amd_flops = PredictFactor(a, *amd);
  ASSERT_TRUE(metis_flops.ok() && amd_flops.ok());
  EXPECT_LT(metis_flops->flops, amd_flops->flops);
  EXPECT_EQ(choice->note, "amd " + absl::StrFormat("%.3g", amd_flops->flops) +
                              " flops, metis " +
                              absl::StrFormat("%.3g", metis_flops->flops) +
                              " flops: metis");
}

TEST(ChooseLdltOrdering, PairsStayConsecutiveInTheChosenOrder) {
  const CsrMatrix a = Poisson(kMetisGrid, kMetisGrid, kMetisGrid);
  Pairs pairs;  // (x, x + 1) neighbours: stored entries
  for (int32_t i = 0; i + 1 < a.rows; i += 2 * kMetisGrid) {
    pairs.push_back({i, i + 1});
  }
  auto choice = ChooseLdltOrdering(a, pairs, Ordering::kAuto);
  ASSERT_TRUE(choice.ok()) << choice.status();
  EXPECT_EQ(choice->ordering, Ordering::kMetis) << choice->note;
  std::vector<int32_t> position(a.rows);
  for (int64_t k = 0; k < a.rows; ++k) position[choice->perm[k]] = k;
  for (auto [i, j] : pairs) EXPECT_EQ(position[j], position[i] + 1);
}

TEST(ChooseLdltOrdering, ExplicitOrderingsAreKeptAsAsked) {
  const CsrMatrix grid3 = Poisson(kMetisGrid, kMetisGrid, kMetisGrid);
  const CsrMatrix grid2 = Poisson(40, 40, 1);
  auto amd = ChooseLdltOrdering(grid3, {}, Ordering::kAmd);
  ASSERT_TRUE(amd.ok()) << amd.status();
  EXPECT_EQ(amd->ordering, Ordering::kAmd);
  EXPECT_EQ(amd->note, "requested");
  EXPECT_EQ(amd->perm, *ComputeOrdering(grid3, Ordering::kAmd));
  auto metis = ChooseLdltOrdering(grid2, {}, Ordering::kMetis);
  ASSERT_TRUE(metis.ok()) << metis.status();
  EXPECT_EQ(metis->ordering, Ordering::kMetis);
  EXPECT_EQ(metis->perm, *ComputeOrdering(grid2, Ordering::kMetis));
  auto natural = ChooseLdltOrdering(grid2, {}, Ordering::kNatural);
  ASSERT_TRUE(natural.ok()) << natural.status();
  EXPECT_EQ(natural->ordering, Ordering::kNatural);
}

// The factorization report of method ldlt.
FactorReport LdltReport(const CsrMatrix& a, Ordering ordering) {
  FactorOptions options;
  options.method = Method::kLdlt;
  options.ordering = ordering;
  ExecContext ctx;
  ctx.threads = 2;
  auto shared = std::make_shared<const CsrMatrix>(a);
  auto analysis = Analyze(*shared, options, ctx);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return {};
  auto factorization = Factorize(shared, *analysis, options, ctx);
  EXPECT_TRUE(factorization.ok()) << factorization.status();
  if (!factorization.ok()) return {};
  return (*factorization)->report();
}

TEST(ChooseLdltOrdering, ReportNamesTheOrderingAndBothPredictions) {
  const FactorReport grid3 =
      LdltReport(Poisson(kMetisGrid, kMetisGrid, kMetisGrid), Ordering::kAuto);
  EXPECT_EQ(grid3.ordering, "metis");
  EXPECT_NE(grid3.ordering_note.find("amd "), std::string::npos)
      << grid3.ordering_note;
  EXPECT_NE(grid3.ordering_note.find(" flops, metis "), std::string::npos)
      << grid3.ordering_note;
  const FactorReport grid2 = LdltReport(Poisson(40, 40, 1), Ordering::kAuto);
  EXPECT_EQ(grid2.ordering, "amd");
  EXPECT_NE(grid2.ordering_note.find("metis not tried"), std::string::npos)
      << grid2.ordering_note;
  const FactorReport asked =
      LdltReport(Poisson(kMetisGrid, kMetisGrid, kMetisGrid), Ordering::kAmd);
  EXPECT_EQ(asked.ordering, "amd");
  EXPECT_EQ(asked.ordering_note, "requested");
}

}  // namespace
}  // namespace factord
