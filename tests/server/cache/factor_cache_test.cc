#include "server/cache/factor_cache.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "server/error_reason.h"

namespace factord::server {
namespace {

// A matrix whose CSR arrays take about `bytes` bytes (12 bytes per entry).
std::shared_ptr<const CsrMatrix> MatrixOfBytes(int64_t bytes) {
  auto a = std::make_shared<CsrMatrix>();
  const int64_t nnz = bytes / 12;
  a->rows = a->cols = 1;
  a->row_ptr = {0, nnz};
  a->col_idx.assign(nnz, 0);
  a->values.assign(nnz, 1.0);
  return a;
}

class FakeAnalysis : public Analysis {
 public:
  explicit FakeAnalysis(int64_t bytes) : bytes_(bytes) {}
  Method method() const override { return Method::kLu; }
  int64_t bytes() const override { return bytes_; }
  int64_t factor_bytes_estimate() const override { return 0; }

 private:
  int64_t bytes_;
};

class FakeFactorization : public Factorization {
 public:
  explicit FakeFactorization(int64_t bytes) : bytes_(bytes) {}
  const FactorReport& report() const override { return report_; }
  int64_t bytes() const override { return bytes_; }
  absl::Status Solve(std::span<const double>, std::span<double>,
                     const SolveOptions&, const ExecContext&,
                     SolveReport*) const override {
    return absl::OkStatus();
  }

