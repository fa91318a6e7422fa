// UpdateValues: a client stream naming a matrix, then its new values in
// stored-entry (CSR) order. The new matrix (same pattern, new values)
// replaces the old one and marks its factorization stale; the next
// Factorize reuses the analysis. Nothing changes unless exactly nnz finite
// values arrive (and the matrix is still at the generation the first
// message expected, if it named one); a client that disconnects leaves no
// trace.
#ifndef FACTORD_SERVER_SERVICE_UPDATE_VALUES_REACTOR_H_
#define FACTORD_SERVER_SERVICE_UPDATE_VALUES_REACTOR_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/support/server_callback.h"
#include "server/cache/factor_cache.h"
#include "server/service/admission.h"
#include "server/service/request_log.h"
#include "server/service/service_state.h"

namespace factord::server {

class UpdateValuesReactor
    : public grpc::ServerReadReactor<v1::UpdateValuesRequest> {
 public:
  // None of the pointers is owned; all outlive the reactor. A refused
  // `caller` (Admit's error) finishes the RPC at Start.
  UpdateValuesReactor(const ServiceState* state,
                      grpc::CallbackServerContext* context,
                      v1::MatrixInfo* reply, absl::StatusOr<Caller> caller);
  void Start();  // call once, after the reactor is owned by LiveReactors

  void OnReadDone(bool ok) override;
  void OnCancel() override {}
  void OnDone() override;

 private:
  absl::Status Consume(const v1::UpdateValuesRequest& request);
  absl::Status Complete();  // on the assembly pool
  void Reply(const absl::Status& status);

  const ServiceState* const state_;
  grpc::CallbackServerContext* const context_;
  v1::MatrixInfo* const reply_;
  RequestLog log_;
  absl::StatusOr<Caller> caller_;

  // Touched by one read callback at a time, then by the completion job.
  v1::UpdateValuesRequest request_;
  bool opened_ = false;
  uint64_t expected_generation_ = 0;  // 0: no check
  CacheEntry entry_;
  std::vector<double> values_;
  int64_t received_ = 0;
  int64_t bytes_received_ = 0;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_UPDATE_VALUES_REACTOR_H_
