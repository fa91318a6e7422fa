#include "server/service/solve_reactor.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "server/error_reason.h"
#include "server/service/cached_work.h"
#include "server/service/convert.h"
#include "server/service/request_opening.h"
#include "server/service/status_mapping.h"
#include "server/service/streamed_values.h"

namespace factord::server {
SolveReactor::SolveReactor(const ServiceState* state,
                           grpc::CallbackServerContext* context,
                           absl::StatusOr<Caller> caller)
    : state_(state),
      context_(context),
      log_(state->metrics, "Solve", context),
      caller_(std::move(caller)),
      reply_chunk_(ReplyChunkDoubles(state->config.max_message_bytes)) {
  ApplyDeadline(*context, &cancellation_);
  if (caller_.ok()) log_.set_tenant(caller_->tenant);
}

void SolveReactor::Start() {
  if (caller_.ok()) {
    StartRead(&request_);
    return;
  }
  Step step;
  {
    absl::MutexLock lock(&mu_);
    Fail(caller_.status());
    step = NextStep();
  }
  Perform(std::move(step));
}

void SolveReactor::OnReadDone(bool ok) {
  Step step;
  {
    absl::MutexLock lock(&mu_);
    if (!ok) {
      reads_done_ = true;
      if (context_->IsCancelled()) {
        Fail(absl::CancelledError(
            "the solve was cancelled (client cancel, deadline, or server "
            "shutdown)"));
      }
    } else if (!finished_ && error_.ok()) {
      absl::Status s = CheckMessageSize(*state_, request_.ByteSizeLong());
      if (s.ok()) s = Consume(request_);
      if (!s.ok()) {
        Fail(std::move(s));
      } else {
        PumpJobs();
      }
    }
    step = NextStep();
    // Keep reading until the client half-closes or the stream failed.
    step.read = ok && error_.ok() && !step.finish;
  }
  Perform(std::move(step));
}

void SolveReactor::OnWriteDone(bool ok) {
  Step step;
  {
    absl::MutexLock lock(&mu_);
    write_in_flight_ = false;
    writes_.pop_front();
    if (!ok) Fail(absl::CancelledError("the client stopped reading replies"));
    step = NextStep();
  }
  Perform(std::move(step));
}

void SolveReactor::OnCancel() {
  cancellation_.Cancel();
  Step step;
  {
    absl::MutexLock lock(&mu_);
    Fail(
        absl::CancelledError("the solve was cancelled (client cancel, "
                             "deadline, or server shutdown)"));
    step = NextStep();
  }
  Perform(std::move(step));
}

void SolveReactor::OnDone() { state_->reactors->Drop(this); }

absl::Status SolveReactor::Open(const v1::SolveRequest& request) {
  absl::StatusOr<CacheEntry> entry =
      OpenMatrix(*state_, *caller_, log_, request.id(), "id");
  if (!entry.ok()) return entry.status();
  // Checked for the method of the factorization they will solve with.
  absl::StatusOr<SolveOptions> options = SolveOptionsFromProto(
      request.options(),
      entry->factorization != nullptr ? entry->method : Method::kAuto);
  if (!options.ok()) return options.status();
  options_ = *options;
  if (absl::Status s =
          CheckSolvable(*entry, request.id(), request.expected_generation());
      !s.ok()) {
    return s;
  }
  entry_ = *std::move(entry);
  opened_ = true;
  return absl::OkStatus();
}

absl::Status SolveReactor::Consume(const v1::SolveRequest& request) {
  if (!opened_) {
    if (absl::Status s = Open(request); !s.ok()) return s;
  } else if (!request.id().empty() && request.id() != entry_.id) {
    return absl::InvalidArgumentError(
        absl::StrCat("one Solve stream serves one matrix: got id '",
                     request.id(), "' after '", entry_.id, "'"));
  }
  if (request.values_size() == 0 && !request.last()) return absl::OkStatus();

  const uint32_t index = request.rhs_index();
  const int64_t n = entry_.matrix->rows;
  if (seen_.contains(index)) {
    return absl::InvalidArgumentError(
        absl::StrCat("right-hand side ", index, " was already sent complete"));
  }
  auto it = partial_.find(index);
  if (it == partial_.end()) {
    if (static_cast<int64_t>(partial_.size() + ready_.size()) >=
        kMaxPendingRhs) {
      return QueueFull(absl::StrCat(
          "more than ", kMaxPendingRhs,
          " right-hand sides pending in one Solve stream (limit "
          "kMaxPendingRhs); wait for solutions before sending more"));
    }
    it = partial_.emplace(index, PartialRhs{}).first;
    it->second.b.resize(n);
  }
  PartialRhs& rhs = it->second;
  const int64_t count = request.values_size();
  if (request.offset() != rhs.received) {
    return absl::InvalidArgumentError(absl::StrCat(
        "right-hand side ", index, ": chunk at offset ", request.offset(),
        ", expected offset ", rhs.received, " (chunks must be consecutive)"));
  }
  if (count > n - rhs.received) {
    return absl::InvalidArgumentError(
        absl::StrCat("right-hand side ", index, ": chunk [", request.offset(),
                     ", ", request.offset() + count, ") runs past n = ", n));
  }
  for (int64_t k = 0; k < count; ++k) {
    const double v = request.values(static_cast<int>(k));
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "right-hand side ", index, " entry ", rhs.received + k, " is ", v));
    }
    rhs.b[rhs.received + k] = v;
  }
  rhs.received += count;
  if (!request.last()) return absl::OkStatus();
  if (rhs.received != n) {
    return absl::InvalidArgumentError(absl::StrCat("right-hand side ", index,
                                                   " ended with ", rhs.received,
                                                   " of n = ", n, " entries"));
  }
  ReadyRhs ready;
  ready.index = index;
  ready.b = std::move(rhs.b);
  partial_.erase(it);
  seen_.insert(index);
  ready_.push_back(std::move(ready));
  return absl::OkStatus();
}

