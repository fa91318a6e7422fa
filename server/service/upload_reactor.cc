#include "server/service/upload_reactor.h"

#include <memory>
#include <utility>

#include "server/error_reason.h"
#include "server/service/convert.h"
#include "server/service/request_opening.h"
#include "server/service/status_mapping.h"

namespace factord::server {

UploadReactor::UploadReactor(const ServiceState* state,
                             grpc::CallbackServerContext* context,
                             v1::MatrixInfo* reply,
                             absl::StatusOr<Caller> caller)
    : state_(state),
      context_(context),
      reply_(reply),
      log_(state->metrics, "UploadMatrix", context),
      caller_(std::move(caller)),
      upload_(&state->config) {
  if (caller_.ok()) log_.set_tenant(caller_->tenant);
}

void UploadReactor::Start() {
  if (!caller_.ok()) {
    Reply(caller_.status());
    return;
  }
  StartRead(&request_);
}

void UploadReactor::OnReadDone(bool ok) {
  if (ok) {
    const int64_t bytes = static_cast<int64_t>(request_.ByteSizeLong());
    bytes_received_ += bytes;
    state_->metrics->ReceivedBytes(bytes);
    const bool had_header = upload_.has_header();
    absl::Status consumed = CheckMessageSize(*state_, request_.ByteSizeLong());
    if (consumed.ok()) consumed = upload_.Consume(request_);
    if (!had_header && upload_.has_header()) log_.set_matrix_id(upload_.id());
    request_.Clear();
    if (!consumed.ok()) {
      Reply(consumed);  // the partial matrix dies with the reactor
      return;
    }
    StartRead(&request_);
    return;
  }
  if (context_->IsCancelled()) {
    Reply(
        absl::CancelledError("the upload was cancelled (client cancel, "
                             "deadline, or server shutdown)"));
    return;
  }
  absl::Status submitted =
      state_->assembly->Submit([this] { Reply(Complete()); });
  if (!submitted.ok()) Reply(submitted);
}

void UploadReactor::OnDone() { state_->reactors->Drop(this); }

absl::Status UploadReactor::Complete() {
  absl::StatusOr<CsrMatrix> assembled = upload_.Finish();
  if (!assembled.ok()) return assembled.status();
  auto matrix = std::make_shared<const CsrMatrix>(*std::move(assembled));
  const uint64_t hash = PatternHash(*matrix);
  absl::StatusOr<CacheEntry> stored =
      state_->cache->InsertMatrix(caller_->Key(upload_.id()), matrix, hash,
                                  bytes_received_, upload_.replace());
  if (!stored.ok()) return stored.status();
  CacheEntryToProto(*stored, reply_);
  return absl::OkStatus();
}

void UploadReactor::Reply(const absl::Status& status) {
  // What core's assembly and validation refuse is the matrix itself.
  absl::Status tagged = status;
  if (status.code() == absl::StatusCode::kInvalidArgument) {
    tagged = WithDefaultReason(status, v1::INVALID_MATRIX);
  } else if (status.code() == absl::StatusCode::kResourceExhausted) {
    tagged = WithDefaultReason(status, v1::MATRIX_TOO_LARGE);
  }
  grpc::Status out = ToGrpcStatus(tagged);
  if (caller_.ok()) caller_->slot.Reset();  // free before the reply
  log_.Finish(out);
  Finish(std::move(out));
}

}  // namespace factord::server
