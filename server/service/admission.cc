#include "server/service/admission.h"

#include <sys/stat.h>

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "server/auth/authenticator.h"
#include "server/auth/token_table.h"
#include "server/error_reason.h"
#include "server/service/request_log.h"

namespace factord::server {

absl::StatusOr<Caller> Admit(const ServiceState& state,
                             const grpc::CallbackServerContext& context) {
  Caller caller;
  if (state.authenticator != nullptr) {
    std::vector<absl::string_view> values;
    auto [begin, end] = context.client_metadata().equal_range("authorization");
    for (auto it = begin; it != end; ++it) {
      values.emplace_back(it->second.data(), it->second.size());
    }
    absl::StatusOr<std::string> tenant =
        state.authenticator->Authenticate(values);
    if (!tenant.ok()) {
      return WithReason(tenant.status(), v1::UNAUTHENTICATED);
    }
    caller.tenant = *std::move(tenant);
  }
  if (state.concurrency != nullptr) {
    if (!state.concurrency->TryAcquire()) {
      return QueueFull(absl::StrCat(
          "the server has ", state.concurrency->in_flight(),
          " requests in flight, the limit max_concurrent_requests = ",
          state.concurrency->limit(), "; retry later"));
    }
    caller.slot = RequestSlot(state.concurrency.get());
  }
  return caller;
}

absl::Status SetUpAdmission(const ServerConfig& config, ServiceState* state) {
  if (config.max_concurrent_requests < 0) {
    return absl::InvalidArgumentError(
        "max_concurrent_requests must be >= 0 (0 = unlimited)");
  }
  if (config.tenant_cache_bytes < 0) {
    return absl::InvalidArgumentError(
        "tenant_cache_bytes must be >= 0 (0 = unlimited)");
  }
  state->concurrency =
      std::make_shared<ConcurrencyLimit>(config.max_concurrent_requests);
  if (config.auth_tokens_file.empty()) {
    state->authenticator = nullptr;
    LogLine(
        "auth: off (no --auth_tokens_file): every client is the anonymous "
        "tenant");
    return absl::OkStatus();
  }
  absl::StatusOr<TokenTable> table = LoadTokenTable(config.auth_tokens_file);
  if (!table.ok()) return table.status();
  struct stat info;
  if (stat(config.auth_tokens_file.c_str(), &info) == 0 &&
      (info.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    LogLine(absl::StrCat("auth: warning: ", config.auth_tokens_file,
                         " is readable by group or others; chmod 600 it"));
  }
  LogLine(absl::StrCat("auth: bearer tokens required (", table->grants.size(),
                       " tokens, ", table->tenants(), " tenants)"));
  state->authenticator = std::make_shared<Authenticator>(*std::move(table));
  return absl::OkStatus();
}

}  // namespace factord::server
