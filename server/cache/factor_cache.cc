#include "server/cache/factor_cache.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace factord::server {

int64_t CacheEntry::bytes() const {
  int64_t total = 0;
  if (matrix != nullptr) total += matrix->bytes();
  if (analysis != nullptr) total += analysis->bytes();
  if (factorization != nullptr) total += factorization->bytes();
  return total;
}

FactorCache::FactorCache(Options options) : options_(std::move(options)) {}

absl::Status FactorCache::InsertMatrix(const std::string& id,
                                       std::shared_ptr<const CsrMatrix> matrix,
                                       uint64_t pattern_hash,
                                       int64_t bytes_received) {
  CacheEntry entry;
  entry.id = id;
  entry.matrix = std::move(matrix);
  entry.pattern_hash = pattern_hash;
  entry.bytes_received = bytes_received;
  int64_t evicted = 0;
  {
    absl::MutexLock lock(&mu_);
    auto it = slots_.find(id);
    if (it != slots_.end()) {
      const CacheEntry& old = it->second.entry;
      // A re-upload of the same pattern keeps its analysis (IPM clients that
      // re-upload instead of UpdateValues still skip the symbolic phase).
      if (old.pattern_hash == pattern_hash && old.matrix != nullptr &&
          old.matrix->rows == entry.matrix->rows &&
          old.matrix->nnz() == entry.matrix->nnz()) {
        entry.analysis = old.analysis;
      }
      entry.values_version = old.values_version + 1;
      Erase(id);
    }
    const int64_t need = entry.bytes();
    if (need > options_.budget_bytes) {
      return absl::ResourceExhaustedError(
          absl::StrCat("matrix '", id, "' needs ", need,
                       " bytes, over the cache budget cache_bytes = ",
                       options_.budget_bytes));
    }
    evicted = MakeRoom(need, id);
    lru_.push_front(id);
    Slot slot{std::move(entry), options_.now(), lru_.begin()};
    bytes_ += need;
    slots_.emplace(id, std::move(slot));
  }
  ReportEvictions(evicted);
  return absl::OkStatus();
}

absl::StatusOr<CacheEntry> FactorCache::Lookup(const std::string& id) {
  absl::MutexLock lock(&mu_);
  auto it = slots_.find(id);
  if (it == slots_.end()) {
    return absl::NotFoundError(
        absl::StrCat("matrix '", id, "' is unknown or was evicted"));
  }
  Touch(it->second);
  return it->second.entry;
}

absl::StatusOr<CacheEntry> FactorCache::ReplaceValues(
    const std::string& id, std::shared_ptr<const CsrMatrix> matrix,
    uint64_t pattern_hash, int64_t bytes_received) {
  int64_t evicted = 0;
  CacheEntry result;
  {
    absl::MutexLock lock(&mu_);
    auto it = slots_.find(id);
    if (it == slots_.end()) {
      return absl::NotFoundError(
          absl::StrCat("matrix '", id, "' is unknown or was evicted"));
    }
    CacheEntry& entry = it->second.entry;
    if (entry.pattern_hash != pattern_hash) {
      return absl::FailedPreconditionError(
          absl::StrCat("matrix '", id,
                       "' was re-uploaded with another pattern during the "
                       "update"));
    }
    const int64_t before = entry.bytes();
    entry.matrix = std::move(matrix);
    entry.bytes_received = bytes_received;
    ++entry.values_version;
    entry.stale = entry.factorization != nullptr;
    bytes_ += entry.bytes() - before;
    Touch(it->second);
    evicted = MakeRoom(0, id);
    result = entry;
  }
  ReportEvictions(evicted);
  return result;
}

