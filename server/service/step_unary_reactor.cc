#include "server/service/step_unary_reactor.h"

#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "server/error_reason.h"
#include "server/service/convert.h"
#include "server/service/request_opening.h"
#include "server/service/status_mapping.h"
#include "server/service/streamed_values.h"

namespace factord::server {
namespace {

std::span<const double> View(
    const google::protobuf::RepeatedField<double>& field) {
  return {field.data(), static_cast<size_t>(field.size())};
}

// `values` into `into` (already of the size announced: 0 when none): each
// finite, exactly as many (INVALID_MATRIX otherwise).
absl::Status TakeValues(std::span<const double> values, absl::string_view what,
                        absl::string_view whats, absl::string_view size_name,
                        std::vector<double>& into) {
  int64_t received = 0;
  if (absl::Status s =
          AppendFiniteValues(values, what, whats, size_name, into, received);
      !s.ok()) {
    return s;
  }
  if (received == static_cast<int64_t>(into.size())) return absl::OkStatus();
  return WithReason(absl::InvalidArgumentError(
                        absl::StrCat("received ", received, " of ", size_name,
                                     " = ", into.size(), " ", whats)),
                    v1::INVALID_MATRIX);
}

}  // namespace

StepUnaryReactor::StepUnaryReactor(const ServiceState* state,
                                   grpc::CallbackServerContext* context,
                                   const v1::StepUnaryRequest* request,
                                   v1::StepUnaryReply* reply,
                                   absl::StatusOr<Caller> caller)
    : state_(state),
      request_(request),
      reply_(reply),
      log_(state->metrics, "StepUnary", context),
      caller_(std::move(caller)) {
  ApplyDeadline(*context, &cancellation_);
  if (caller_.ok()) log_.set_tenant(caller_->tenant);
}

void StepUnaryReactor::Start() {
  absl::Status status = caller_.status();
  if (status.ok()) {
    state_->metrics->ReceivedBytes(
        static_cast<int64_t>(request_->ByteSizeLong()));
    status = Prepare();
  }
  if (!status.ok()) {
    Reply(status);
    return;
  }
  queued_.Reset();
  absl::Status submitted = state_->jobs->Submit([this] { Reply(Run()); });
  if (!submitted.ok()) Reply(submitted);
}

void StepUnaryReactor::OnDone() { state_->reactors->Drop(this); }

absl::Status StepUnaryReactor::Prepare() {
  const v1::StepHeader& header = request_->header();
  absl::StatusOr<CacheEntry> entry = OpenStep(*state_, *caller_, log_, header);
  if (!entry.ok()) return entry.status();
  const int64_t n = entry->matrix->rows;
  const int64_t nnz = entry->matrix->nnz();
  work_.values.resize(header.new_values() ? nnz : 0);
  if (absl::Status s = TakeValues(View(request_->values()), "value", "values",
                                  "nnz", work_.values);
      !s.ok()) {
    return s;
  }
  work_.diagonal.resize(header.diagonal_shift() ? n : 0);
  if (absl::Status s = TakeValues(View(request_->diagonal()), "diagonal entry",
                                  "diagonal entries", "n", work_.diagonal);
      !s.ok()) {
    return s;
  }
  const int64_t count = header.rhs_count();
  if (request_->rhs_size() != count * n) {
    return InvalidRequest(
        "rhs",
        absl::StrCat(request_->rhs_size(), " right-hand-side entries; ", count,
                     " right-hand sides of n = ", n, " need ", count * n));
  }
  work_.rhs.resize(count);
  for (int64_t r = 0; r < count; ++r) {
    const double* b = request_->rhs().data() + r * n;
    for (int64_t i = 0; i < n; ++i) {
      if (!std::isfinite(b[i])) {
        return InvalidRequest("rhs", absl::StrCat("right-hand side ", r,
                                                  " entry ", i, " is ", b[i]));
      }
    }
    work_.rhs[r].assign(b, b + n);
  }
  work_.header = header;
  work_.entry = *std::move(entry);
  work_.bytes_received = static_cast<int64_t>(request_->ByteSizeLong());
  return absl::OkStatus();
}

absl::Status StepUnaryReactor::Run() {
  work_.queue_s = queued_.Seconds();
  absl::StatusOr<StepOutcome> outcome =
      RunStep(*state_, *caller_, std::move(work_), cancellation_);
  if (!outcome.ok()) return outcome.status();
  *reply_->mutable_factorization() = std::move(outcome->factorization);
  for (size_t r = 0; r < outcome->solutions.size(); ++r) {
    const StepSolution& solution = outcome->solutions[r];
    v1::SolveReply* reply = reply_->add_solutions();
    reply->set_rhs_index(static_cast<uint32_t>(r));
    reply->mutable_values()->Add(solution.x.begin(), solution.x.end());
    reply->set_last(true);
    SolveReportToProto(solution.report, reply);
  }
  return absl::OkStatus();
}

void StepUnaryReactor::Reply(const absl::Status& status) {
  grpc::Status out = ToGrpcStatus(status);
  if (caller_.ok()) caller_->slot.Reset();  // free before the reply
  log_.Finish(out);
  Finish(std::move(out));
}

}  // namespace factord::server
