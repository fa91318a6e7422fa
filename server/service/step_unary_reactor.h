// StepUnary: the interior-point Step in one message each way (step_job.h),
// for systems whose request fits in one message. The checks of the request
// happen on the gRPC thread, the job on the worker pool, which finishes the
// reactor with the whole reply.
#ifndef FACTORD_SERVER_SERVICE_STEP_UNARY_REACTOR_H_
#define FACTORD_SERVER_SERVICE_STEP_UNARY_REACTOR_H_

#include "absl/status/status.h"
#include "core/base/cancellation.h"
#include "core/base/timer.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/support/server_callback.h"
#include "server/service/admission.h"
#include "server/service/request_log.h"
#include "server/service/service_state.h"
#include "server/service/step_job.h"

namespace factord::server {

class StepUnaryReactor : public grpc::ServerUnaryReactor {
 public:
  // None of the pointers is owned; all outlive the reactor. A refused
  // `caller` (Admit's error) finishes the RPC at Start.
  StepUnaryReactor(const ServiceState* state,
                   grpc::CallbackServerContext* context,
                   const v1::StepUnaryRequest* request,
                   v1::StepUnaryReply* reply, absl::StatusOr<Caller> caller);
  void Start();  // call once, after the reactor is owned by LiveReactors

  void OnCancel() override { cancellation_.Cancel(); }
  void OnDone() override;

 private:
  // The request's arrays checked and moved into `work_`.
  absl::Status Prepare();
  absl::Status Run();  // on a worker
  void Reply(const absl::Status& status);

  const ServiceState* const state_;
  const v1::StepUnaryRequest* const request_;
  v1::StepUnaryReply* const reply_;
  Cancellation cancellation_;
  RequestLog log_;
  absl::StatusOr<Caller> caller_;
  Timer queued_;
  StepWork work_;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_STEP_UNARY_REACTOR_H_
