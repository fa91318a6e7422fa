#include "server/service/update_values_reactor.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "server/error_reason.h"
#include "server/service/convert.h"
#include "server/service/request_opening.h"
#include "server/service/status_mapping.h"
#include "server/service/streamed_values.h"

namespace factord::server {

UpdateValuesReactor::UpdateValuesReactor(const ServiceState* state,
                                         grpc::CallbackServerContext* context,
                                         v1::MatrixInfo* reply,
                                         absl::StatusOr<Caller> caller)
    : state_(state),
      context_(context),
      reply_(reply),
      log_(state->metrics, "UpdateValues", context),
      caller_(std::move(caller)) {
  if (caller_.ok()) log_.set_tenant(caller_->tenant);
}

void UpdateValuesReactor::Start() {
  if (!caller_.ok()) {
    Reply(caller_.status());
    return;
  }
  StartRead(&request_);
}

void UpdateValuesReactor::OnReadDone(bool ok) {
  if (ok) {
    const size_t bytes = request_.ByteSizeLong();
    bytes_received_ += static_cast<int64_t>(bytes);
    absl::Status s = CheckMessageSize(*state_, bytes);
    if (s.ok()) s = Consume(request_);
    if (!s.ok()) {
      Reply(s);  // the values received so far die with the reactor
      return;
    }
    StartRead(&request_);
    return;
  }
  if (context_->IsCancelled()) {
    Reply(
        absl::CancelledError("the update was cancelled (client cancel, "
                             "deadline, or server shutdown)"));
    return;
  }
  state_->metrics->ReceivedBytes(bytes_received_);
  absl::Status submitted =
      state_->assembly->Submit([this] { Reply(Complete()); });
  if (!submitted.ok()) Reply(submitted);
}

void UpdateValuesReactor::OnDone() { state_->reactors->Drop(this); }

absl::Status UpdateValuesReactor::Consume(
    const v1::UpdateValuesRequest& request) {
  if (!opened_) {
    absl::StatusOr<CacheEntry> entry =
        OpenMatrix(*state_, *caller_, log_, request.id(), "id");
    if (!entry.ok()) return entry.status();
    // Checked again, atomically, when the values are applied; failing here
    // spares the client sending values that cannot be applied.
    if (absl::Status s = CheckGeneration(
            request.id(), request.expected_generation(), entry->generation);
        !s.ok()) {
      return s;
    }
    expected_generation_ = request.expected_generation();
    entry_ = *std::move(entry);
    values_.resize(entry_.matrix->nnz());
    opened_ = true;
  } else if (!request.id().empty() && request.id() != entry_.id) {
    return InvalidRequest(
        "id", absl::StrCat("one UpdateValues stream updates one matrix: got "
                           "id '",
                           request.id(), "' after '", entry_.id, "'"));
  }
  return AppendFiniteValues(
      std::span<const double>(request.values().data(),
                              static_cast<size_t>(request.values_size())),
      "value", "values", "nnz", values_, received_);
}

absl::Status UpdateValuesReactor::Complete() {
  if (!opened_) {
    return InvalidRequest("id", "empty UpdateValues stream (no id)");
  }
  const int64_t nnz = static_cast<int64_t>(values_.size());
  if (received_ != nnz) {
    return WithReason(absl::InvalidArgumentError(
                          absl::StrCat("the stream ended after ", received_,
                                       " values; the matrix has nnz = ", nnz)),
                      v1::INVALID_MATRIX);
  }
  std::shared_ptr<CsrMatrix> matrix =
      WithNewValues(*entry_.matrix, std::move(values_));
  absl::StatusOr<CacheEntry> updated = state_->cache->ReplaceValues(
      caller_->Key(entry_.id), std::move(matrix), entry_.pattern_hash,
      bytes_received_, expected_generation_);
  if (!updated.ok()) return updated.status();
  CacheEntryToProto(*updated, reply_);
  return absl::OkStatus();
}

void UpdateValuesReactor::Reply(const absl::Status& status) {
  grpc::Status out = ToGrpcStatus(status);
  if (caller_.ok()) caller_->slot.Reset();  // free before the reply
  log_.Finish(out);
  Finish(std::move(out));
}

}  // namespace factord::server
