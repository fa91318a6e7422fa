#include "server/cache/analysis_cache.h"

#include <memory>

#include "gtest/gtest.h"

namespace factord::server {
namespace {

class FakeAnalysis : public Analysis {
 public:
  Method method() const override { return Method::kLu; }
  int64_t bytes() const override { return 8; }
  int64_t factor_bytes_estimate() const override { return 0; }
};

CsrMatrix Tridiagonal(int64_t n) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = std::max<int64_t>(0, i - 1); j <= std::min(n - 1, i + 1);
         ++j) {
      a.col_idx.push_back(static_cast<int32_t>(j));
      a.values.push_back(i == j ? 2.0 : -1.0);
    }
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

TEST(AnalysisCache, KeyDependsOnPatternAndAnalysisOptionsOnly) {
  CsrMatrix a = Tridiagonal(5);
  FactorOptions o;
  o.method = Method::kLu;
  const std::string key = AnalysisCache::Key(a, PatternHash(a), o);
  CsrMatrix b = a;
  b.values.assign(b.values.size(), 7.0);  // new values, same pattern
  FactorOptions shifted = o;
  shifted.shift_first = 1e-8;  // numeric settings do not matter
  EXPECT_EQ(AnalysisCache::Key(b, PatternHash(b), shifted), key);
  FactorOptions other = o;
  other.ordering = Ordering::kRcm;
  EXPECT_NE(AnalysisCache::Key(a, PatternHash(a), other), key);
  CsrMatrix c = Tridiagonal(6);
  EXPECT_NE(AnalysisCache::Key(c, PatternHash(c), o), key);
}

TEST(AnalysisCache, SharesLiveAnalysesAndForgetsDeadOnes) {
  AnalysisCache cache;
  EXPECT_EQ(cache.Find("k"), nullptr);
  auto analysis = std::make_shared<const FakeAnalysis>();
  cache.Insert("k", analysis);
  EXPECT_EQ(cache.Find("k"), analysis);
  EXPECT_EQ(cache.size(), 1);
  analysis.reset();  // no cache entry holds it any more
  EXPECT_EQ(cache.Find("k"), nullptr);
  EXPECT_EQ(cache.size(), 0);
}

}  // namespace
}  // namespace factord::server
