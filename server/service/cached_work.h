// The work on a cached matrix that the daemon's handlers and the in-process
// solver (local/) share, free of gRPC: the check of a matrix ID,
// factorizing an entry of the factor
// cache (the method resolved against the room left in the cache, each
// analysis found in the analysis cache or computed, the memory estimate
// checked against the budget, the result stored), and the checks a solve
// makes before it uses an entry's factorization.
#ifndef FACTORD_SERVER_SERVICE_CACHED_WORK_H_
#define FACTORD_SERVER_SERVICE_CACHED_WORK_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/exec_context.h"
#include "core/solver/options.h"
#include "core/solver/report.h"
#include "server/cache/analysis_cache.h"
#include "server/cache/factor_cache.h"

namespace factord::server {

inline constexpr size_t kMaxMatrixIdLength = 256;

// INVALID_ARGUMENT (INVALID_REQUEST, BadRequest on `field`) when `id` is
// empty, longer than kMaxMatrixIdLength or not printable ASCII.
absl::Status CheckMatrixId(absl::string_view id, absl::string_view field);

// The caches a factorization works with; not owned.
struct FactorStore {
  FactorCache* cache = nullptr;
  AnalysisCache* analyses = nullptr;
};

struct FactorizeOutcome {
  CacheEntry entry;     // the entry after the factorization was stored
  FactorReport report;  // with analysis_reused and analyze_s of this job
  Method method = Method::kAuto;  // resolved
};

// Factorizes `entry` (as looked up under `key`, at its generation) with
// `requested` in `ctx`, and stores the factorization in store.cache.
// Errors, each with its reason (error_reason.h): INVALID_OPTION (an option
// out of range, or the method or options do not fit this matrix),
// ResourceExhausted (CACHE_BUDGET, TENANT_QUOTA, DEVICE_BUDGET, or
// MATRIX_TOO_LARGE for a 32-bit library limit), Cancelled /
// DeadlineExceeded, Unimplemented (UNSUPPORTED), and the cache's NotFound
// and GENERATION_MISMATCH when the entry changed meanwhile. Numerical
// trouble (singular, perturbed) is in the report, not an error.
absl::StatusOr<FactorizeOutcome> FactorizeEntry(
    const FactorStore& store, const MatrixKey& key, const CacheEntry& entry,
    const FactorOptions& requested, bool deterministic, const ExecContext& ctx);

// OK when `entry` (matrix `id`) has a factorization of its current values
// and, with `expected_generation` not 0, is at that generation; else
// FAILED_PRECONDITION (NOT_FACTORIZED, STALE_FACTOR) or ABORTED
// (GENERATION_MISMATCH).
absl::Status CheckSolvable(const CacheEntry& entry, absl::string_view id,
                           uint64_t expected_generation);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_CACHED_WORK_H_
