// The factor cache: one entry per (tenant, matrix ID) holding the uploaded
// matrix, the analysis and the factorization made from it, with byte sizes,
// under a host byte budget with LRU eviction, an idle time-to-live and an
// optional per-tenant quota.
//
// Tenants are isolated by the key: a tenant's lookups, releases and lists
// see only its own entries, and another tenant's ID answers NotFound with
// the same message as an ID nobody holds (no existence leak). The global
// budget still evicts the least recently used entry of any tenant; the
// quota bounds how much of it one tenant can take (docs/security.md).
//
// Entries are handed out as snapshots of shared_ptrs: a solve in flight keeps
// the matrix and factorization it started with alive even if the entry is
// evicted, released or refactorized meanwhile (docs/design.md, "Factor cache").
// Bytes of evicted-but-in-use objects are no longer counted.
#ifndef FACTORD_SERVER_CACHE_FACTOR_CACHE_H_
#define FACTORD_SERVER_CACHE_FACTOR_CACHE_H_

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/matrix/csr.h"
#include "core/solver/solver.h"

namespace factord::server {

// Names a matrix: IDs are scoped per tenant ("" when authentication is off).
struct MatrixKey {
  std::string tenant;
  std::string id;

  bool operator==(const MatrixKey&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const MatrixKey& key) {
    return H::combine(std::move(h), key.tenant, key.id);
  }
};

// A snapshot of one cache entry. Copies share the immutable objects.
struct CacheEntry {
  std::string tenant;
  std::string id;
  std::shared_ptr<const CsrMatrix> matrix;
  uint64_t pattern_hash = 0;
  int64_t bytes_received = 0;
  // 1 after the upload; +1 for every ReplaceValues and every replacing
  // upload. A factorization made from an older generation is stale.
  uint64_t generation = 1;
  // The generation the factorization was made from (0: none).
  uint64_t factorized_generation = 0;
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
    // Bytes one tenant's entries may hold together; 0 = no quota.
    int64_t tenant_budget_bytes = 0;
    // The clock of last-use times and of SweepIdle (tests pass a fake one).
    std::function<absl::Time()> now = [] { return absl::Now(); };
    // Called (outside the cache lock) with the number of entries evicted by
    // the budget or the idle sweep; not called for Release.
    std::function<void(int64_t)> on_evict;
  };
  explicit FactorCache(Options options);

  // Adds a freshly uploaded matrix at generation 1. An entry with the same
  // ID is AlreadyExists (reason ALREADY_EXISTS) unless `replace`; replaced,
  // its generation advances and its analysis is kept when the pattern is
  // the same. Evicts least recently used entries to make room;
  // ResourceExhausted when the matrix alone is over the budget
  // (CACHE_BUDGET), or would take the tenant over its quota (TENANT_QUOTA;
  // the old entry is then kept). Returns the new entry.
  absl::StatusOr<CacheEntry> InsertMatrix(
      const MatrixKey& key, std::shared_ptr<const CsrMatrix> matrix,
      uint64_t pattern_hash, int64_t bytes_received, bool replace);

  // The entry for `id`, marked as just used. NotFound for unknown or
  // evicted IDs.
  absl::StatusOr<CacheEntry> Lookup(const MatrixKey& key);

  // New values for the same pattern (checked by hash): advances the
  // generation, marks the factorization stale and returns the updated
  // snapshot. With `expected_generation` > 0 the values are applied only if
  // the entry is at that generation, checked under the lock, so a retried
  // update is applied at most once. NotFound; Aborted (GENERATION_MISMATCH)
  // when the generation differs or the entry was re-uploaded with another
  // pattern meanwhile; ResourceExhausted over the tenant quota.
  absl::StatusOr<CacheEntry> ReplaceValues(
      const MatrixKey& key, std::shared_ptr<const CsrMatrix> matrix,
      uint64_t pattern_hash, int64_t bytes_received,
      uint64_t expected_generation);

  // Stores a factorization made from `generation` of the matrix with
  // pattern `pattern_hash`. It is stale at once if the values changed while
  // it was computed. Evicts other entries to make room; ResourceExhausted
  // (and nothing stored) when the entry alone would exceed the budget or the
  // tenant would exceed its quota; NotFound if the entry is gone; Aborted
  // (GENERATION_MISMATCH) if it was re-uploaded with another pattern
  // meanwhile.
  absl::StatusOr<CacheEntry> StoreFactorization(
      const MatrixKey& key, uint64_t pattern_hash, uint64_t generation,
      std::shared_ptr<const Analysis> analysis,
      std::shared_ptr<const Factorization> factorization, Method method,
      bool deterministic);

  // Drops the entry; returns the bytes it accounted for. NotFound if absent.
  absl::StatusOr<int64_t> Release(const MatrixKey& key);

  // Evicts entries unused for longer than idle_ttl; returns how many.
  int64_t SweepIdle();

  // Snapshots of the entries of `tenant`, most recently used first.
  std::vector<CacheEntry> List(absl::string_view tenant) const;

  int64_t bytes() const;    // all tenants
  int64_t entries() const;  // all tenants
  int64_t tenant_bytes(absl::string_view tenant) const;
  int64_t tenant_entries(absl::string_view tenant) const;
  int64_t budget_bytes() const { return options_.budget_bytes; }
  int64_t tenant_budget_bytes() const { return options_.tenant_budget_bytes; }

  // ResourceExhausted when `tenant`, holding tenant_bytes(tenant), would
  // hold `more` bytes more (negative: fewer) with a quota set; names the
  // quota and the tenant's use. `what` says what needs the bytes.
  absl::Status CheckTenantQuota(absl::string_view tenant, int64_t more,
                                absl::string_view what) const;

 private:
  struct Slot {
    CacheEntry entry;
    absl::Time last_use;
    std::list<MatrixKey>::iterator lru_position;
  };
  struct TenantUse {
    int64_t bytes = 0;
    int64_t entries = 0;
  };

  // Evicts least recently used entries other than `keep` until `extra` more
  // bytes fit in the budget. Returns the number evicted.
  int64_t MakeRoom(int64_t extra, const MatrixKey& keep)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Touch(Slot& slot) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Erase(const MatrixKey& key) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Adds `delta` bytes (and `entries` entries) to the totals.
  void Account(const std::string& tenant, int64_t delta, int64_t entries)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status CheckQuotaLocked(absl::string_view tenant, int64_t more,
                                absl::string_view what) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ReportEvictions(int64_t count) const;

  const Options options_;
  // std::mutex rather than absl::Mutex: Debian's libabsl is not built with
  // ThreadSanitizer, which sees only synchronisation through pthreads, and
  // the worker pool and the caches are what scripts/sanitize.sh tsan checks.
  mutable std::mutex mu_;
  absl::flat_hash_map<MatrixKey, Slot> slots_ ABSL_GUARDED_BY(mu_);
  std::list<MatrixKey> lru_ ABSL_GUARDED_BY(mu_);  // front: most recent
  int64_t bytes_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, TenantUse> tenants_ ABSL_GUARDED_BY(mu_);
};

// How messages name a tenant: 'name', or "the anonymous tenant" for "".
std::string TenantLabel(absl::string_view tenant);

}  // namespace factord::server

#endif  // FACTORD_SERVER_CACHE_FACTOR_CACHE_H_
