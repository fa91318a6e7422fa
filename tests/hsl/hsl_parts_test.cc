// The stateless parts of libhsl.so (hsl/factor_outcome.h, hsl/triplets.h,
// hsl/token.h): what a factord report becomes for MA57/MA27 (the
// unreliable-inertia path among them, which a small planted matrix cannot
// provoke in factord's ldlt), the triplets factord receives, and the
// tokens a solve checks.
#include <gtest/gtest.h>

#include <vector>

#include "hsl/factor_outcome.h"
#include "hsl/token.h"
#include "hsl/triplets.h"

namespace factord::hsl {
namespace {

factord_factor_report Report(int64_t positive, int64_t negative, int64_t zero) {
  factord_factor_report r{};
  r.status = FACTORD_FACTOR_OK;
  r.positive = positive;
  r.negative = negative;
  r.zero = zero;
  r.inertia_reliable = 1;
  return r;
}

TEST(FactorOutcome, RegularMatrixKeepsItsInertiaAndFullRank) {
  const FactorOutcome o = OutcomeOf(Report(3, 2, 0), 5);
  EXPECT_FALSE(o.singular);
  EXPECT_EQ(o.negative, 2);
  EXPECT_EQ(o.rank, 5);
}

TEST(FactorOutcome, ZeroPivotsAreRankDeficiency) {
  factord_factor_report r = Report(3, 1, 2);
  r.status = FACTORD_FACTOR_PERTURBED;
  r.perturbed_pivots = 2;
  r.inertia_reliable = 0;
  const FactorOutcome o = OutcomeOf(r, 6);
  EXPECT_TRUE(o.singular);
  EXPECT_EQ(o.negative, 1);
  EXPECT_EQ(o.rank, 4);
}

TEST(FactorOutcome, PerturbedPivotsCountWhenNoZeroIsReported) {
  factord_factor_report r = Report(4, 2, 0);
  r.perturbed_pivots = 3;
  const FactorOutcome o = OutcomeOf(r, 6);
  EXPECT_TRUE(o.singular);
  EXPECT_EQ(o.rank, 3);
}

TEST(FactorOutcome, UnreliableInertiaIsReportedSingular) {
  // Pivot growth: no zero or perturbed pivot, status OK, but the inertia
  // is not to be trusted. MA57 INFO(1) = 4 / MA27 IFLAG = 3, rank N - 1,
  // so that Ipopt perturbs (and, with ma27_ignore_singularity, counts one
  // more negative eigenvalue: a wrong inertia either way).
  factord_factor_report r = Report(3, 2, 0);
  r.inertia_reliable = 0;
  const FactorOutcome o = OutcomeOf(r, 5);
  EXPECT_TRUE(o.singular);
  EXPECT_EQ(o.negative, 2);
  EXPECT_EQ(o.rank, 4);
}

TEST(FactorOutcome, SingularStatusAloneIsSingular) {
  factord_factor_report r = Report(2, 0, 0);
  r.status = FACTORD_FACTOR_SINGULAR;
  EXPECT_TRUE(OutcomeOf(r, 2).singular);
  EXPECT_EQ(OutcomeOf(r, 2).rank, 1);
}

TEST(FactorOutcome, RankNeverNegative) {
  factord_factor_report r = Report(0, 0, 9);
  EXPECT_EQ(OutcomeOf(r, 3).rank, 0);
}

TEST(Triplets, LowerTriangleZeroBasedDuplicatesCounted) {
  const std::vector<int> irn = {1, 1, 3, 2, 1};
  const std::vector<int> jcn = {1, 3, 1, 2, 1};
  const Triplets t = ReadTriplets(3, 5, irn.data(), jcn.data());
  EXPECT_EQ(t.nnz(), 5);
  EXPECT_EQ(t.rows, (std::vector<int32_t>{0, 2, 2, 1, 0}));
  EXPECT_EQ(t.cols, (std::vector<int32_t>{0, 0, 0, 1, 0}));
  EXPECT_EQ(t.duplicates, 2);  // (3,1) twice, (1,1) twice
  EXPECT_EQ(t.out_of_range, 0);
  EXPECT_TRUE(t.kept.empty());
  const std::vector<double> a = {1, 2, 3, 4, 5};
  std::vector<double> buffer;
  EXPECT_EQ(KeptValues(t, a.data(), &buffer), a.data());
}

TEST(Triplets, OutOfRangeEntriesLeftOutAndValuesGathered) {
  const std::vector<int> irn = {0, 1, 4, 2, 2};
  const std::vector<int> jcn = {1, 1, 1, 2, -1};
  const Triplets t = ReadTriplets(3, 5, irn.data(), jcn.data());
  EXPECT_EQ(t.out_of_range, 3);
  EXPECT_EQ(t.first_outside, 0);
  EXPECT_EQ(t.kept, (std::vector<int64_t>{1, 3}));
  const std::vector<double> a = {10, 20, 30, 40, 50};
  std::vector<double> buffer;
  const double* kept = KeptValues(t, a.data(), &buffer);
  EXPECT_EQ(kept[0], 20);
  EXPECT_EQ(kept[1], 40);
}

TEST(Triplets, EveryEntryOutOfRange) {
  const std::vector<int> irn = {7, 8};
  const Triplets t = ReadTriplets(3, 2, irn.data(), irn.data());
  EXPECT_EQ(t.nnz(), 0);
  EXPECT_EQ(t.out_of_range, 2);
  EXPECT_TRUE(SamePairs(t, irn.data(), irn.data()));
}

TEST(Triplets, SamePairsAcrossTrianglesButNotOtherPositions) {
  const std::vector<int> irn = {1, 3, 9};
  const std::vector<int> jcn = {1, 2, 1};
  const Triplets t = ReadTriplets(3, 3, irn.data(), jcn.data());
  EXPECT_TRUE(SamePairs(t, irn.data(), jcn.data()));
  // (3,2) given as (2,3): the same symmetric entry.
  EXPECT_TRUE(SamePairs(t, std::vector<int>{1, 2, 9}.data(),
                        std::vector<int>{1, 3, 1}.data()));
  EXPECT_FALSE(SamePairs(t, std::vector<int>{1, 3, 2}.data(),
                         std::vector<int>{1, 1, 1}.data()));
  EXPECT_FALSE(SamePairs(t, std::vector<int>{1, 3, 9}.data(),
                         std::vector<int>{1, 3, 1}.data()));
}

TEST(Token, AnalysisTagRoundTrip) {
  int tag[3];
  const uint64_t serial = (uint64_t{5} << 31) + 12345;
  WriteAnalysisTag(kMa57KeepMarker, serial, tag);
  EXPECT_EQ(ReadAnalysisTag(kMa57KeepMarker, tag), serial);
  EXPECT_EQ(ReadAnalysisTag(kMa27IkeepMarker, tag), 0u);
}

TEST(Token, FactorTokenRoundTripAndRejections) {
  int array[kFactorTokenSize];
  FactorToken in;
  in.serial = 77;
  in.factor_number = 3;
  in.n = 1000;
  WriteFactorToken(kMa57IfactMarker, in, array);
  FactorToken out;
  ASSERT_TRUE(ReadFactorToken(kMa57IfactMarker, array, &out));
  EXPECT_EQ(out.serial, 77u);
  EXPECT_EQ(out.factor_number, 3);
  EXPECT_EQ(out.n, 1000);
  EXPECT_FALSE(ReadFactorToken(kMa27IwMarker, array, &out));
  int altered[kFactorTokenSize];
  std::copy(array, array + kFactorTokenSize, altered);
  altered[4] = 999;  // N changed without the check value
  EXPECT_FALSE(ReadFactorToken(kMa57IfactMarker, altered, &out));
  const int zeros[kFactorTokenSize] = {};
  EXPECT_FALSE(ReadFactorToken(kMa57IfactMarker, zeros, &out));
}

}  // namespace
}  // namespace factord::hsl
