// The work of one Factorize request, run on a worker: resolve the method,
// find or compute the analysis, check the memory estimate against the cache
// budget, factorize, store the result in the factor cache.
#ifndef FACTORD_SERVER_SERVICE_FACTORIZE_JOB_H_
#define FACTORD_SERVER_SERVICE_FACTORIZE_JOB_H_

#include <string>

#include "absl/status/statusor.h"
#include "factord/base/cancellation.h"
#include "factord/solver/options.h"
#include "factord/solver/report.h"
#include "server/cache/factor_cache.h"
#include "server/service/service_state.h"

namespace factord::server {

struct FactorizeOutcome {
  CacheEntry entry;     // the entry after the factorization was stored
  FactorReport report;  // with analysis_reused and analyze_s of this job
  Method method = Method::kAuto;  // resolved
};

// `key` names the matrix within its tenant. Errors: NotFound (unknown /
// evicted ID, or another tenant's), ResourceExhausted (estimate over the
// budget, over the tenant's quota, or a 32-bit library limit), Cancelled /
// DeadlineExceeded, Unimplemented (method not built yet), InvalidArgument from
// the core. Numerical trouble (singular, perturbed) is in the report, not an
// error.
absl::StatusOr<FactorizeOutcome> RunFactorize(const ServiceState& state,
                                              const MatrixKey& key,
                                              const FactorOptions& requested,
                                              bool deterministic,
                                              const Cancellation& cancellation);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_FACTORIZE_JOB_H_
