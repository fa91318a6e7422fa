// Step: one interior-point iteration in one round trip. The client streams
// a header (matrix ID, expected generation, method, options, the number of
// right-hand sides), then the new values, an optional per-entry diagonal
// shift and the right-hand sides in chunks, and half-closes. One job on the
// worker pool then applies the values (checked against the expected
// generation, so a retried Step is applied at most once), factorizes
// (reusing the cached analysis), and solves every right-hand side; the
// replies stream back: the factorization's report first, then each
// solution's chunks, the last carrying its report.
//
// Phases never overlap: reads (gRPC threads, one at a time), then the job
// (a worker), then writes (one in flight at a time); a cancel or the
// deadline flips the job's Cancellation.
#ifndef FACTORD_SERVER_SERVICE_STEP_REACTOR_H_
#define FACTORD_SERVER_SERVICE_STEP_REACTOR_H_

#include <cstdint>
#include <deque>
#include <vector>

#include "absl/status/status.h"
#include "core/base/cancellation.h"
#include "core/base/timer.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/support/server_callback.h"
#include "server/cache/factor_cache.h"
#include "server/service/admission.h"
#include "server/service/request_log.h"
#include "server/service/service_state.h"

namespace factord::server {

class StepReactor
    : public grpc::ServerBidiReactor<v1::StepRequest, v1::StepReply> {
 public:
  // `state` and `context` are not owned and outlive the reactor. A refused
  // `caller` (Admit's error) finishes the RPC at Start.
  StepReactor(const ServiceState* state, grpc::CallbackServerContext* context,
              absl::StatusOr<Caller> caller);
  void Start();  // call once, after the reactor is owned by LiveReactors

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override { cancellation_.Cancel(); }
  void OnDone() override;

 private:
  struct Rhs {
    std::vector<double> b;
    int64_t received = 0;
    bool complete = false;
  };

  absl::Status Consume(const v1::StepRequest& request);
  absl::Status ConsumeHeader(const v1::StepHeader& header);
  absl::Status ConsumeRhs(const v1::RhsChunk& chunk);
  absl::Status CheckComplete() const;
  absl::Status Run();  // on a worker: values, factorize, solves
  void WriteNext();
  void End(const absl::Status& status);

  const ServiceState* const state_;
  grpc::CallbackServerContext* const context_;
  RequestLog log_;
  absl::StatusOr<Caller> caller_;
  Cancellation cancellation_;
  Timer queued_;

  // Filled by the reads, then used by the job.
  v1::StepRequest request_;
  bool has_header_ = false;
  v1::StepHeader header_;
  CacheEntry entry_;  // as looked up at the header
  std::vector<double> values_;
  int64_t values_received_ = 0;
  std::vector<double> diagonal_;
  int64_t diagonal_received_ = 0;
  std::vector<Rhs> rhs_;
  int64_t bytes_received_ = 0;

  // Filled by the job, drained by the writes.
  std::deque<v1::StepReply> replies_;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_STEP_REACTOR_H_
