// What the RPC handlers share: the configuration, the caches, the worker
// pools and the metrics. Owned by Server; handlers hold a pointer.
#ifndef FACTORD_SERVER_SERVICE_SERVICE_STATE_H_
#define FACTORD_SERVER_SERVICE_SERVICE_STATE_H_

#include <memory>
#include <string>

#include "core/base/cancellation.h"
#include "core/base/device_context.h"
#include "core/base/exec_context.h"
#include "grpcpp/server_context.h"
#include "server/auth/authenticator.h"
#include "server/cache/analysis_cache.h"
#include "server/cache/factor_cache.h"
#include "server/config.h"
#include "server/metrics/metrics.h"
#include "server/service/concurrency_limit.h"
#include "server/service/live_reactors.h"
#include "server/work/worker_pool.h"

namespace factord::server {

struct ServiceState {
  ServerConfig config;
  Backend backend = Backend::kCpu;
  std::string backend_name = "cpu";
  std::string backend_reason;  // why this backend (backend_choice.h)
  // kCuda: the --device_cache_bytes budget all requests draw from.
  DeviceMemoryBudget* device_budget = nullptr;
  int threads = 1;  // kernel threads per job, resolved (>= 1)
  FactorCache* cache = nullptr;
  AnalysisCache* analyses = nullptr;
  WorkerPool* jobs = nullptr;      // factorizations and solves
  WorkerPool* assembly = nullptr;  // matrix assembly at the end of uploads
  Metrics* metrics = nullptr;
  LiveReactors* reactors = nullptr;
  // Bearer-token authentication; nullptr: off (every caller is tenant "").
  std::shared_ptr<Authenticator> authenticator;
  // Solver RPCs open at once; nullptr: not counted.
  std::shared_ptr<ConcurrencyLimit> concurrency;

  // A job's device context on kCuda (its own CUDA stream and handles),
  // nullptr on a host backend; the backend's error (e.g.
  // UNAVAILABLE) when no stream can be made. The job owns it and must keep
  // it alive while its ExecContext is in use.
  absl::StatusOr<std::unique_ptr<DeviceContext>> MakeDevice() const {
    if (backend != Backend::kCuda) return nullptr;
    return CreateDeviceContext(backend, device_budget);
  }

  // The context a job runs in. `cancellation` and `device` (from
  // MakeDevice) are not owned and must outlive the job.
  ExecContext MakeContext(bool deterministic, const Cancellation* cancellation,
                          DeviceContext* device) const {
    ExecContext ctx;
    ctx.backend = backend;
    ctx.threads = threads;
    ctx.deterministic = deterministic;
    ctx.cancellation = cancellation;
    ctx.device = device;
    return ctx;
  }
};

// Copies the RPC's deadline (if any) into `cancellation`, so that numerical
// loops stop with DeadlineExceeded on their own.
inline void ApplyDeadline(const grpc::CallbackServerContext& context,
                          Cancellation* cancellation) {
  const auto deadline = context.deadline();
  if (deadline == std::chrono::system_clock::time_point::max()) return;
  const auto remaining = deadline - std::chrono::system_clock::now();
  cancellation->set_deadline(
      Cancellation::Clock::now() +
      std::chrono::duration_cast<Cancellation::Clock::duration>(remaining));
}

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_SERVICE_STATE_H_