 private:
  int64_t bytes_;
  FactorReport report_;
};

struct FakeClock {
  absl::Time now = absl::FromUnixSeconds(1000);
};

FactorCache::Options TestOptions(int64_t budget, FakeClock* clock,
                                 int64_t* evictions) {
  FactorCache::Options o;
  o.budget_bytes = budget;
  o.idle_ttl = absl::Minutes(10);
  o.now = [clock] { return clock->now; };
  o.on_evict = [evictions](int64_t n) { *evictions += n; };
  return o;
}

// Matrix `id` of the anonymous tenant (authentication off).
MatrixKey K(std::string id) { return MatrixKey{"", std::move(id)}; }

std::vector<std::string> Ids(const FactorCache& cache) {
  std::vector<std::string> ids;
  for (const CacheEntry& e : cache.List("")) ids.push_back(e.id);
  return ids;
}

TEST(FactorCache, LookupUnknownIsNotFound) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(1 << 20, &clock, &evictions));
  EXPECT_EQ(cache.Lookup(K("nope")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(cache.Release(K("nope")).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(FactorCache, EvictsLeastRecentlyUsedFirst) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(3000, &clock, &evictions));
  auto m = MatrixOfBytes(1200);  // 1200 + 16 bytes of row pointers
  ASSERT_TRUE(cache.InsertMatrix(K("a"), m, 1, 0, /*replace=*/false).ok());
  ASSERT_TRUE(cache.InsertMatrix(K("b"), m, 1, 0, /*replace=*/false).ok());
  EXPECT_EQ(Ids(cache), (std::vector<std::string>{"b", "a"}));
  ASSERT_TRUE(cache.Lookup(K("a")).ok());  // a is now the most recent
  EXPECT_EQ(Ids(cache), (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(
      cache.InsertMatrix(K("c"), m, 1, 0, /*replace=*/false).ok());  // evicts b
  EXPECT_EQ(Ids(cache), (std::vector<std::string>{"c", "a"}));
  EXPECT_EQ(cache.Lookup(K("b")).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(evictions, 1);
  EXPECT_EQ(cache.entries(), 2);
  EXPECT_EQ(cache.bytes(), 2 * m->bytes());
}

TEST(FactorCache, RefusesAnEntryOverTheWholeBudget) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(1000, &clock, &evictions));
  ASSERT_TRUE(
      cache
          .InsertMatrix(K("small"), MatrixOfBytes(120), 1, 0, /*replace=*/false)
          .ok());
  absl::Status s =
      cache.InsertMatrix(K("big"), MatrixOfBytes(1200), 1, 0, false).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("cache_bytes = 1000"), absl::string_view::npos)
      << s;
  EXPECT_TRUE(cache.Lookup(K("small")).ok());  // nothing was evicted for it
  EXPECT_EQ(evictions, 0);
}

TEST(FactorCache, FactorizationBytesCountAndEvictOthers) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(10'000, &clock, &evictions));
  auto m = MatrixOfBytes(1200);
  ASSERT_TRUE(cache.InsertMatrix(K("old"), m, 7, 0, /*replace=*/false).ok());
  ASSERT_TRUE(cache.InsertMatrix(K("new"), m, 7, 0, /*replace=*/false).ok());
  auto analysis = std::make_shared<FakeAnalysis>(500);
  auto factor = std::make_shared<FakeFactorization>(6000);
  absl::StatusOr<CacheEntry> stored = cache.StoreFactorization(
      K("new"), 7, 1, analysis, factor, Method::kLu, true);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_FALSE(stored->stale);
  EXPECT_EQ(stored->bytes(), m->bytes() + 500 + 6000);
  EXPECT_TRUE(cache.Lookup(K("old")).ok());
  // A second factorization that no longer fits beside "old" evicts it.
  auto bigger = std::make_shared<FakeFactorization>(8000);
  ASSERT_TRUE(cache
                  .StoreFactorization(K("new"), 7, 1, analysis, bigger,
                                      Method::kLu, true)
                  .ok());
  EXPECT_EQ(cache.Lookup(K("old")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(cache.bytes(), m->bytes() + 500 + 8000);
  // And one that cannot fit at all is refused, keeping what was there.
  auto huge = std::make_shared<FakeFactorization>(20'000);
  EXPECT_EQ(
      cache
          .StoreFactorization(K("new"), 7, 1, analysis, huge, Method::kLu, true)
          .status()
          .code(),
      absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(cache.Lookup(K("new"))->factorization, bigger);
}

TEST(FactorCache, InUseEntrySurvivesEviction) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(2000, &clock, &evictions));
  ASSERT_TRUE(
      cache.InsertMatrix(K("a"), MatrixOfBytes(1200), 1, 0, /*replace=*/false)
          .ok());
  auto factor = std::make_shared<FakeFactorization>(100);
  ASSERT_TRUE(
      cache.StoreFactorization(K("a"), 1, 1, nullptr, factor, Method::kLu, true)
          .ok());
  absl::StatusOr<CacheEntry> in_use = cache.Lookup(K("a"));  // a solve holds it
  ASSERT_TRUE(in_use.ok());
  std::weak_ptr<const Factorization> weak = in_use->factorization;
  factor.reset();
  ASSERT_TRUE(
      cache.InsertMatrix(K("b"), MatrixOfBytes(1200), 2, 0, /*replace=*/false)
          .ok());
  EXPECT_EQ(cache.Lookup(K("a")).status().code(), absl::StatusCode::kNotFound);
  // The snapshot still works: matrix and factorization are alive.
  EXPECT_FALSE(weak.expired());
  EXPECT_EQ(in_use->matrix->nnz(), 100);
  in_use = absl::NotFoundError("done");
  EXPECT_TRUE(weak.expired());  // freed when the last user lets go
}

TEST(FactorCache, ReplaceValuesMarksStaleAndChecksPattern) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(1 << 20, &clock, &evictions));
  auto m = MatrixOfBytes(120);
  ASSERT_TRUE(cache.InsertMatrix(K("a"), m, 42, 0, /*replace=*/false).ok());
  auto factor = std::make_shared<FakeFactorization>(10);
  ASSERT_TRUE(
      cache
          .StoreFactorization(K("a"), 42, 1, nullptr, factor, Method::kLu, true)
          .ok());
  EXPECT_FALSE(cache.Lookup(K("a"))->stale);
  absl::StatusOr<CacheEntry> updated =
      cache.ReplaceValues(K("a"), m, 42, 99, /*expected_generation=*/0);
  ASSERT_TRUE(updated.ok());
  EXPECT_TRUE(updated->stale);
  EXPECT_EQ(updated->generation, 2u);
  EXPECT_EQ(updated->bytes_received, 99);
  EXPECT_EQ(cache.ReplaceValues(K("a"), m, 43, 0, /*expected_generation=*/0)
                .status()
                .code(),
            absl::StatusCode::kAborted);  // another pattern
  // A factorization computed from generation 1 lands stale.
  absl::StatusOr<CacheEntry> late = cache.StoreFactorization(
      K("a"), 42, 1, nullptr, factor, Method::kLu, true);
  ASSERT_TRUE(late.ok());
  EXPECT_TRUE(late->stale);
  EXPECT_EQ(
      cache
          .StoreFactorization(K("a"), 41, 2, nullptr, factor, Method::kLu, true)
          .status()
          .code(),
      absl::StatusCode::kAborted);  // another pattern
  absl::StatusOr<CacheEntry> fresh = cache.StoreFactorization(
      K("a"), 42, 2, nullptr, factor, Method::kLu, true);
  EXPECT_FALSE(fresh->stale);
  EXPECT_EQ(fresh->factorized_generation, 2u);
}

TEST(FactorCache, UploadOfAnExistingIdNeedsReplaceAndAdvancesTheGeneration) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(1 << 20, &clock, &evictions));
  auto m = MatrixOfBytes(120);
  absl::StatusOr<CacheEntry> first = cache.InsertMatrix(K("a"), m, 5, 0, false);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->generation, 1u);
  const absl::Status again =
      cache.InsertMatrix(K("a"), m, 5, 0, false).status();
  EXPECT_EQ(again.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(EffectiveReason(again), v1::ALREADY_EXISTS);
  absl::StatusOr<CacheEntry> replaced =
      cache.InsertMatrix(K("a"), m, 5, 0, true);
  ASSERT_TRUE(replaced.ok());
  EXPECT_EQ(replaced->generation, 2u);
  EXPECT_EQ(cache.entries(), 1);
}

