#include "server/service/step_job.h"

#include <algorithm>
#include <memory>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/base/timer.h"
#include "core/solver/solver.h"
#include "server/error_reason.h"
#include "server/service/convert.h"
#include "server/service/factorize_job.h"
#include "server/service/request_opening.h"
#include "server/service/streamed_values.h"

namespace factord::server {
namespace {

// Systems from this order up solve several right-hand sides at once.
constexpr int64_t kConcurrentSolveMinN = 5000;

}  // namespace

absl::StatusOr<CacheEntry> OpenStep(const ServiceState& state,
                                    const Caller& caller, RequestLog& log,
                                    const v1::StepHeader& header) {
  absl::StatusOr<CacheEntry> entry =
      OpenMatrix(state, caller, log, header.id(), "header.id");
  if (!entry.ok()) return entry.status();
  if (absl::Status s = CheckGeneration(
          header.id(), header.expected_generation(), entry->generation);
      !s.ok()) {
    return s;
  }
  if (header.rhs_count() > kMaxStepRhs) {
    return InvalidRequest(
        "header.rhs_count",
        absl::StrCat("rhs_count = ", header.rhs_count(), " is over ",
                     kMaxStepRhs, " right-hand sides a Step"));
  }
  return entry;
}

absl::StatusOr<StepOutcome> RunStep(const ServiceState& state,
                                    const Caller& caller, StepWork work,
                                    const Cancellation& cancellation) {
  if (absl::Status s = cancellation.Check(); !s.ok()) return s;
  const v1::StepHeader& header = work.header;
  absl::StatusOr<FactorOptions> options =
      FactorOptionsFromProto(header.method(), header.options());
  if (!options.ok()) return options.status();
  options->diagonal_shift = std::move(work.diagonal);
  // Checked before anything changes, for the method `auto` picks by the
  // matrix's class (its fallback to block_ildlt, past the memory budget, is
  // the one choice made later: the solve itself refuses what that method
  // cannot take).
  absl::StatusOr<SolveOptions> solve_options =
      SolveOptionsFromProto(header.solve_options(),
                            ResolveMethod(*work.entry.matrix, options->method));
  if (!solve_options.ok()) return solve_options.status();

  const MatrixKey key = caller.Key(header.id());
  uint64_t expected = header.expected_generation();
  if (header.new_values()) {
    absl::StatusOr<CacheEntry> updated = state.cache->ReplaceValues(
        key, WithNewValues(*work.entry.matrix, std::move(work.values)),
        work.entry.pattern_hash, work.bytes_received, expected);
    if (!updated.ok()) return updated.status();
    // Factorize exactly these values: a concurrent update in between is a
    // mismatch, not a silent factorization of someone else's values.
    expected = updated->generation;
  }
  absl::StatusOr<FactorizeOutcome> factorized =
      RunFactorize(state, key, *options, header.options().deterministic(),
                   expected, cancellation);
  if (!factorized.ok()) return factorized.status();
  StepOutcome outcome;
  v1::FactorizeReply& report = outcome.factorization;
  report.set_id(header.id());
  FactorReportToProto(factorized->report, factorized->method, &report);
  report.set_generation(factorized->entry.factorized_generation);
  report.mutable_timings()->set_queue_s(work.queue_s);

  const CacheEntry& entry = factorized->entry;
  const int64_t n = entry.matrix->rows;
  outcome.solutions.resize(work.rhs.size());
  // Solves right-hand sides first, first + stride, ... on this thread, each
  // with its own context (and device stream), as separate Solve jobs would.
  auto solve_every = [&](size_t first, size_t stride) -> absl::Status {
    absl::StatusOr<std::unique_ptr<DeviceContext>> device = state.MakeDevice();
    if (!device.ok()) return device.status();
    const ExecContext ctx =
        state.MakeContext(entry.deterministic, &cancellation, device->get());
    for (size_t r = first; r < work.rhs.size(); r += stride) {
      StepSolution& solution = outcome.solutions[r];
      solution.x.assign(n, 0.0);
      Timer timer;
      absl::Status status = entry.factorization->Solve(
          work.rhs[r], solution.x, *solve_options, ctx, &solution.report);
      if (status.code() == absl::StatusCode::kInvalidArgument) {
        status = WithBadField(WithDefaultReason(status, v1::INVALID_OPTION),
                              "header.solve_options");
      }
      if (!status.ok()) return status;
      if (solution.report.solve_s == 0) {
        solution.report.solve_s = timer.Seconds();
      }
      state.metrics->ObserveSolve(
          MethodName(entry.method), state.backend_name, solution.report.solve_s,
          solution.report.iterations, solution.report.relative_residual);
    }
    return absl::OkStatus();
  };
  // Large systems solve their right-hand sides side by side, as many at once
  // as the server runs jobs (a Solve stream would spread them over the
  // workers the same way); small ones are not worth a thread.
  // (At least one lane: a Step without right-hand sides solves nothing.)
  const size_t lanes =
      n >= kConcurrentSolveMinN
          ? std::clamp<size_t>(
                work.rhs.size(), 1,
                static_cast<size_t>(std::max(1, state.jobs->workers())))
          : 1;
  std::vector<absl::Status> lane_status(lanes);
  std::vector<std::thread> helpers;
  for (size_t lane = 1; lane < lanes; ++lane) {
    helpers.emplace_back(
        [&, lane] { lane_status[lane] = solve_every(lane, lanes); });
  }
  lane_status[0] = solve_every(0, lanes);
  for (std::thread& t : helpers) t.join();
  for (const absl::Status& s : lane_status) {
    if (!s.ok()) return s;
  }
  return outcome;
}

}  // namespace factord::server
