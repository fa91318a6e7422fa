// Symbolic analyses shared across matrix IDs by (pattern, analysis options).
// The factorize job prefixes Key() with the tenant, so analyses are shared
// within a tenant only (docs/security.md).
//
// The cache holds weak references: an analysis lives as long as some factor
// cache entry (or a job in flight) holds it, so it costs no budget of its
// own. A new matrix ID with the pattern of a live one, or new values for the
// same ID, reuse the analysis and skip the symbolic phase (docs/design.md,
// the analysis is cached by pattern hash and options).
#ifndef FACTORD_SERVER_CACHE_ANALYSIS_CACHE_H_
#define FACTORD_SERVER_CACHE_ANALYSIS_CACHE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"
#include "core/solver/solver.h"

namespace factord::server {

class AnalysisCache {
 public:
  // The key of an analysis of `a` (pattern hash `pattern_hash`) with
  // `options` (whose method is resolved). Includes n and nnz so that a hash
  // collision between different sizes cannot hand out a wrong analysis.
  static std::string Key(const CsrMatrix& a, uint64_t pattern_hash,
                         const FactorOptions& options);

  // The live analysis for `key`, or nullptr.
  std::shared_ptr<const Analysis> Find(const std::string& key);

  // Remembers `analysis` under `key` (replacing a dead or older one) and
  // forgets analyses nobody holds any more.
  void Insert(const std::string& key, std::shared_ptr<const Analysis> analysis);

  // Analyses still alive.
  int64_t size() const;

 private:
  // std::mutex rather than absl::Mutex: Debian's libabsl is not built with
  // ThreadSanitizer, which sees only synchronisation through pthreads, and
  // the worker pool and the caches are what scripts/sanitize.sh tsan checks.
  mutable std::mutex mu_;
  absl::flat_hash_map<std::string, std::weak_ptr<const Analysis>> analyses_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_CACHE_ANALYSIS_CACHE_H_
