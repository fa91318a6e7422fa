// The factor cache: one entry per matrix ID holding the uploaded matrix, the
// analysis and the factorization made from it, with byte sizes, under a host
// byte budget with LRU eviction and an idle time-to-live.
//
// Entries are handed out as snapshots of shared_ptrs: a solve in flight keeps
// the matrix and factorization it started with alive even if the entry is
// evicted, released or refactorized meanwhile (DESIGN.md, "Factor cache").
// Bytes of evicted-but-in-use objects are no longer counted.
#ifndef FACTORD_SERVER_CACHE_FACTOR_CACHE_H_
#define FACTORD_SERVER_CACHE_FACTOR_CACHE_H_

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "factord/matrix/csr.h"
#include "factord/solver/solver.h"

namespace factord::server {

// A snapshot of one cache entry. Copies share the immutable objects.
struct CacheEntry {
  std::string id;
  std::shared_ptr<const CsrMatrix> matrix;
  uint64_t pattern_hash = 0;
  int64_t bytes_received = 0;
  // Incremented by every ReplaceValues: a factorization made from an older
  // version is stale.
  uint64_t values_version = 0;
  std::shared_ptr<const Analysis> analysis;  // the factorization's analysis
  std::shared_ptr<const Factorization> factorization;
  Method method = Method::kAuto;  // of the factorization
  bool deterministic = true;      // as requested at Factorize
  bool stale = false;             // values changed since the factorization

  // matrix + analysis + factorization bytes. A shared analysis is counted by
  // every entry that holds it (conservative).
  int64_t bytes() const;
};

class FactorCache {
 public:
  struct Options {
    int64_t budget_bytes = int64_t{8} << 30;
    absl::Duration idle_ttl = absl::Hours(1);
    // The clock of last-use times and of SweepIdle (tests pass a fake one).
    std::function<absl::Time()> now = [] { return absl::Now(); };
    // Called (outside the cache lock) with the number of entries evicted by
    // the budget or the idle sweep; not called for Release.
    std::function<void(int64_t)> on_evict;
  };
  explicit FactorCache(Options options);

  // Adds a freshly uploaded matrix, replacing an entry with the same ID
  // (whose analysis is kept when the pattern is the same). Evicts least
  // recently used entries to make room; ResourceExhausted when the matrix
  // alone is over the budget.
  absl::Status InsertMatrix(const std::string& id,
                            std::shared_ptr<const CsrMatrix> matrix,
                            uint64_t pattern_hash, int64_t bytes_received);

  // The entry for `id`, marked as just used. NotFound for unknown or
  // evicted IDs.
  absl::StatusOr<CacheEntry> Lookup(const std::string& id);

  // New values for the same pattern (checked by hash): marks the
  // factorization stale and returns the updated snapshot. NotFound,
  // or FailedPrecondition when the entry's pattern changed meanwhile.
  absl::StatusOr<CacheEntry> ReplaceValues(
      const std::string& id, std::shared_ptr<const CsrMatrix> matrix,
      uint64_t pattern_hash, int64_t bytes_received);

  // Stores a factorization made from `values_version` of the matrix with
  // pattern `pattern_hash`. It is stale at once if the values changed while
  // it was computed. Evicts other entries to make room; ResourceExhausted
  // (and nothing stored) when the entry alone would exceed the budget;
  // NotFound if the entry is gone; FailedPrecondition if it was re-uploaded
  // with another pattern meanwhile.
  absl::StatusOr<CacheEntry> StoreFactorization(
      const std::string& id, uint64_t pattern_hash, uint64_t values_version,
      std::shared_ptr<const Analysis> analysis,
      std::shared_ptr<const Factorization> factorization, Method method,
      bool deterministic);

  // Drops the entry; returns the bytes it accounted for. NotFound if absent.
  absl::StatusOr<int64_t> Release(const std::string& id);

  // Evicts entries unused for longer than idle_ttl; returns how many.
  int64_t SweepIdle();

  // Snapshots of all entries, most recently used first.
  std::vector<CacheEntry> List() const;

  int64_t bytes() const;
  int64_t entries() const;
  int64_t budget_bytes() const { return options_.budget_bytes; }

 private:
  struct Slot {
    CacheEntry entry;
    absl::Time last_use;
    std::list<std::string>::iterator lru_position;
  };

  // Evicts least recently used entries other than `keep` until `extra` more
  // bytes fit in the budget. Returns the number evicted.
  int64_t MakeRoom(int64_t extra, const std::string& keep)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Touch(Slot& slot) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Erase(const std::string& id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ReportEvictions(int64_t count) const;

  const Options options_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, Slot> slots_ ABSL_GUARDED_BY(mu_);
  std::list<std::string> lru_ ABSL_GUARDED_BY(mu_);  // front: most recent
  int64_t bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_CACHE_FACTOR_CACHE_H_
