#include "server/service/factorize_job.h"

#include <memory>
#include <utility>

#include "core/base/timer.h"
#include "server/error_reason.h"
#include "server/service/request_opening.h"

namespace factord::server {

absl::StatusOr<FactorizeOutcome> RunFactorize(
    const ServiceState& state, const MatrixKey& key,
    const FactorOptions& requested, bool deterministic,
    uint64_t expected_generation, const Cancellation& cancellation) {
  absl::StatusOr<CacheEntry> entry = LookupMatrix(state, key);
  if (!entry.ok()) return entry.status();
  if (absl::Status s =
          CheckGeneration(key.id, expected_generation, entry->generation);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::unique_ptr<DeviceContext>> device = state.MakeDevice();
  if (!device.ok()) return device.status();
  const ExecContext ctx =
      state.MakeContext(deterministic, &cancellation, device->get());
  Timer total;
  absl::StatusOr<FactorizeOutcome> outcome =
      FactorizeEntry(FactorStore{state.cache, state.analyses}, key, *entry,
                     requested, deterministic, ctx);
  if (!outcome.ok()) return outcome.status();
  state.metrics->ObserveFactorize(MethodName(outcome->method),
                                  state.backend_name, total.Seconds());
  if (outcome->report.analysis_reused) state.metrics->AnalysisReused();
  return outcome;
}

}  // namespace factord::server
