#include "server/service/solver_service.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "core/solver/solver.h"
#include "server/error_reason.h"
#include "server/service/admission.h"
#include "server/service/convert.h"
#include "server/service/factorize_reactor.h"
#include "server/service/request_log.h"
#include "server/service/request_opening.h"
#include "server/service/solve_reactor.h"
#include "server/service/status_mapping.h"
#include "server/service/step_reactor.h"
#include "server/service/step_unary_reactor.h"
#include "server/service/update_values_reactor.h"
#include "server/service/upload_reactor.h"

namespace factord::server {
namespace {

constexpr int kDefaultPageSize = 100;
constexpr int kMaxPageSize = 1000;

// Quick unary RPCs answer on the gRPC thread through the default reactor:
// the caller is admitted, `body` runs with it, and the concurrency slot is
// freed before the reply is sent.
grpc::ServerUnaryReactor* AnswerNow(
    const ServiceState& state, grpc::CallbackServerContext* context,
    absl::string_view rpc,
    absl::FunctionRef<absl::Status(Caller&, RequestLog&)> body) {
  RequestLog log(state.metrics, rpc, context);
  absl::StatusOr<Caller> caller = Admit(state, *context);
  absl::Status status = caller.status();
  if (caller.ok()) {
    log.set_tenant(caller->tenant);
    status = body(*caller, log);
    caller->slot.Reset();
  }
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

grpc::ServerBidiReactor<v1::StepRequest, v1::StepReply>* SolverService::Step(
    grpc::CallbackServerContext* context) {
  auto* reactor = state_->reactors->Adopt(
      std::make_unique<StepReactor>(state_, context, Admit(*state_, *context)));
  reactor->Start();
  return reactor;
}

grpc::ServerUnaryReactor* SolverService::StepUnary(
    grpc::CallbackServerContext* context, const v1::StepUnaryRequest* request,
    v1::StepUnaryReply* reply) {
  auto* reactor = state_->reactors->Adopt(std::make_unique<StepUnaryReactor>(
      state_, context, request, reply, Admit(*state_, *context)));
  reactor->Start();
  return reactor;
}

grpc::ServerUnaryReactor* SolverService::Release(
    grpc::CallbackServerContext* context, const v1::ReleaseRequest* request,
    v1::ReleaseReply* reply) {
  return AnswerNow(
      *state_, context, "Release", [&](Caller& caller, RequestLog& log) {
        log.set_matrix_id(request->id());
        if (absl::Status s = CheckMatrixId(request->id(), "id"); !s.ok()) {
          return s;
        }
        absl::StatusOr<int64_t> freed =
            state_->cache->Release(caller.Key(request->id()));
        if (freed.ok()) reply->set_bytes_freed(*freed);
        return freed.status();
      });
}

grpc::ServerUnaryReactor* SolverService::GetMatrix(
    grpc::CallbackServerContext* context, const v1::GetMatrixRequest* request,
    v1::MatrixInfo* reply) {
  return AnswerNow(*state_, context, "GetMatrix",
                   [&](Caller& caller, RequestLog& log) {
                     absl::StatusOr<CacheEntry> entry =
                         OpenMatrix(*state_, caller, log, request->id(), "id");
                     if (entry.ok()) CacheEntryToProto(*entry, reply);
                     return entry.status();
                   });
}

grpc::ServerUnaryReactor* SolverService::ListMatrices(
    grpc::CallbackServerContext* context,
    const v1::ListMatricesRequest* request, v1::ListMatricesReply* reply) {
  return AnswerNow(
      *state_, context, "ListMatrices", [&](Caller& caller, RequestLog&) {
        if (request->page_size() < 0 || request->page_size() > kMaxPageSize) {
          return InvalidRequest(
              "page_size", absl::StrCat("page_size = ", request->page_size(),
                                        " is outside 0..", kMaxPageSize));
        }
        const size_t page_size =
            request->page_size() == 0 ? kDefaultPageSize : request->page_size();
        // Pages in ID order; the token is the last ID of the previous page,
        // so entries added or removed meanwhile neither repeat nor shift a
        // page.
        std::vector<CacheEntry> entries = state_->cache->List(caller.tenant);
        std::sort(entries.begin(), entries.end(),
                  [](const CacheEntry& a, const CacheEntry& b) {
                    return a.id < b.id;
                  });
        auto it = std::upper_bound(
            entries.begin(), entries.end(), request->page_token(),
            [](const std::string& token, const CacheEntry& e) {
              return token < e.id;
            });
        for (; it != entries.end() &&
               static_cast<size_t>(reply->matrices_size()) < page_size;
             ++it) {
          CacheEntryToProto(*it, reply->add_matrices());
        }
        if (it != entries.end()) {
          reply->set_next_page_token(
              reply->matrices(reply->matrices_size() - 1).id());
        }
        return absl::OkStatus();
      });
}

grpc::ServerUnaryReactor* SolverService::ServerInfo(
    grpc::CallbackServerContext* context, const v1::ServerInfoRequest*,
    v1::ServerInfoReply* reply) {
  return AnswerNow(
      *state_, context, "ServerInfo", [&](Caller& caller, RequestLog&) {
        reply->set_version(FACTORD_VERSION);
        reply->set_backend(state_->backend_name);
        // "cuda: 1 CUDA device, device 0: <name>" or "host cpu: no CUDA device:
        // <runtime error>": the start-up choice and its reason.
        reply->set_device(absl::StrCat(
            state_->backend == Backend::kCuda ? "cuda" : "host cpu",
            state_->backend_reason.empty() ? "" : ": ",
            state_->backend_reason));
        // The caller's own use: other tenants' holdings are not its business.
        // Without authentication the one anonymous tenant holds everything.
        const int64_t quota = state_->cache->tenant_budget_bytes();
        reply->set_cache_bytes_used(state_->cache->tenant_bytes(caller.tenant));
        reply->set_cache_bytes_budget(
            quota > 0 ? std::min(quota, state_->cache->budget_bytes())
                      : state_->cache->budget_bytes());
        reply->set_cache_entries(state_->cache->tenant_entries(caller.tenant));
        reply->set_max_n(state_->config.max_n);
        reply->set_max_nnz(state_->config.max_nnz);
        reply->set_max_message_bytes(state_->config.max_message_bytes);
        reply->set_threads(state_->threads);
        reply->set_workers(state_->jobs->workers());
        for (Method m :
             {Method::kAuto, Method::kNone, Method::kJacobi,
              Method::kBlockJacobi, Method::kLdlt, Method::kBlockIldlt,
              Method::kJacobiLdlt, Method::kIc, Method::kIlu, Method::kLu}) {
          if (m == Method::kLu && !LuAvailable()) continue;
          reply->add_methods(MethodToProto(m));
        }
        return absl::OkStatus();
      });
}

}  // namespace factord::server
