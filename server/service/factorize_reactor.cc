#include "server/service/factorize_reactor.h"

#include <utility>

#include "server/service/convert.h"
#include "server/service/factorize_job.h"
#include "server/service/request_opening.h"
#include "server/service/status_mapping.h"

namespace factord::server {

FactorizeReactor::FactorizeReactor(const ServiceState* state,
                                   grpc::CallbackServerContext* context,
                                   const v1::FactorizeRequest* request,
                                   v1::FactorizeReply* reply,
                                   absl::StatusOr<Caller> caller)
    : state_(state),
      request_(request),
      reply_(reply),
      log_(state->metrics, "Factorize", context),
      caller_(std::move(caller)) {
  ApplyDeadline(*context, &cancellation_);
  log_.set_matrix_id(request->id());
  if (caller_.ok()) log_.set_tenant(caller_->tenant);
}

void FactorizeReactor::Start() {
  if (!caller_.ok()) {
    Reply(caller_.status());
    return;
  }
  if (absl::Status s = CheckMatrixId(request_->id(), "id"); !s.ok()) {
    Reply(s);
    return;
  }
  queued_.Reset();
  absl::Status submitted = state_->jobs->Submit([this] { Reply(Run()); });
  if (!submitted.ok()) Reply(submitted);
}

void FactorizeReactor::OnDone() { state_->reactors->Drop(this); }

absl::Status FactorizeReactor::Run() {
  const double queue_s = queued_.Seconds();
  if (absl::Status s = cancellation_.Check(); !s.ok()) return s;
  absl::StatusOr<FactorOptions> options =
      FactorOptionsFromProto(request_->method(), request_->options());
  if (!options.ok()) return options.status();
  absl::StatusOr<FactorizeOutcome> outcome =
      RunFactorize(*state_, caller_->Key(request_->id()), *options,
                   request_->options().deterministic(),
                   request_->expected_generation(), cancellation_);
  if (!outcome.ok()) return outcome.status();
  reply_->set_id(request_->id());
  FactorReportToProto(outcome->report, outcome->method, reply_);
  reply_->set_generation(outcome->entry.factorized_generation);
  reply_->mutable_timings()->set_queue_s(queue_s);
  return absl::OkStatus();
}

void FactorizeReactor::Reply(const absl::Status& status) {
  grpc::Status out = ToGrpcStatus(status);
  if (caller_.ok()) caller_->slot.Reset();  // free before the reply
  log_.Finish(out);
  Finish(std::move(out));
}

}  // namespace factord::server
