// UploadMatrix: a client stream of a header and CSR or COO chunks. Chunks
// are checked as they arrive (the first bad one ends the RPC); once the
// client half-closes, assembly and validation run on the assembly pool and
// the matrix enters the factor cache. A failed or abandoned upload frees its
// partial matrix with the reactor.
#ifndef FACTORD_SERVER_SERVICE_UPLOAD_REACTOR_H_
#define FACTORD_SERVER_SERVICE_UPLOAD_REACTOR_H_

#include <cstdint>

#include "absl/status/status.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/support/server_callback.h"
#include "server/service/admission.h"
#include "server/service/matrix_upload.h"
#include "server/service/request_log.h"
#include "server/service/service_state.h"

namespace factord::server {

class UploadReactor : public grpc::ServerReadReactor<v1::UploadRequest> {
 public:
  // None of the pointers is owned; all outlive the reactor. A refused
  // `caller` (Admit's error) finishes the RPC at Start.
  UploadReactor(const ServiceState* state, grpc::CallbackServerContext* context,
                v1::MatrixInfo* reply, absl::StatusOr<Caller> caller);
  void Start();  // call once, after the reactor is owned by LiveReactors

  void OnReadDone(bool ok) override;
  void OnCancel() override {}
  void OnDone() override;

 private:
  absl::Status Complete();  // on the assembly pool
  void Reply(const absl::Status& status);

  const ServiceState* const state_;
  grpc::CallbackServerContext* const context_;
  v1::MatrixInfo* const reply_;
  RequestLog log_;
  absl::StatusOr<Caller> caller_;
  // Touched by one read callback at a time, then by the completion job.
  v1::UploadRequest request_;
  MatrixUpload upload_;
  int64_t bytes_received_ = 0;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_UPLOAD_REACTOR_H_
