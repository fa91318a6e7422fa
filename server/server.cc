#include "server/server.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "core/base/device_context.h"
#include "grpc/grpc.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/server.h"
#include "grpcpp/server_builder.h"
#include "server/address_in_use.h"
#include "server/auth/credential_reloader.h"
#include "server/auth/tls_certificate_store.h"
#include "server/auth/tls_credentials.h"
#include "server/backend_choice.h"
#include "server/cache/analysis_cache.h"
#include "server/cache/factor_cache.h"
#include "server/health/health.h"
#include "server/metrics/metrics.h"
#include "server/metrics/metrics_http.h"
#include "server/service/admission.h"
#include "server/service/live_reactors.h"
#include "server/service/request_log.h"
#include "server/service/service_state.h"
#include "server/service/solver_service.h"
#include "server/work/worker_pool.h"

#ifdef FACTORD_WITH_CUDA_BACKEND
#include "core/kernels/cuda/cuda_backend.h"
#endif

namespace factord::server {
namespace {

// Registers the CUDA kernels when this binary has them, then picks the
// backend (backend_choice.h) and logs the choice with its reason.
absl::StatusOr<BackendChoice> ResolveBackend(const std::string& requested) {
#ifdef FACTORD_WITH_CUDA_BACKEND
  // Unless a kCuda backend is registered already (in-process tests register
  // a host-run one to drive the device path without a GPU).
  if (!DeviceBackendRegistered(Backend::kCuda)) {
    if (absl::Status s = kernels::cuda::RegisterCudaBackend(); !s.ok()) {
      return s;
    }
  }
#endif
  const bool cuda_built = DeviceBackendRegistered(Backend::kCuda);
  // Probing initialises the CUDA runtime: only when CUDA may be chosen.
  const DeviceProbe probe = cuda_built && requested != "cpu"
                                ? ProbeDevices(Backend::kCuda)
                                : DeviceProbe{};
  absl::StatusOr<BackendChoice> choice =
      ChooseBackend(requested, cuda_built, probe);
  if (choice.ok()) {
    LogLine(absl::StrCat("backend: ", BackendName(choice->backend), " (",
                         requested == "auto" ? "auto: " : "", choice->reason,
                         ")"));
  }
  return choice;
}

absl::Status CheckConfig(const ServerConfig& c) {
  if (c.workers < 1) return absl::InvalidArgumentError("workers must be >= 1");
  if (c.threads < 0) return absl::InvalidArgumentError("threads must be >= 0");
  if (c.device_cache_bytes < 0) {
    return absl::InvalidArgumentError(
        "device_cache_bytes must be >= 0 (0: no limit)");
  }
  if (c.cache_bytes <= 0) {
    return absl::InvalidArgumentError("cache_bytes must be > 0");
  }
  if (c.max_n < 1 || c.max_nnz < 1) {
    return absl::InvalidArgumentError("max_n and max_nnz must be >= 1");
  }
  if (c.max_message_bytes < 1024 ||
      c.max_message_bytes > (int64_t{1} << 31) - 1) {
    return absl::InvalidArgumentError(
        "max_message_bytes must be in [1 KiB, 2 GiB)");
  }
  if (c.max_queue < 0)
    return absl::InvalidArgumentError("max_queue must be >= 0");
  if (c.idle_ttl <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("idle_ttl must be > 0");
  }
  if (c.reload_interval < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("reload_interval must be >= 0");
  }
  if (c.drain_delay < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("drain_delay must be >= 0");
  }
  return absl::OkStatus();
}

}  // namespace

struct Server::State {
  ServerConfig config;
  std::unique_ptr<Metrics> metrics;
  std::unique_ptr<FactorCache> cache;
  // --device_cache_bytes: device bytes of all requests (kCuda).
  std::unique_ptr<DeviceMemoryBudget> device_budget;
  AnalysisCache analyses;
  std::unique_ptr<WorkerPool> jobs;
  std::unique_ptr<WorkerPool> assembly;
  LiveReactors reactors;
  ServiceState service_state;
  std::unique_ptr<SolverService> service;
  // The TLS files gRPC serves from (nullptr: plaintext); outlives the port.
  std::unique_ptr<TlsCertificateStore> tls;
  std::unique_ptr<CredentialReloader> reloader;
  std::unique_ptr<grpc::Server> grpc_server;  // destroyed before the above
  std::unique_ptr<MetricsHttpServer> metrics_http;
  int port = 0;
  std::atomic<bool> ready{false};  // readiness, for /ready

  // The idle-TTL sweeper and the credential reload timer.
  std::thread sweeper;
  std::thread reload_timer;
  absl::Mutex loops_mu;
  bool stopping ABSL_GUARDED_BY(loops_mu) = false;

