// The rank of a KKT matrix's constraint block without ldlt
// (constraint_rank.h), on planted blocks of known rank: full, with a
// repeated row, with a zero row, split into components, through the dense
// SVD and through the Gram Cholesky.
#include "tests/core/ldlt/constraint_rank.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"

namespace factord::testing {
namespace {

// The lower triangle of [-I A^T; A I] for the m x n1 block `a` (rows of
// (column, value) pairs).
CsrMatrix Kkt(int64_t n1,
              const std::vector<std::vector<std::pair<int, double>>>& a) {
  CsrMatrix k;
  k.rows = k.cols = n1 + static_cast<int64_t>(a.size());
  k.structure = Structure::kSymmetricLower;
  k.row_ptr.push_back(0);
  for (int64_t i = 0; i < k.rows; ++i) {
    if (i >= n1) {
      for (const auto& [j, v] : a[i - n1]) {
        k.col_idx.push_back(j);
        k.values.push_back(v);
      }
    }
    k.col_idx.push_back(static_cast<int32_t>(i));
    k.values.push_back(i < n1 ? -1.0 : 1.0);
    k.row_ptr.push_back(k.nnz());
  }
  return k;
}

int64_t Rank(int64_t n1,
             const std::vector<std::vector<std::pair<int, double>>>& a) {
  absl::StatusOr<ConstraintRank> r = RankOfConstraintBlock(Kkt(n1, a), n1);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->rank : -1;
}

TEST(ConstraintRank, SmallBlocksByTheSvd) {
  // Full row rank.
  EXPECT_EQ(Rank(3, {{{0, 1.0}, {1, 2.0}}, {{1, 1.0}, {2, -1.0}}}), 2);
  // The second row is twice the first.
  EXPECT_EQ(Rank(3, {{{0, 1.0}, {1, 2.0}}, {{0, 2.0}, {1, 4.0}}}), 1);
  // More rows than columns: at most the columns.
  EXPECT_EQ(Rank(2, {{{0, 1.0}}, {{1, 1.0}}, {{0, 1.0}, {1, 1.0}}}), 2);
  // A row without entries, and one of explicit zeros.
  EXPECT_EQ(Rank(2, {{}, {{0, 0.0}}, {{1, 3.0}}}), 1);
  // Two components, one of them deficient.
  absl::StatusOr<ConstraintRank> r = RankOfConstraintBlock(
      Kkt(4,
          {{{0, 1.0}, {1, 1.0}}, {{0, 1.0}, {1, 1.0}}, {{2, 1.0}, {3, 5.0}}}),
      4);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rows, 3);
  EXPECT_EQ(r->rank, 2);
  EXPECT_EQ(r->components, 2);
  EXPECT_EQ(r->gram_components, 0);
}

// [B B] with B bidiagonal: one component larger than the dense limit.
std::vector<std::vector<std::pair<int, double>>> WideBlock(int m) {
  std::vector<std::vector<std::pair<int, double>>> a(m);
  for (int i = 0; i < m; ++i) {
    a[i].push_back({i, 2.0});
    if (i + 1 < m) a[i].push_back({i + 1, 1.0});
    a[i].push_back({m + i, 1.0});
  }
  return a;
}

TEST(ConstraintRank, LargeBlocksByTheGramCholesky) {
  const int m = static_cast<int>(kDenseRankMaxSide) + 100;
  absl::StatusOr<ConstraintRank> r =
      RankOfConstraintBlock(Kkt(2 * m, WideBlock(m)), 2 * m);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rank, m);
  EXPECT_EQ(r->gram_components, 1);
  EXPECT_GT(r->smallest_gram_rcond, kMinGramRcond);
  // Taller than wide: the Gram matrix of the columns.
  std::vector<std::vector<std::pair<int, double>>> tall(2 * m);
  for (int i = 0; i < m; ++i) {
    tall[i] = {{i, 1.0}};
    tall[m + i] = {{i, 1.0}, {(i + 1) % m, 1.0}};
    std::sort(tall[m + i].begin(), tall[m + i].end());
  }
  r = RankOfConstraintBlock(Kkt(m, tall), m);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rank, m);
  // A repeated row: not certified, and said so rather than guessed.
  std::vector<std::vector<std::pair<int, double>>> repeated = WideBlock(m);
  repeated[m - 1] = repeated[0];
  r = RankOfConstraintBlock(Kkt(2 * m, repeated), 2 * m);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition)
      << r.status();
}

}  // namespace
}  // namespace factord::testing
