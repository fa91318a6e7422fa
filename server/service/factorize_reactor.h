// Factorize: a unary RPC whose work runs on the worker pool (never on a
// gRPC thread); the worker finishes the reactor. A client cancel or the
// deadline flips the job's Cancellation, which the core checks in its loops.
#ifndef FACTORD_SERVER_SERVICE_FACTORIZE_REACTOR_H_
#define FACTORD_SERVER_SERVICE_FACTORIZE_REACTOR_H_

#include "absl/status/status.h"
#include "core/base/cancellation.h"
#include "core/base/timer.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/support/server_callback.h"
#include "server/service/admission.h"
#include "server/service/request_log.h"
#include "server/service/service_state.h"

namespace factord::server {

class FactorizeReactor : public grpc::ServerUnaryReactor {
 public:
  // None of the pointers is owned; all outlive the reactor. A refused
  // `caller` (Admit's error) finishes the RPC at Start.
  FactorizeReactor(const ServiceState* state,
                   grpc::CallbackServerContext* context,
                   const v1::FactorizeRequest* request,
                   v1::FactorizeReply* reply, absl::StatusOr<Caller> caller);
  void Start();  // call once, after the reactor is owned by LiveReactors

  void OnCancel() override { cancellation_.Cancel(); }
  void OnDone() override;

 private:
  absl::Status Run();  // on a worker
  void Reply(const absl::Status& status);

  const ServiceState* const state_;
  const v1::FactorizeRequest* const request_;
  v1::FactorizeReply* const reply_;
  Cancellation cancellation_;
  RequestLog log_;
  absl::StatusOr<Caller> caller_;
  Timer queued_;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_FACTORIZE_REACTOR_H_
