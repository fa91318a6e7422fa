#include "core/order/gmc.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

// Symmetric-lower pattern of the path 0-1-2-...-(n-1) with the diagonal.
CsrMatrix Path(int n) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    if (i > 0) a.col_idx.push_back(i - 1);
    a.col_idx.push_back(i);
    a.row_ptr.push_back(a.col_idx.size());
  }
  a.values.assign(a.col_idx.size(), 1.0);
  return a;
}

void ExpectProperColouring(const CsrMatrix& a,
                           const std::vector<int32_t>& colour) {
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t j = a.col_idx[k];
      if (j != i) {
        EXPECT_NE(colour[i], colour[j]) << i << " " << j;
      }
    }
  }
}

TEST(Gmc, PathTakesTwoColoursAndOrdersEvensFirst) {
  const CsrMatrix a = Path(5);
  int32_t colours = 0;
  const std::vector<int32_t> colour = GreedyColouring(a, &colours);
  EXPECT_EQ(colours, 2);
  EXPECT_EQ(colour, (std::vector<int32_t>{0, 1, 0, 1, 0}));
  EXPECT_EQ(GmcOrdering(a), (std::vector<int32_t>{0, 2, 4, 1, 3}));
}

TEST(Gmc, TriangleNeedsThreeColours) {
  CsrMatrix a;
  a.rows = a.cols = 3;
  a.structure = Structure::kGeneral;
  a.row_ptr = {0, 2, 4, 6};
  a.col_idx = {1, 2, 0, 2, 0, 1};
  a.values.assign(6, 1.0);
  int32_t colours = 0;
  ExpectProperColouring(a, GreedyColouring(a, &colours));
  EXPECT_EQ(colours, 3);
}

TEST(Gmc, RealMatrixGivesProperColouringAndPermutation) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  int32_t colours = 0;
  const std::vector<int32_t> colour = GreedyColouring(*a, &colours);
  ExpectProperColouring(*a, colour);
  EXPECT_GE(colours, 2);
  EXPECT_LT(colours, 20);
  std::vector<int32_t> perm = GmcOrdering(*a);
  for (size_t k = 1; k < perm.size(); ++k) {
    EXPECT_LE(colour[perm[k - 1]], colour[perm[k]]);
  }
  std::sort(perm.begin(), perm.end());
  std::vector<int32_t> identity(a->rows);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(perm, identity);
}

// The ldlt ordering option honours gmc (its symbolic phase takes any
// permutation): a complete factorization, so the solve is exact whatever
// the fill.
TEST(Gmc, LdltWithGmcOrderingSolves) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok());
  auto shared = std::make_shared<const CsrMatrix>(*std::move(a));
  FactorOptions options;
  options.method = Method::kLdlt;
  options.ordering = Ordering::kGmc;
  ExecContext ctx;
  auto analysis = Analyze(*shared, options, ctx);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  auto factorization = Factorize(shared, *analysis, options, ctx);
  ASSERT_TRUE(factorization.ok()) << factorization.status();
  std::vector<double> b(shared->rows, 1.0), x(shared->rows, 0.0);
  SolveReport report;
  ASSERT_TRUE((*factorization)->Solve(b, x, SolveOptions(), ctx, &report).ok());
  EXPECT_LE(report.relative_residual, 1e-10);
  // GMC is not fill-reducing: more fill than AMD on the same matrix.
  options.ordering = Ordering::kAmd;
  auto amd = Analyze(*shared, options, ctx);
  ASSERT_TRUE(amd.ok());
  auto amd_factor = Factorize(shared, *amd, options, ctx);
  ASSERT_TRUE(amd_factor.ok());
  EXPECT_GT((*factorization)->report().nnz_factor,
            (*amd_factor)->report().nnz_factor);
}

}  // namespace
}  // namespace factord
