#include "server/service/step_reactor.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "server/error_reason.h"
#include "server/service/convert.h"
#include "server/service/request_opening.h"
#include "server/service/status_mapping.h"
#include "server/service/step_job.h"
#include "server/service/streamed_values.h"

namespace factord::server {
namespace {

// A ValuesChunk's values.
std::span<const double> Values(const v1::ValuesChunk& chunk) {
  return {chunk.values().data(), static_cast<size_t>(chunk.values_size())};
}

absl::Status BadValues(std::string message) {
  return WithReason(absl::InvalidArgumentError(std::move(message)),
                    v1::INVALID_MATRIX);
}

}  // namespace

StepReactor::StepReactor(const ServiceState* state,
                         grpc::CallbackServerContext* context,
                         absl::StatusOr<Caller> caller)
    : state_(state),
      context_(context),
      log_(state->metrics, "Step", context),
      caller_(std::move(caller)) {
  ApplyDeadline(*context, &cancellation_);
  if (caller_.ok()) log_.set_tenant(caller_->tenant);
}

void StepReactor::Start() {
  if (!caller_.ok()) {
    End(caller_.status());
    return;
  }
  StartRead(&request_);
}

void StepReactor::OnReadDone(bool ok) {
  if (ok) {
    const size_t bytes = request_.ByteSizeLong();
    bytes_received_ += static_cast<int64_t>(bytes);
    state_->metrics->ReceivedBytes(static_cast<int64_t>(bytes));
    absl::Status s = CheckMessageSize(*state_, bytes);
    if (s.ok()) s = Consume(request_);
    request_.Clear();
    if (!s.ok()) {
      End(s);  // what was received dies with the reactor
      return;
    }
    StartRead(&request_);
    return;
  }
  if (context_->IsCancelled()) {
    End(absl::CancelledError(
        "the step was cancelled (client cancel, deadline, or server "
        "shutdown)"));
    return;
  }
  if (absl::Status s = CheckComplete(); !s.ok()) {
    End(s);
    return;
  }
  queued_.Reset();
  absl::Status submitted = state_->jobs->Submit([this] {
    absl::Status status = Run();
    if (!status.ok()) {
      End(status);
      return;
    }
    WriteNext();
  });
  if (!submitted.ok()) End(submitted);
}

void StepReactor::OnWriteDone(bool ok) {
  if (!ok) {
    End(absl::CancelledError("the client stopped reading replies"));
    return;
  }
  replies_.pop_front();
  WriteNext();
}

void StepReactor::OnDone() { state_->reactors->Drop(this); }

absl::Status StepReactor::Consume(const v1::StepRequest& request) {
  if (request.part_case() == v1::StepRequest::kHeader) {
    if (has_header_) return InvalidRequest("header", "a second Step header");
    return ConsumeHeader(request.header());
  }
  if (!has_header_) {
    return InvalidRequest("header", "a Step chunk before the header");
  }
  switch (request.part_case()) {
    case v1::StepRequest::kValues:
      if (!header_.new_values()) {
        return InvalidRequest("values",
                              "values sent but the header did not announce "
                              "new_values");
      }
      return AppendFiniteValues(Values(request.values()), "value", "values",
                                "nnz", values_, values_received_);
    case v1::StepRequest::kDiagonal:
      if (!header_.diagonal_shift()) {
        return InvalidRequest("diagonal",
                              "a diagonal sent but the header did not "
                              "announce diagonal_shift");
      }
      return AppendFiniteValues(Values(request.diagonal()), "diagonal entry",
                                "diagonal entries", "n", diagonal_,
                                diagonal_received_);
    case v1::StepRequest::kRhs:
      return ConsumeRhs(request.rhs());
    default:
      return InvalidRequest("", "a Step message with no part");
  }
}

absl::Status StepReactor::ConsumeHeader(const v1::StepHeader& header) {
  absl::StatusOr<CacheEntry> entry = OpenStep(*state_, *caller_, log_, header);
  if (!entry.ok()) return entry.status();
  header_ = header;
  entry_ = *std::move(entry);
  has_header_ = true;
  const int64_t n = entry_.matrix->rows;
  if (header.new_values()) values_.resize(entry_.matrix->nnz());
  if (header.diagonal_shift()) diagonal_.resize(n);
  rhs_.resize(header.rhs_count());
  for (Rhs& rhs : rhs_) rhs.b.resize(n);
  return absl::OkStatus();
}

absl::Status StepReactor::ConsumeRhs(const v1::RhsChunk& chunk) {
  if (chunk.rhs_index() >= rhs_.size()) {
    return InvalidRequest(
        "rhs.rhs_index",
        absl::StrCat("right-hand side ", chunk.rhs_index(),
                     " is outside the header's rhs_count = ", rhs_.size()));
  }
  Rhs& rhs = rhs_[chunk.rhs_index()];
  const int64_t n = static_cast<int64_t>(rhs.b.size());
  if (rhs.complete) {
    return InvalidRequest("rhs.rhs_index",
                          absl::StrCat("right-hand side ", chunk.rhs_index(),
                                       " was already sent complete"));
  }
  if (chunk.offset() != rhs.received) {
    return InvalidRequest(
        "rhs.offset",
        absl::StrCat("right-hand side ", chunk.rhs_index(),
                     ": chunk at offset ", chunk.offset(), ", expected offset ",
                     rhs.received, " (chunks must be consecutive)"));
  }
  const int64_t count = chunk.values_size();
  if (count > n - rhs.received) {
    return InvalidRequest(
        "rhs.values",
        absl::StrCat("right-hand side ", chunk.rhs_index(), ": chunk [",
                     chunk.offset(), ", ", chunk.offset() + count,
                     ") runs past n = ", n));
  }
  for (int64_t k = 0; k < count; ++k) {
    const double v = chunk.values(static_cast<int>(k));
    if (!std::isfinite(v)) {
      return InvalidRequest(
          "rhs.values", absl::StrCat("right-hand side ", chunk.rhs_index(),
                                     " entry ", rhs.received + k, " is ", v));
    }
    rhs.b[rhs.received + k] = v;
  }
  rhs.received += count;
  if (chunk.last()) {
    if (rhs.received != n) {
      return InvalidRequest(
          "rhs.last",
          absl::StrCat("right-hand side ", chunk.rhs_index(), " ended with ",
                       rhs.received, " of n = ", n, " entries"));
    }
    rhs.complete = true;
  }
  return absl::OkStatus();
}

absl::Status StepReactor::CheckComplete() const {
  if (!has_header_) return InvalidRequest("header", "empty Step stream");
  if (values_received_ != static_cast<int64_t>(values_.size())) {
    return BadValues(
        absl::StrCat("the step ended after ", values_received_,
                     " values; the matrix has nnz = ", values_.size()));
  }
  if (diagonal_received_ != static_cast<int64_t>(diagonal_.size())) {
    return BadValues(absl::StrCat(
        "the step ended after ", diagonal_received_,
        " diagonal entries; the matrix has n = ", diagonal_.size()));
  }
  for (size_t r = 0; r < rhs_.size(); ++r) {
    if (!rhs_[r].complete) {
      return InvalidRequest("rhs",
                            absl::StrCat("right-hand side ", r,
                                         " was not completed (last = true)"));
    }
  }
  return absl::OkStatus();
}

absl::Status StepReactor::Run() {
  StepWork work;
  work.header = header_;
  work.entry = entry_;
  work.values = std::move(values_);
  work.diagonal = std::move(diagonal_);
  work.rhs.reserve(rhs_.size());
  for (Rhs& rhs : rhs_) work.rhs.push_back(std::move(rhs.b));
  work.bytes_received = bytes_received_;
  work.queue_s = queued_.Seconds();
  absl::StatusOr<StepOutcome> outcome =
      RunStep(*state_, *caller_, std::move(work), cancellation_);
  if (!outcome.ok()) return outcome.status();
  *replies_.emplace_back().mutable_factorization() =
      std::move(outcome->factorization);
  const int64_t chunk = ReplyChunkDoubles(state_->config.max_message_bytes);
  for (size_t r = 0; r < outcome->solutions.size(); ++r) {
    const StepSolution& solution = outcome->solutions[r];
    const int64_t n = static_cast<int64_t>(solution.x.size());
    for (int64_t offset = 0; offset < n; offset += chunk) {
      const int64_t end = std::min(n, offset + chunk);
      v1::SolveReply* reply = replies_.emplace_back().mutable_solution();
      reply->set_rhs_index(static_cast<uint32_t>(r));
      reply->set_offset(offset);
      reply->mutable_values()->Add(solution.x.begin() + offset,
                                   solution.x.begin() + end);
      if (end == n) {
        reply->set_last(true);
        SolveReportToProto(solution.report, reply);
      }
    }
  }
  return absl::OkStatus();
}

void StepReactor::WriteNext() {
  if (replies_.empty()) {
    End(absl::OkStatus());
    return;
  }
  if (replies_.size() > 1) {
    StartWrite(&replies_.front());
    return;
  }
  // The last reply goes out with the status: one round less on the stream.
  if (caller_.ok()) caller_->slot.Reset();
  log_.Finish(grpc::Status::OK);
  StartWriteAndFinish(&replies_.front(), grpc::WriteOptions(),
                      grpc::Status::OK);
}

void StepReactor::End(const absl::Status& status) {
  grpc::Status out = ToGrpcStatus(status);
  if (caller_.ok()) caller_->slot.Reset();  // free before the reply
  log_.Finish(out);
  Finish(std::move(out));
}

}  // namespace factord::server
