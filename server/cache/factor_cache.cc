#include "server/cache/factor_cache.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "server/error_reason.h"

namespace factord::server {
namespace {

// The same text for an ID nobody holds and for another tenant's ID.
absl::Status Unknown(const MatrixKey& key) {
  return WithReason(absl::NotFoundError(absl::StrCat(
                        "matrix '", key.id, "' is unknown or was evicted")),
                    v1::NOT_FOUND);
}

absl::Status OverBudget(std::string message) {
  return WithReason(absl::ResourceExhaustedError(std::move(message)),
                    v1::CACHE_BUDGET);
}

absl::Status PatternChanged(const MatrixKey& key, absl::string_view during) {
  return WithReason(
      absl::AbortedError(absl::StrCat("matrix '", key.id,
                                      "' was re-uploaded with another "
                                      "pattern during the ",
                                      during)),
      v1::GENERATION_MISMATCH);
}

}  // namespace

std::string TenantLabel(absl::string_view tenant) {
  return tenant.empty() ? std::string("the anonymous tenant")
                        : absl::StrCat("tenant '", tenant, "'");
}

int64_t CacheEntry::bytes() const {
  int64_t total = 0;
  if (matrix != nullptr) total += matrix->bytes();
  if (analysis != nullptr) total += analysis->bytes();
  if (factorization != nullptr) total += factorization->bytes();
  return total;
}

FactorCache::FactorCache(Options options) : options_(std::move(options)) {}

absl::StatusOr<CacheEntry> FactorCache::InsertMatrix(
    const MatrixKey& key, std::shared_ptr<const CsrMatrix> matrix,
    uint64_t pattern_hash, int64_t bytes_received, bool replace) {
  CacheEntry entry;
  entry.tenant = key.tenant;
  entry.id = key.id;
  entry.matrix = std::move(matrix);
  entry.pattern_hash = pattern_hash;
  entry.bytes_received = bytes_received;
  int64_t evicted = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = slots_.find(key);
    int64_t replaced_bytes = 0;
    if (it != slots_.end() && !replace) {
      return WithReason(
          absl::AlreadyExistsError(absl::StrCat(
              "matrix '", key.id,
              "' exists already: release it, upload under another ID, or "
              "ask to replace it")),
          v1::ALREADY_EXISTS);
    }
    if (it != slots_.end()) {
      const CacheEntry& old = it->second.entry;
      // A re-upload of the same pattern keeps its analysis (IPM clients that
      // re-upload instead of UpdateValues still skip the symbolic phase).
      if (old.pattern_hash == pattern_hash && old.matrix != nullptr &&
          old.matrix->rows == entry.matrix->rows &&
          old.matrix->nnz() == entry.matrix->nnz()) {
        entry.analysis = old.analysis;
      }
      entry.generation = old.generation + 1;
      replaced_bytes = old.bytes();
    }
    const int64_t need = entry.bytes();
    if (absl::Status s = CheckQuotaLocked(
            key.tenant, need - replaced_bytes,
            absl::StrCat("matrix '", key.id, "' (", need, " bytes)"));
        !s.ok()) {
      return s;
    }
    if (it != slots_.end()) Erase(key);
    if (need > options_.budget_bytes) {
      return OverBudget(absl::StrCat("matrix '", key.id, "' needs ", need,
                                     " bytes, over the cache budget "
                                     "cache_bytes = ",
                                     options_.budget_bytes));
    }
    evicted = MakeRoom(need, key);
    lru_.push_front(key);
    Slot slot{entry, options_.now(), lru_.begin()};
    Account(key.tenant, need, 1);
    slots_.emplace(key, std::move(slot));
  }
  ReportEvictions(evicted);
  return entry;
}

absl::StatusOr<CacheEntry> FactorCache::Lookup(const MatrixKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = slots_.find(key);
  if (it == slots_.end()) return Unknown(key);
  Touch(it->second);
  return it->second.entry;
}

absl::StatusOr<CacheEntry> FactorCache::ReplaceValues(
    const MatrixKey& key, std::shared_ptr<const CsrMatrix> matrix,
    uint64_t pattern_hash, int64_t bytes_received,
    uint64_t expected_generation) {
  int64_t evicted = 0;
  CacheEntry result;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = slots_.find(key);
    if (it == slots_.end()) return Unknown(key);
    CacheEntry& entry = it->second.entry;
    if (absl::Status s =
            CheckGeneration(key.id, expected_generation, entry.generation);
        !s.ok()) {
      return s;
    }
    if (entry.pattern_hash != pattern_hash) {
      return PatternChanged(key, "update");
    }
    const int64_t before = entry.bytes();
    const int64_t growth = matrix->bytes() - entry.matrix->bytes();
    if (absl::Status s = CheckQuotaLocked(
            key.tenant, growth, absl::StrCat("new values of '", key.id, "'"));
        !s.ok()) {
      return s;
    }
    entry.matrix = std::move(matrix);
    entry.bytes_received = bytes_received;
    ++entry.generation;
    entry.stale = entry.factorization != nullptr;
    Account(key.tenant, entry.bytes() - before, 0);
    Touch(it->second);
    evicted = MakeRoom(0, key);
    result = entry;
  }
  ReportEvictions(evicted);
  return result;
}