absl::StatusOr<CacheEntry> FactorCache::StoreFactorization(
    const std::string& id, uint64_t pattern_hash, uint64_t values_version,
    std::shared_ptr<const Analysis> analysis,
    std::shared_ptr<const Factorization> factorization, Method method,
    bool deterministic) {
  int64_t evicted = 0;
  CacheEntry result;
  {
    absl::MutexLock lock(&mu_);
    auto it = slots_.find(id);
    if (it == slots_.end()) {
      return absl::NotFoundError(
          absl::StrCat("matrix '", id,
                       "' was released or evicted during the factorization"));
    }
    if (it->second.entry.pattern_hash != pattern_hash) {
      return absl::FailedPreconditionError(
          absl::StrCat("matrix '", id,
                       "' was re-uploaded with another pattern during the "
                       "factorization"));
    }
    CacheEntry candidate = it->second.entry;
    candidate.analysis = std::move(analysis);
    candidate.factorization = std::move(factorization);
    candidate.method = method;
    candidate.deterministic = deterministic;
    candidate.stale = candidate.values_version != values_version;
    const int64_t need = candidate.bytes();
    if (need > options_.budget_bytes) {
      return absl::ResourceExhaustedError(
          absl::StrCat("matrix '", id, "' with its factorization needs ", need,
                       " bytes, over the cache budget cache_bytes = ",
                       options_.budget_bytes));
    }
    const int64_t before = it->second.entry.bytes();
    evicted = MakeRoom(need - before, id);
    it = slots_.find(id);  // MakeRoom never erases `id`, but stay safe
    it->second.entry = std::move(candidate);
    bytes_ += need - before;
    Touch(it->second);
    result = it->second.entry;
  }
  ReportEvictions(evicted);
  return result;
}

absl::StatusOr<int64_t> FactorCache::Release(const std::string& id) {
  absl::MutexLock lock(&mu_);
  auto it = slots_.find(id);
  if (it == slots_.end()) {
    return absl::NotFoundError(
        absl::StrCat("matrix '", id, "' is unknown or was evicted"));
  }
  const int64_t freed = it->second.entry.bytes();
  Erase(id);
  return freed;
}

int64_t FactorCache::SweepIdle() {
  int64_t evicted = 0;
  {
    absl::MutexLock lock(&mu_);
    const absl::Time cutoff = options_.now() - options_.idle_ttl;
    // The LRU list's tail holds the oldest uses.
    while (!lru_.empty()) {
      auto it = slots_.find(lru_.back());
      if (it->second.last_use > cutoff) break;
      Erase(it->first);
      ++evicted;
    }
  }
  ReportEvictions(evicted);
  return evicted;
}

std::vector<CacheEntry> FactorCache::List() const {
  absl::MutexLock lock(&mu_);
  std::vector<CacheEntry> out;
  out.reserve(slots_.size());
  for (const std::string& id : lru_) out.push_back(slots_.at(id).entry);
  return out;
}

int64_t FactorCache::bytes() const {
  absl::MutexLock lock(&mu_);
  return bytes_;
}

int64_t FactorCache::entries() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int64_t>(slots_.size());
}

int64_t FactorCache::MakeRoom(int64_t extra, const std::string& keep) {
  int64_t evicted = 0;
  auto victim = lru_.end();
  while (bytes_ + extra > options_.budget_bytes && !lru_.empty()) {
    // Walk from the least recently used end, skipping `keep`.
    victim = std::prev(lru_.end());
    if (*victim == keep) {
      if (victim == lru_.begin()) break;
      victim = std::prev(victim);
    }
    Erase(std::string(*victim));
    ++evicted;
  }
  return evicted;
}

void FactorCache::Touch(Slot& slot) {
  slot.last_use = options_.now();
  lru_.splice(lru_.begin(), lru_, slot.lru_position);
}

void FactorCache::Erase(const std::string& id) {
  auto it = slots_.find(id);
  if (it == slots_.end()) return;
  bytes_ -= it->second.entry.bytes();
  lru_.erase(it->second.lru_position);
  slots_.erase(it);
}

void FactorCache::ReportEvictions(int64_t count) const {
  if (count > 0 && options_.on_evict) options_.on_evict(count);
}

}  // namespace factord::server
