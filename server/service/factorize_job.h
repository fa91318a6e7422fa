// The work of one Factorize request, run on a worker: look the matrix up
// (counted as a cache hit or miss), check its generation, and factorize it
// in the request's context (cached_work.h: FactorizeEntry), observed in the
// metrics.
#ifndef FACTORD_SERVER_SERVICE_FACTORIZE_JOB_H_
#define FACTORD_SERVER_SERVICE_FACTORIZE_JOB_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "core/base/cancellation.h"
#include "core/solver/options.h"
#include "core/solver/report.h"
#include "server/cache/factor_cache.h"
#include "server/service/cached_work.h"
#include "server/service/service_state.h"

namespace factord::server {

// `key` names the matrix within its tenant; `expected_generation` (0: no
// check) the generation the caller expects it at. Errors, each with its
// reason (error_reason.h): NotFound (unknown / evicted ID, or another
// tenant's), Aborted (GENERATION_MISMATCH), ResourceExhausted (CACHE_BUDGET,
// TENANT_QUOTA, DEVICE_BUDGET, or MATRIX_TOO_LARGE for a 32-bit library
// limit), Cancelled / DeadlineExceeded, Unimplemented (UNSUPPORTED),
// InvalidArgument from the core (INVALID_OPTION: the method or options do
// not fit this matrix). Numerical trouble (singular, perturbed) is in the
// report, not an error.
absl::StatusOr<FactorizeOutcome> RunFactorize(const ServiceState& state,
                                              const MatrixKey& key,
                                              const FactorOptions& requested,
                                              bool deterministic,
                                              uint64_t expected_generation,
                                              const Cancellation& cancellation);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_FACTORIZE_JOB_H_