TEST(FactorCache, ReplaceValuesWithAnExpectedGenerationIsAppliedOnce) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(1 << 20, &clock, &evictions));
  auto m = MatrixOfBytes(120);
  ASSERT_TRUE(cache.InsertMatrix(K("a"), m, 5, 0, false).ok());
  auto m2 = MatrixOfBytes(120);
  absl::StatusOr<CacheEntry> applied = cache.ReplaceValues(K("a"), m2, 5, 0, 1);
  ASSERT_TRUE(applied.ok());
  EXPECT_EQ(applied->generation, 2u);
  // The same request retried: refused, nothing changes.
  const absl::Status retry =
      cache.ReplaceValues(K("a"), MatrixOfBytes(120), 5, 0, 1).status();
  EXPECT_EQ(retry.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(EffectiveReason(retry), v1::GENERATION_MISMATCH);
  EXPECT_EQ(cache.Lookup(K("a"))->generation, 2u);
  EXPECT_EQ(cache.Lookup(K("a"))->matrix, m2);
}

TEST(FactorCache, ReuploadOfSamePatternKeepsAnalysis) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(1 << 20, &clock, &evictions));
  auto m = MatrixOfBytes(120);
  ASSERT_TRUE(cache.InsertMatrix(K("a"), m, 5, 0, /*replace=*/false).ok());
  auto analysis = std::make_shared<FakeAnalysis>(10);
  ASSERT_TRUE(cache
                  .StoreFactorization(K("a"), 5, 1, analysis,
                                      std::make_shared<FakeFactorization>(10),
                                      Method::kLu, true)
                  .ok());
  ASSERT_TRUE(cache.InsertMatrix(K("a"), m, 5, 0, /*replace=*/true).ok());
  absl::StatusOr<CacheEntry> e = cache.Lookup(K("a"));
  EXPECT_EQ(e->analysis, analysis);
  EXPECT_EQ(e->factorization, nullptr);
  ASSERT_TRUE(cache.InsertMatrix(K("a"), m, 6, 0, /*replace=*/true)
                  .ok());  // another pattern
  EXPECT_EQ(cache.Lookup(K("a"))->analysis, nullptr);
  EXPECT_EQ(cache.bytes(), m->bytes());
}

TEST(FactorCache, IdleTtlSweepsOnlyStaleEntries) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(1 << 20, &clock, &evictions));
  auto m = MatrixOfBytes(120);
  ASSERT_TRUE(cache.InsertMatrix(K("old"), m, 1, 0, /*replace=*/false).ok());
  clock.now += absl::Minutes(6);
  ASSERT_TRUE(cache.InsertMatrix(K("young"), m, 1, 0, /*replace=*/false).ok());
  clock.now += absl::Minutes(5);  // old idle 11 min, young 5 min
  EXPECT_EQ(cache.SweepIdle(), 1);
  EXPECT_EQ(Ids(cache), (std::vector<std::string>{"young"}));
  EXPECT_EQ(evictions, 1);
  ASSERT_TRUE(cache.Lookup(K("young")).ok());  // use refreshes the clock
  clock.now += absl::Minutes(9);
  EXPECT_EQ(cache.SweepIdle(), 0);
  clock.now += absl::Minutes(2);
  EXPECT_EQ(cache.SweepIdle(), 1);
  EXPECT_EQ(cache.entries(), 0);
  EXPECT_EQ(cache.bytes(), 0);
}

TEST(FactorCache, ReleaseReturnsBytesAndDoesNotCountAsEviction) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(1 << 20, &clock, &evictions));
  auto m = MatrixOfBytes(120);
  ASSERT_TRUE(cache.InsertMatrix(K("a"), m, 1, 0, /*replace=*/false).ok());
  absl::StatusOr<int64_t> freed = cache.Release(K("a"));
  ASSERT_TRUE(freed.ok());
  EXPECT_EQ(*freed, m->bytes());
  EXPECT_EQ(cache.bytes(), 0);
  EXPECT_EQ(evictions, 0);
}