void SolveReactor::PumpJobs() {
  const int limit = std::max(1, state_->jobs->workers());
  while (error_.ok() && !ready_.empty() && jobs_running_ < limit) {
    ReadyRhs rhs = std::move(ready_.front());
    ready_.pop_front();
    ++jobs_running_;
    // The job holds the right-hand side; the reactor outlives it because
    // Finish waits for jobs_running_ == 0.
    auto job = [this, rhs = std::move(rhs)]() mutable {
      RunSolve(std::move(rhs));
    };
    if (absl::Status s = state_->jobs->Submit(std::move(job)); !s.ok()) {
      --jobs_running_;
      Fail(std::move(s));
    }
  }
}

void SolveReactor::RunSolve(ReadyRhs rhs) {
  const double queue_s = rhs.queued.Seconds();
  const CsrMatrix* matrix;
  const Factorization* factorization;
  SolveOptions options;
  bool deterministic;
  Method method;
  {
    absl::MutexLock lock(&mu_);
    method = entry_.method;
    matrix = entry_.matrix.get();
    factorization = entry_.factorization.get();
    options = options_;
    deterministic = entry_.deterministic;
  }
  const int64_t n = matrix->rows;
  std::vector<double> x(n, 0.0);
  SolveReport report;
  absl::Status status = cancellation_.Check();
  absl::StatusOr<std::unique_ptr<DeviceContext>> device = nullptr;
  if (status.ok()) {
    device = state_->MakeDevice();
    status = device.status();
  }
  if (status.ok()) {
    const ExecContext ctx =
        state_->MakeContext(deterministic, &cancellation_, device->get());
    Timer timer;
    status = factorization->Solve(rhs.b, x, options, ctx, &report);
    if (status.code() == absl::StatusCode::kInvalidArgument) {
      // The Krylov method or solve options do not fit this factorization.
      status = WithBadField(WithDefaultReason(status, v1::INVALID_OPTION),
                            "options.krylov");
    }
    if (report.solve_s == 0) report.solve_s = timer.Seconds();
  }
  std::vector<v1::SolveReply> replies;
  if (status.ok()) {
    state_->metrics->ObserveSolve(MethodName(method), state_->backend_name,
                                  report.solve_s, report.iterations,
                                  report.relative_residual);
    for (int64_t offset = 0; offset < n; offset += reply_chunk_) {
      const int64_t end = std::min(n, offset + reply_chunk_);
      v1::SolveReply& reply = replies.emplace_back();
      reply.set_rhs_index(rhs.index);
      reply.set_offset(offset);
      reply.mutable_values()->Add(x.begin() + offset, x.begin() + end);
      if (end == n) {
        reply.set_last(true);
        SolveReportToProto(report, &reply);
        reply.mutable_timings()->set_queue_s(queue_s);
      }
    }
  }
  Step step;
  {
    absl::MutexLock lock(&mu_);
    --jobs_running_;
    if (!status.ok()) {
      Fail(std::move(status));
    } else if (error_.ok()) {
      for (v1::SolveReply& reply : replies) writes_.push_back(std::move(reply));
    }
    PumpJobs();
    step = NextStep();
  }
  Perform(std::move(step));
}

void SolveReactor::Fail(absl::Status status) {
  if (!error_.ok() || finished_) return;
  error_ = std::move(status);
  cancellation_.Cancel();  // stop the other solves of this stream
  ready_.clear();
  partial_.clear();
  // Replies not yet started are dropped; the one in flight must finish.
  while (writes_.size() > (write_in_flight_ ? 1u : 0u)) writes_.pop_back();
}

SolveReactor::Step SolveReactor::NextStep() {
  Step step;
  if (finished_) return step;
  if (!write_in_flight_ && !writes_.empty() && error_.ok()) {
    write_in_flight_ = true;
    step.write = &writes_.front();
    return step;
  }
  if (write_in_flight_ || jobs_running_ > 0) return step;
  const bool done =
      !error_.ok() || (reads_done_ && ready_.empty() && writes_.empty());
  if (done) {
    if (error_.ok() && !opened_) {
      // The client half-closed without naming a matrix or sending anything.
      error_ = absl::InvalidArgumentError("empty Solve stream");
    }
    if (error_.ok() && !partial_.empty()) {
      error_ = absl::InvalidArgumentError(
          absl::StrCat(partial_.size(),
                       " right-hand side(s) were not completed (last = true)"));
    }
    finished_ = true;
    step.finish = true;
    step.status = error_;
  }
  return step;
}

void SolveReactor::Perform(Step step) {
  if (step.read) StartRead(&request_);
  if (step.write != nullptr) StartWrite(step.write);
  if (step.finish) {
    grpc::Status status = ToGrpcStatus(step.status);
    if (caller_.ok()) caller_->slot.Reset();  // free before the reply
    log_.Finish(status);
    Finish(std::move(status));
  }
}

}  // namespace factord::server
