// Who may run a Solver RPC: the bearer token names the tenant (when
// authentication is on), then a concurrency slot is taken. Every Solver
// handler calls Admit first and refuses the request with its status; the
// health service does not go through here (probes stay unauthenticated).
#ifndef FACTORD_SERVER_SERVICE_ADMISSION_H_
#define FACTORD_SERVER_SERVICE_ADMISSION_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grpcpp/server_context.h"
#include "server/cache/factor_cache.h"
#include "server/config.h"
#include "server/service/concurrency_limit.h"
#include "server/service/service_state.h"

namespace factord::server {

// An admitted request: its tenant ("" when authentication is off) and the
// concurrency slot it holds until destroyed.
struct Caller {
  std::string tenant;
  RequestSlot slot;

  // The cache key of matrix `id` as this caller sees it.
  MatrixKey Key(const std::string& id) const { return MatrixKey{tenant, id}; }
};

// Unauthenticated (missing, malformed or unknown token: the message never
// echoes it) or ResourceExhausted (max_concurrent_requests open already).
absl::StatusOr<Caller> Admit(const ServiceState& state,
                             const grpc::CallbackServerContext& context);

// Loads --auth_tokens_file into state->authenticator (when set) and makes
// state->concurrency from config; logs what is on. InvalidArgument naming
// the flag on a bad file.
absl::Status SetUpAdmission(const ServerConfig& config, ServiceState* state);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_ADMISSION_H_