  absl::Mutex shutdown_mu;
  bool shut_down ABSL_GUARDED_BY(shutdown_mu) = false;
  absl::Notification done;

  void SweepLoop() {
    const absl::Duration interval = std::clamp(
        config.idle_ttl / 4, absl::Milliseconds(10), absl::Seconds(30));
    absl::MutexLock lock(&loops_mu);
    while (!loops_mu.AwaitWithTimeout(absl::Condition(&stopping), interval)) {
      loops_mu.Unlock();
      cache->SweepIdle();
      loops_mu.Lock();
    }
  }

  void ReloadLoop() {
    absl::MutexLock lock(&loops_mu);
    while (!loops_mu.AwaitWithTimeout(absl::Condition(&stopping),
                                      config.reload_interval)) {
      loops_mu.Unlock();
      ReloadNow();
      loops_mu.Lock();
    }
  }

  ReloadResult ReloadNow() {
    ReloadResult result;
    if (reloader == nullptr) return result;
    CredentialReloader::Report report = reloader->Reload();
    for (auto [what, outcome] :
         {std::pair{"tokens", report.tokens}, std::pair{"tls", report.tls}}) {
      if (outcome == CredentialReloader::Outcome::kUnchanged) continue;
      const bool applied = outcome == CredentialReloader::Outcome::kApplied;
      metrics->CredentialsReloaded(what, applied);
      ++(applied ? result.applied : result.refused);
    }
    for (const std::string& line : report.lines) LogLine(line);
    result.lines = std::move(report.lines);
    return result;
  }

  // Readiness for the gRPC health service and /ready.
  void SetReady(bool serving) {
    ready.store(serving);
    SetReadiness(grpc_server.get(), serving);
  }
};

absl::StatusOr<std::unique_ptr<Server>> Server::Start(
    const ServerConfig& config) {
  if (absl::Status s = CheckConfig(config); !s.ok()) return s;
  absl::StatusOr<BackendChoice> choice = ResolveBackend(config.backend);
  if (!choice.ok()) return choice.status();
  const Backend backend = choice->backend;

  auto state = std::make_unique<State>();
  State& s = *state;
  s.config = config;
  s.metrics = std::make_unique<Metrics>(FACTORD_VERSION, BackendName(backend));
  s.metrics->SetDeviceMemoryBudget(config.device_cache_bytes);
  s.metrics->SetCacheBudget(config.cache_bytes);
  s.metrics->SetWorkers(config.workers, config.workers);
  s.device_budget =
      std::make_unique<DeviceMemoryBudget>(config.device_cache_bytes);
  Metrics* metrics = s.metrics.get();
  FactorCache::Options cache_options;
  cache_options.budget_bytes = config.cache_bytes;
  cache_options.idle_ttl = config.idle_ttl;
  cache_options.tenant_budget_bytes = config.tenant_cache_bytes;
  cache_options.on_evict = [metrics](int64_t n) { metrics->CacheEvictions(n); };
  s.cache = std::make_unique<FactorCache>(std::move(cache_options));
  s.jobs =
      std::make_unique<WorkerPool>("job", config.workers, config.max_queue);
  s.assembly = std::make_unique<WorkerPool>("assembly", config.workers,
                                            config.max_queue);
  s.metrics->SetGaugeSource([st = state.get()] {
    GaugeSnapshot g;
    g.cache_bytes = st->cache->bytes();
    g.cache_entries = st->cache->entries();
    g.queue_length = st->jobs->queue_length() + st->assembly->queue_length();
    g.device_memory_bytes = st->device_budget->in_use();
    g.busy_job_workers = st->jobs->running();
    g.busy_assembly_workers = st->assembly->running();
    return g;
  });

  ServiceState& ss = s.service_state;
  ss.config = config;
  ss.backend = backend;
  ss.backend_name = std::string(BackendName(backend));
  ss.backend_reason = choice->reason;
  ss.device_budget = s.device_budget.get();
  ss.threads = config.threads > 0
                   ? config.threads
                   : std::max(1u, std::thread::hardware_concurrency());
  ss.cache = s.cache.get();
  ss.analyses = &s.analyses;
  ss.jobs = s.jobs.get();
  ss.assembly = s.assembly.get();
  ss.metrics = metrics;
  ss.reactors = &s.reactors;
  if (absl::Status a = SetUpAdmission(config, &ss); !a.ok()) return a;
  absl::StatusOr<ServingCredentials> credentials =
      MakeServerCredentials(config);
  if (!credentials.ok()) return credentials.status();
  s.tls = std::move(credentials->tls);
  s.reloader = std::make_unique<CredentialReloader>(
      config.auth_tokens_file, ss.authenticator.get(), s.tls.get());
  s.service = std::make_unique<SolverService>(&ss);

  EnableHealthService();
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config.listen, credentials->credentials, &s.port);
  // gRPC sets SO_REUSEPORT by default: a second daemon on the same address
  // would then start and share the port (the kernel splitting connections
  // between the two). Without it, its bind fails and it exits.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // The transport accepts up to twice max_message_bytes, so that a message
  // over the limit reaches the handlers and is refused with its reason
  // (MESSAGE_TOO_LARGE, request_opening.h) rather than by the transport.
  builder.SetMaxReceiveMessageSize(static_cast<int>(std::min<int64_t>(
      2 * config.max_message_bytes, std::numeric_limits<int32_t>::max())));
  builder.RegisterService(s.service.get());
  s.grpc_server = builder.BuildAndStart();
  if (s.grpc_server == nullptr || s.port == 0) {
    if (AddressInUse(config.listen)) {
      return absl::UnavailableError(
          absl::StrCat("cannot listen for gRPC on ", config.listen,
                       ": address in use (another factord or another "
                       "program holds it)"));
    }
    return absl::UnavailableError(absl::StrCat(
        "cannot listen for gRPC on ", config.listen,
        TlsEnabled(config) ? " (TLS: check that --tls_key is the key of "
                             "--tls_cert and both are valid PEM)"
                           : ""));
  }
  s.SetReady(false);  // starting

