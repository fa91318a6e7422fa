// The work of one interior-point Step, shared by the streamed Step and
// StepUnary: the opening checks of its header, and the job on a worker that
// applies the new values (against the expected generation, so a retried
// Step is applied at most once), factorizes reusing the cached analysis,
// and solves every right-hand side.
#ifndef FACTORD_SERVER_SERVICE_STEP_JOB_H_
#define FACTORD_SERVER_SERVICE_STEP_JOB_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/cancellation.h"
#include "core/solver/report.h"
#include "factord/v1/solver.pb.h"
#include "server/cache/factor_cache.h"
#include "server/service/admission.h"
#include "server/service/request_log.h"
#include "server/service/service_state.h"

namespace factord::server {

// Right-hand sides one Step may carry.
inline constexpr uint32_t kMaxStepRhs = 256;

// Logs and looks up the header's matrix (INVALID_REQUEST on a bad ID,
// NOT_FOUND), checks the expected generation early (GENERATION_MISMATCH;
// checked again where the values are applied) and the number of
// right-hand sides.
absl::StatusOr<CacheEntry> OpenStep(const ServiceState& state,
                                    const Caller& caller, RequestLog& log,
                                    const v1::StepHeader& header);

struct StepWork {
  v1::StepHeader header;
  CacheEntry entry;                      // as OpenStep found it
  std::vector<double> values;            // nnz, when header.new_values
  std::vector<double> diagonal;          // n, when header.diagonal_shift
  std::vector<std::vector<double>> rhs;  // header.rhs_count of n each
  int64_t bytes_received = 0;
  double queue_s = 0;  // waiting for a worker
};

struct StepSolution {
  std::vector<double> x;
  SolveReport report;
};

struct StepOutcome {
  v1::FactorizeReply factorization;  // generation: of the values factorized
  std::vector<StepSolution> solutions;
};

// Runs `work` (on a worker). Errors as UpdateValues, Factorize and Solve
// give them, each with its reason.
absl::StatusOr<StepOutcome> RunStep(const ServiceState& state,
                                    const Caller& caller, StepWork work,
                                    const Cancellation& cancellation);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_STEP_JOB_H_
