#include "server/service/solver_service.h"

#include <algorithm>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "server/service/admission.h"
#include "server/service/convert.h"
#include "server/service/factorize_reactor.h"
#include "server/service/request_log.h"
#include "server/service/solve_reactor.h"
#include "server/service/status_mapping.h"
#include "server/service/update_values_reactor.h"
#include "server/service/upload_reactor.h"

namespace factord::server {
namespace {

// Quick unary RPCs answer on the gRPC thread through the default reactor.
grpc::ServerUnaryReactor* FinishNow(grpc::CallbackServerContext* context,
                                    RequestLog& log,
                                    const absl::Status& status) {
  grpc::Status out = ToGrpcStatus(status);
  log.Finish(out);
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  reactor->Finish(std::move(out));
  return reactor;
}

}  // namespace

grpc::ServerReadReactor<v1::UploadRequest>* SolverService::UploadMatrix(
    grpc::CallbackServerContext* context, v1::MatrixInfo* reply) {
  auto* reactor = state_->reactors->Adopt(std::make_unique<UploadReactor>(
      state_, context, reply, Admit(*state_, *context)));
  reactor->Start();
  return reactor;
}

grpc::ServerReadReactor<v1::UpdateValuesRequest>* SolverService::UpdateValues(
    grpc::CallbackServerContext* context, v1::MatrixInfo* reply) {
  auto* reactor = state_->reactors->Adopt(std::make_unique<UpdateValuesReactor>(
      state_, context, reply, Admit(*state_, *context)));
  reactor->Start();
  return reactor;
}

grpc::ServerUnaryReactor* SolverService::Factorize(
    grpc::CallbackServerContext* context, const v1::FactorizeRequest* request,
    v1::FactorizeReply* reply) {
  auto* reactor = state_->reactors->Adopt(std::make_unique<FactorizeReactor>(
      state_, context, request, reply, Admit(*state_, *context)));
  reactor->Start();
  return reactor;
}

grpc::ServerBidiReactor<v1::SolveRequest, v1::SolveReply>* SolverService::Solve(
    grpc::CallbackServerContext* context) {
  auto* reactor = state_->reactors->Adopt(std::make_unique<SolveReactor>(
      state_, context, Admit(*state_, *context)));
  reactor->Start();
  return reactor;
}

grpc::ServerUnaryReactor* SolverService::Release(
    grpc::CallbackServerContext* context, const v1::ReleaseRequest* request,
    v1::ReleaseReply* reply) {
  RequestLog log(state_->metrics, "Release", context);
  log.set_matrix_id(request->id());
  absl::StatusOr<Caller> caller = Admit(*state_, *context);
  if (!caller.ok()) return FinishNow(context, log, caller.status());
  log.set_tenant(caller->tenant);
  absl::StatusOr<int64_t> freed =
      state_->cache->Release(caller->Key(request->id()));
  if (freed.ok()) reply->set_bytes_freed(*freed);
  caller->slot.Reset();
  return FinishNow(context, log, freed.status());
}

grpc::ServerUnaryReactor* SolverService::ListMatrices(
    grpc::CallbackServerContext* context, const v1::ListMatricesRequest*,
    v1::ListMatricesReply* reply) {
  RequestLog log(state_->metrics, "ListMatrices", context);
  absl::StatusOr<Caller> caller = Admit(*state_, *context);
  if (!caller.ok()) return FinishNow(context, log, caller.status());
  log.set_tenant(caller->tenant);
  for (const CacheEntry& entry : state_->cache->List(caller->tenant)) {
    CacheEntryToProto(entry, reply->add_matrices());
  }
  caller->slot.Reset();
  return FinishNow(context, log, absl::OkStatus());
}

grpc::ServerUnaryReactor* SolverService::ServerInfo(
    grpc::CallbackServerContext* context, const v1::ServerInfoRequest*,
    v1::ServerInfoReply* reply) {
  RequestLog log(state_->metrics, "ServerInfo", context);
  absl::StatusOr<Caller> caller = Admit(*state_, *context);
  if (!caller.ok()) return FinishNow(context, log, caller.status());
  log.set_tenant(caller->tenant);
  reply->set_version(FACTORD_VERSION);
  reply->set_backend(state_->backend_name);
  // "cuda: 1 CUDA device, device 0: <name>" or "host cpu: no CUDA device:
  // <runtime error>": the start-up choice and its reason.
  reply->set_device(absl::StrCat(
      state_->backend == Backend::kCuda ? "cuda" : "host cpu",
      state_->backend_reason.empty() ? "" : ": ", state_->backend_reason));
  // The caller's own use: other tenants' holdings are not its business.
  // Without authentication the one anonymous tenant holds everything.
  const int64_t quota = state_->cache->tenant_budget_bytes();
  reply->set_cache_bytes_used(state_->cache->tenant_bytes(caller->tenant));
  reply->set_cache_bytes_budget(
      quota > 0 ? std::min(quota, state_->cache->budget_bytes())
                : state_->cache->budget_bytes());
  reply->set_cache_entries(state_->cache->tenant_entries(caller->tenant));
  reply->set_max_n(state_->config.max_n);
  reply->set_max_nnz(state_->config.max_nnz);
  reply->set_max_message_bytes(state_->config.max_message_bytes);
  reply->set_threads(state_->threads);
  reply->set_workers(state_->jobs->workers());
  for (Method m :
       {Method::kAuto, Method::kNone, Method::kJacobi, Method::kBlockJacobi,
        Method::kLdlt, Method::kBlockIldlt, Method::kJacobiLdlt, Method::kIc,
        Method::kIlu, Method::kLu}) {
    reply->add_methods(std::string(MethodName(m)));
  }
  caller->slot.Reset();
  return FinishNow(context, log, absl::OkStatus());
}

}  // namespace factord::server
