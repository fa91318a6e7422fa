// Solve: a bidirectional stream. Requests carry chunks of many right-hand
// sides keyed by rhs_index; a complete right-hand side is solved on the
// worker pool; replies stream the solution in chunks per right-hand side,
// the last chunk carrying the report. Writes go through a queue with one
// write in flight at a time (the callback API allows no more).
//
// The factorization is looked up once, from the first message, and held for
// the whole stream: a refactorization or an eviction meanwhile does not
// disturb the solves in flight.
#ifndef FACTORD_SERVER_SERVICE_SOLVE_REACTOR_H_
#define FACTORD_SERVER_SERVICE_SOLVE_REACTOR_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "core/base/cancellation.h"
#include "core/base/timer.h"
#include "core/solver/options.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/support/server_callback.h"
#include "server/cache/factor_cache.h"
#include "server/service/admission.h"
#include "server/service/request_log.h"
#include "server/service/service_state.h"

namespace factord::server {

class SolveReactor
    : public grpc::ServerBidiReactor<v1::SolveRequest, v1::SolveReply> {
 public:
  // Right-hand sides received but not yet solved, per stream.
  static constexpr int kMaxPendingRhs = 256;

  // `state` and `context` are not owned and outlive the reactor. A refused
  // `caller` (Admit's error) finishes the RPC at Start.
  SolveReactor(const ServiceState* state, grpc::CallbackServerContext* context,
               absl::StatusOr<Caller> caller);
  // Starts reading; call once, after the reactor is owned by LiveReactors.
  void Start();

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  struct PartialRhs {
    std::vector<double> b;
    int64_t received = 0;
  };
  struct ReadyRhs {
    uint32_t index = 0;
    std::vector<double> b;
    Timer queued;  // since the last chunk arrived
  };
  // What to do on the stream once the lock is released.
  struct Step {
    const v1::SolveReply* write = nullptr;
    bool read = false;
    bool finish = false;
    absl::Status status;
  };

  absl::Status Consume(const v1::SolveRequest& request)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Open(const v1::SolveRequest& request)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PumpJobs() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Fail(absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  Step NextStep() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Performs `step`; the caller must not touch the reactor afterwards.
  void Perform(Step step);
  void RunSolve(ReadyRhs rhs);  // on a worker

  const ServiceState* const state_;
  grpc::CallbackServerContext* const context_;
  Cancellation cancellation_;
  RequestLog log_;
  absl::StatusOr<Caller> caller_;  // its slot is freed before the reply
  const int64_t reply_chunk_;      // doubles per reply message

  absl::Mutex mu_;
  v1::SolveRequest request_;  // the read buffer (one read in flight)
  bool opened_ ABSL_GUARDED_BY(mu_) = false;
  CacheEntry entry_ ABSL_GUARDED_BY(mu_);  // set by Open; immutable after
  SolveOptions options_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint32_t, PartialRhs> partial_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_set<uint32_t> seen_ ABSL_GUARDED_BY(mu_);  // completed
  std::deque<ReadyRhs> ready_ ABSL_GUARDED_BY(mu_);
  int jobs_running_ ABSL_GUARDED_BY(mu_) = 0;
  std::deque<v1::SolveReply> writes_ ABSL_GUARDED_BY(mu_);
  bool write_in_flight_ ABSL_GUARDED_BY(mu_) = false;
  bool reads_done_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status error_ ABSL_GUARDED_BY(mu_);
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_SOLVE_REACTOR_H_