  if (!config.metrics_listen.empty()) {
    absl::StatusOr<std::unique_ptr<MetricsHttpServer>> http =
        MetricsHttpServer::Start(
            config.metrics_listen, metrics,
            [st = state.get()] { return st->ready.load(); });
    if (!http.ok()) {
      s.grpc_server->Shutdown();
      return http.status();
    }
    s.metrics_http = *std::move(http);
  }
  s.sweeper = std::thread([st = state.get()] { st->SweepLoop(); });
  if (s.reloader->active() && config.reload_interval > absl::ZeroDuration()) {
    s.reload_timer = std::thread([st = state.get()] { st->ReloadLoop(); });
  }
  s.SetReady(true);
  LogLine(absl::StrCat("factord ", FACTORD_VERSION, " serving gRPC on port ",
                       s.port, ", /metrics on port ",
                       s.metrics_http ? s.metrics_http->port() : 0,
                       ", workers=", config.workers, " threads=", ss.threads,
                       " cache_bytes=", config.cache_bytes, " tls=",
                       !TlsEnabled(config)                 ? "off"
                       : config.tls_client_ca_file.empty() ? "on"
                                                           : "mutual"));
  return std::unique_ptr<Server>(new Server(std::move(state)));
}

Server::Server(std::unique_ptr<State> state) : state_(std::move(state)) {}

Server::~Server() { Shutdown(absl::Seconds(5)); }

int Server::port() const { return state_->port; }

int Server::metrics_port() const {
  return state_->metrics_http ? state_->metrics_http->port() : 0;
}

ReloadResult Server::Reload() { return state_->ReloadNow(); }

void Server::Shutdown(absl::Duration grace) {
  State& s = *state_;
  absl::MutexLock lock(&s.shutdown_mu);
  if (s.shut_down) return;
  LogLine("draining: readiness NOT_SERVING, waiting for in-flight requests");
  s.SetReady(false);
  // Keep serving while in-flight streams finish, so that readiness probes
  // see NOT_SERVING and balancers move new work elsewhere; then stop
  // accepting, wait for what is left until the deadline and cancel the rest
  // (their jobs see the cancellation). Proxies that poll readiness need
  // drain_delay to notice: until they do, new requests keep arriving and
  // are served as usual.
  const absl::Time deadline = absl::Now() + grace;
  if (s.config.drain_delay > absl::ZeroDuration()) {
    absl::SleepFor(std::min(s.config.drain_delay, grace));
    LogLine(absl::StrCat("draining: drain_delay ",
                         absl::FormatDuration(s.config.drain_delay), " over, ",
                         s.reactors.size(), " requests in flight"));
  }
  s.reactors.WaitUntilEmpty(deadline);
  s.grpc_server->Shutdown(absl::ToChronoTime(deadline));
  s.jobs->Drain();
  s.assembly->Drain();
  {
    absl::MutexLock loops_lock(&s.loops_mu);
    s.stopping = true;
  }
  if (s.sweeper.joinable()) s.sweeper.join();
  if (s.reload_timer.joinable()) s.reload_timer.join();
  if (s.metrics_http) s.metrics_http->Stop();
  s.shut_down = true;
  LogLine("stopped");
  s.done.Notify();
}

void Server::Wait() { state_->done.WaitForNotification(); }

}  // namespace factord::server