TEST(FactorCache, TenantsSeeOnlyTheirOwnEntries) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache cache(TestOptions(1 << 20, &clock, &evictions));
  auto small = MatrixOfBytes(120);
  auto large = MatrixOfBytes(240);
  const MatrixKey a{"alice", "m"}, b{"bob", "m"};
  ASSERT_TRUE(cache.InsertMatrix(a, small, 1, 0, /*replace=*/false).ok());
  // The same ID in another tenant is another matrix.
  ASSERT_TRUE(cache.InsertMatrix(b, large, 2, 0, /*replace=*/false).ok());
  EXPECT_EQ(cache.Lookup(a)->matrix, small);
  EXPECT_EQ(cache.Lookup(b)->matrix, large);
  EXPECT_EQ(cache.Lookup(b)->tenant, "bob");
  EXPECT_EQ(cache.entries(), 2);
  EXPECT_EQ(cache.tenant_bytes("alice"), small->bytes());
  EXPECT_EQ(cache.tenant_entries("bob"), 1);
  ASSERT_EQ(cache.List("alice").size(), 1u);
  EXPECT_EQ(cache.List("alice")[0].matrix, small);
  EXPECT_TRUE(cache.List("").empty());

  // Another tenant's ID answers exactly as an ID nobody holds.
  const MatrixKey carol_m{"carol", "m"}, carol_none{"carol", "none"};
  const absl::Status theirs = cache.Lookup(carol_m).status();
  const absl::Status nobodys = cache.Lookup(carol_none).status();
  EXPECT_EQ(theirs.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(std::string(theirs.message()),
            "matrix 'm' is unknown or was evicted");
  EXPECT_EQ(cache.Release(carol_m).status(), theirs);
  EXPECT_EQ(cache.ReplaceValues(carol_m, small, 1, 0, /*expected_generation=*/0)
                .status(),
            theirs);
  EXPECT_EQ(cache
                .StoreFactorization(carol_m, 1, 1, nullptr, nullptr,
                                    Method::kLu, true)
                .status()
                .code(),
            absl::StatusCode::kNotFound);

  ASSERT_TRUE(cache.Release(a).ok());
  EXPECT_TRUE(cache.Lookup(b).ok());  // bob's "m" is untouched
  EXPECT_EQ(cache.tenant_bytes("alice"), 0);
  EXPECT_EQ(cache.bytes(), large->bytes());
}

TEST(FactorCache, TenantQuotaRefusesAndNamesTheLimitAndTheUse) {
  FakeClock clock;
  int64_t evictions = 0;
  FactorCache::Options options = TestOptions(1 << 20, &clock, &evictions);
  options.tenant_budget_bytes = 3000;
  FactorCache cache(std::move(options));
  auto m = MatrixOfBytes(1200);  // 1216 bytes
  ASSERT_TRUE(cache.InsertMatrix({"t", "a"}, m, 1, 0, /*replace=*/false).ok());
  ASSERT_TRUE(cache.InsertMatrix({"t", "b"}, m, 1, 0, /*replace=*/false).ok());
  absl::Status s = cache.InsertMatrix({"t", "c"}, m, 1, 0, false).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("tenant_cache_bytes = 3000"),
            absl::string_view::npos)
      << s;
  EXPECT_NE(s.message().find("tenant 't' holds 2432 bytes"),
            absl::string_view::npos)
      << s;
  EXPECT_EQ(evictions, 0);  // a quota refusal evicts nothing
  EXPECT_EQ(cache.entries(), 2);
  // Another tenant has a quota of its own.
  EXPECT_TRUE(cache.InsertMatrix({"u", "c"}, m, 1, 0, /*replace=*/false).ok());
  // Re-uploading an entry counts only the difference, and keeps the old
  // entry when refused.
  EXPECT_TRUE(cache.InsertMatrix({"t", "a"}, m, 1, 0, /*replace=*/true).ok());
  EXPECT_EQ(cache.InsertMatrix({"t", "a"}, MatrixOfBytes(2400), 1, 0, true)
                .status()
                .code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(cache.Lookup({"t", "a"})->matrix, m);
  // A factorization over the quota is refused; the matrix stays.
  auto factor = std::make_shared<FakeFactorization>(1000);
  EXPECT_EQ(cache
                .StoreFactorization({"t", "a"}, 1, 0, nullptr, factor,
                                    Method::kLu, true)
                .status()
                .code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(cache.Lookup({"t", "a"})->factorization, nullptr);
  // Releasing makes room again.
  ASSERT_TRUE(cache.Release({"t", "b"}).ok());
  EXPECT_TRUE(cache
                  .StoreFactorization({"t", "a"}, 1, 0, nullptr, factor,
                                      Method::kLu, true)
                  .ok());
  EXPECT_EQ(cache.tenant_bytes("t"), m->bytes() + 1000);
  EXPECT_TRUE(cache.CheckTenantQuota("t", 3000 - m->bytes() - 1000, "x").ok());
  EXPECT_FALSE(cache.CheckTenantQuota("t", 3001 - m->bytes() - 1000, "x").ok());
}

}  // namespace
}  // namespace factord::server