absl::StatusOr<CacheEntry> FactorCache::StoreFactorization(
    const MatrixKey& key, uint64_t pattern_hash, uint64_t generation,
    std::shared_ptr<const Analysis> analysis,
    std::shared_ptr<const Factorization> factorization, Method method,
    bool deterministic) {
  int64_t evicted = 0;
  CacheEntry result;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = slots_.find(key);
    if (it == slots_.end()) {
      return absl::NotFoundError(
          absl::StrCat("matrix '", key.id,
                       "' was released or evicted during the factorization"));
    }
    if (it->second.entry.pattern_hash != pattern_hash) {
      return PatternChanged(key, "factorization");
    }
    CacheEntry candidate = it->second.entry;
    candidate.analysis = std::move(analysis);
    candidate.factorization = std::move(factorization);
    candidate.method = method;
    candidate.deterministic = deterministic;
    candidate.factorized_generation = generation;
    candidate.stale = candidate.generation != generation;
    const int64_t need = candidate.bytes();
    if (need > options_.budget_bytes) {
      return OverBudget(
          absl::StrCat("matrix '", key.id, "' with its factorization needs ",
                       need, " bytes, over the cache budget cache_bytes = ",
                       options_.budget_bytes));
    }
    const int64_t before = it->second.entry.bytes();
    if (absl::Status s = CheckQuotaLocked(
            key.tenant, need - before,
            absl::StrCat("the factorization of '", key.id, "' (", need,
                         " bytes with its matrix)"));
        !s.ok()) {
      return s;
    }
    evicted = MakeRoom(need - before, key);
    it = slots_.find(key);  // MakeRoom never erases `key`, but stay safe
    it->second.entry = std::move(candidate);
    Account(key.tenant, need - before, 0);
    Touch(it->second);
    result = it->second.entry;
  }
  ReportEvictions(evicted);
  return result;
}

absl::StatusOr<int64_t> FactorCache::Release(const MatrixKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = slots_.find(key);
  if (it == slots_.end()) return Unknown(key);
  const int64_t freed = it->second.entry.bytes();
  Erase(key);
  return freed;
}

int64_t FactorCache::SweepIdle() {
  int64_t evicted = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const absl::Time cutoff = options_.now() - options_.idle_ttl;
    // The LRU list's tail holds the oldest uses.
    while (!lru_.empty()) {
      auto it = slots_.find(lru_.back());
      if (it->second.last_use > cutoff) break;
      Erase(MatrixKey(it->first));
      ++evicted;
    }
  }
  ReportEvictions(evicted);
  return evicted;
}

std::vector<CacheEntry> FactorCache::List(absl::string_view tenant) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<CacheEntry> out;
  for (const MatrixKey& key : lru_) {
    if (key.tenant == tenant) out.push_back(slots_.at(key).entry);
  }
  return out;
}

int64_t FactorCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

int64_t FactorCache::entries() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int64_t>(slots_.size());
}

int64_t FactorCache::tenant_bytes(absl::string_view tenant) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tenants_.find(tenant);
  return it == tenants_.end() ? 0 : it->second.bytes;
}

int64_t FactorCache::tenant_entries(absl::string_view tenant) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tenants_.find(tenant);
  return it == tenants_.end() ? 0 : it->second.entries;
}

absl::Status FactorCache::CheckTenantQuota(absl::string_view tenant,
                                           int64_t more,
                                           absl::string_view what) const {
  std::lock_guard<std::mutex> lock(mu_);
  return CheckQuotaLocked(tenant, more, what);
}

absl::Status FactorCache::CheckQuotaLocked(absl::string_view tenant,
                                           int64_t more,
                                           absl::string_view what) const {
  const int64_t quota = options_.tenant_budget_bytes;
  if (quota <= 0 || more <= 0) return absl::OkStatus();
  auto it = tenants_.find(tenant);
  const int64_t used = it == tenants_.end() ? 0 : it->second.bytes;
  if (used + more <= quota) return absl::OkStatus();
  return WithReason(absl::ResourceExhaustedError(absl::StrCat(
                        what, " needs ", more,
                        " more bytes: ", TenantLabel(tenant), " holds ", used,
                        " bytes, and the per-tenant quota "
                        "tenant_cache_bytes = ",
                        quota, "; release matrices first")),
                    v1::TENANT_QUOTA);
}

int64_t FactorCache::MakeRoom(int64_t extra, const MatrixKey& keep) {
  int64_t evicted = 0;
  auto victim = lru_.end();
  while (bytes_ + extra > options_.budget_bytes && !lru_.empty()) {
    // Walk from the least recently used end, skipping `keep`.
    victim = std::prev(lru_.end());
    if (*victim == keep) {
      if (victim == lru_.begin()) break;
      victim = std::prev(victim);
    }
    Erase(MatrixKey(*victim));
    ++evicted;
  }
  return evicted;
}

void FactorCache::Touch(Slot& slot) {
  slot.last_use = options_.now();
  lru_.splice(lru_.begin(), lru_, slot.lru_position);
}

void FactorCache::Erase(const MatrixKey& key) {
  auto it = slots_.find(key);
  if (it == slots_.end()) return;
  Account(key.tenant, -it->second.entry.bytes(), -1);
  lru_.erase(it->second.lru_position);
  slots_.erase(it);
}

void FactorCache::Account(const std::string& tenant, int64_t delta,
                          int64_t entries) {
  bytes_ += delta;
  TenantUse& use = tenants_[tenant];
  use.bytes += delta;
  use.entries += entries;
  if (use.entries == 0) tenants_.erase(tenant);
}

void FactorCache::ReportEvictions(int64_t count) const {
  if (count > 0 && options_.on_evict) options_.on_evict(count);
}

}  // namespace factord::server
