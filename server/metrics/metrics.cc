#include "server/metrics/metrics.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "prometheus/text_serializer.h"

namespace factord::server {
namespace {

using prometheus::Histogram;

// Latency buckets from 100 us to about 100 s: RPCs range from a ListMatrices
// to a factorization of a large KKT system.
Histogram::BucketBoundaries SecondsBuckets() {
  return {1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 2.5e-2, 5e-2, 0.1,
          0.25, 0.5,    1,    2.5,  5,      10,   25,   50,     100};
}

Histogram::BucketBoundaries IterationBuckets() {
  return {0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
}

// Relative residuals by decade, 1e-16 .. 1.
Histogram::BucketBoundaries ResidualBuckets() {
  Histogram::BucketBoundaries b;
  for (double r = 1e-16; r <= 1.5; r *= 10) b.push_back(r);
  return b;
}

constexpr absl::string_view kRpcMethods[] = {
    "UploadMatrix", "UpdateValues", "Factorize",  "Solve",
    "Release",      "ListMatrices", "ServerInfo",
};

// The methods whose duration series exist from the first scrape on.
constexpr absl::string_view kPrecreatedMethods[] = {
    "block_jacobi",
    "jacobi",
    "ldlt",
    "lu",
};

// NOT_FOUND answers remembered for the re-upload count.
constexpr size_t kRememberedMissing = 10000;
constexpr absl::Duration kMissingTtl = absl::Minutes(10);

}  // namespace

Metrics::Metrics(absl::string_view version, absl::string_view backend)
    : registry_(std::make_shared<prometheus::Registry>()),
      recently_missing_(kRememberedMissing, kMissingTtl) {
  auto& reg = *registry_;
  rpc_requests_ = &prometheus::BuildCounter()
                       .Name("factord_rpc_requests_total")
                       .Help("RPCs finished, by method and gRPC status code.")
                       .Register(reg);
  rpc_duration_ = &prometheus::BuildHistogram()
                       .Name("factord_rpc_duration_seconds")
                       .Help("Wall time of finished RPCs, by method.")
                       .Register(reg);
  factorize_duration_ =
      &prometheus::BuildHistogram()
           .Name("factord_factorize_duration_seconds")
           .Help("Analysis plus numeric factorization time of a job.")
           .Register(reg);
  solve_duration_ = &prometheus::BuildHistogram()
                         .Name("factord_solve_duration_seconds")
                         .Help("Time to solve one right-hand side.")
                         .Register(reg);
  solve_iterations_ = &prometheus::BuildHistogram()
                           .Name("factord_solve_iterations")
                           .Help("Krylov iterations per right-hand side.")
                           .Register(reg)
                           .Add({}, IterationBuckets());
  solve_residual_ =
      &prometheus::BuildHistogram()
           .Name("factord_solve_relative_residual")
           .Help("True relative residual ||b-Ax||_2/||b||_2 per solve.")
           .Register(reg)
           .Add({}, ResidualBuckets());
  cache_bytes_ = &prometheus::BuildGauge()
                      .Name("factord_cache_bytes")
                      .Help("Host bytes held by the factor cache.")
                      .Register(reg)
                      .Add({});
  cache_entries_ = &prometheus::BuildGauge()
                        .Name("factord_cache_entries")
                        .Help("Matrices held by the factor cache.")
                        .Register(reg)
                        .Add({});
  cache_hits_ = &prometheus::BuildCounter()
                     .Name("factord_cache_hits_total")
                     .Help("Lookups of a matrix ID that found it.")
                     .Register(reg)
                     .Add({});
  cache_misses_ = &prometheus::BuildCounter()
                       .Name("factord_cache_misses_total")
                       .Help("Lookups of an unknown or evicted matrix ID.")
                       .Register(reg)
                       .Add({});
  cache_evictions_ =
      &prometheus::BuildCounter()
           .Name("factord_cache_evictions_total")
           .Help("Matrices evicted for the byte budget or the idle TTL.")
           .Register(reg)
           .Add({});
  analysis_reused_ =
      &prometheus::BuildCounter()
           .Name("factord_analysis_reused_total")
           .Help("Factorizations that reused a cached symbolic analysis.")
           .Register(reg)
           .Add({});
  received_bytes_ = &prometheus::BuildCounter()
                         .Name("factord_received_bytes_total")
                         .Help("Bytes of matrix and value uploads received.")
                         .Register(reg)
                         .Add({});
  device_memory_ = &prometheus::BuildGauge()
                        .Name("factord_device_memory_bytes")
                        .Help("Device (GPU) bytes held by the factor cache.")
                        .Register(reg)
                        .Add({});
  device_memory_budget_ =
      &prometheus::BuildGauge()
           .Name("factord_device_memory_budget_bytes")
           .Help("Device (GPU) byte budget of the factor cache.")
           .Register(reg)
           .Add({});
  prometheus::BuildGauge()
      .Name("factord_build_info")
      .Help("Always 1; labels name the version and the backend.")
      .Register(reg)
      .Add({{"version", std::string(version)},
            {"backend", std::string(backend)}})
      .Set(1);
  queue_length_ = &prometheus::BuildGauge()
                       .Name("factord_queue_length")
                       .Help("Jobs waiting for a worker.")
                       .Register(reg)
                       .Add({});
  inflight_ = &prometheus::BuildGauge()
                   .Name("factord_inflight_requests")
                   .Help("RPCs started and not yet finished.")
                   .Register(reg)
                   .Add({});
  cache_budget_ = &prometheus::BuildGauge()
                       .Name("factord_cache_budget_bytes")
                       .Help(
                           "Host byte budget of the factor cache "
                           "(--cache_bytes).")
                       .Register(reg)
                       .Add({});
  workers_ = &prometheus::BuildGauge()
                  .Name("factord_workers")
                  .Help(
                      "Worker threads, by pool (job: factorizations and "
                      "solves; assembly: uploads).")
                  .Register(reg);
  busy_workers_ = &prometheus::BuildGauge()
                       .Name("factord_workers_busy")
                       .Help("Worker threads running a job, by pool.")
                       .Register(reg);
  reuploads_ =
      &prometheus::BuildCounter()
           .Name("factord_reuploads_total")
           .Help(
               "Uploads of a matrix ID this daemon answered NOT_FOUND for "
               "in the last 10 minutes: clients restoring a matrix moved "
               "here (failover, drain) or lost (restart, eviction).")
           .Register(reg)
           .Add({});
  reloads_ = &prometheus::BuildCounter()
                  .Name("factord_credential_reloads_total")
                  .Help(
                      "Reloads of the tokens file or the TLS files "
                      "(SIGHUP or --reload_interval), by result.")
                  .Register(reg);
  for (const char* credentials : {"tokens", "tls"}) {
    for (const char* result : {"applied", "refused"}) {
      reloads_->Add({{"credentials", credentials}, {"result", result}});
    }
  }
  for (const char* pool : {"job", "assembly"}) {
    workers_->Add({{"pool", pool}});
    busy_workers_->Add({{"pool", pool}});
  }
  // Every method appears from the first scrape on, so that rate() over a
  // fresh process has a zero to start from.
  for (absl::string_view method : kRpcMethods) {
    rpc_requests_->Add({{"method", std::string(method)}, {"code", "OK"}});
    rpc_duration_->Add({{"method", std::string(method)}}, SecondsBuckets());
  }
  for (absl::string_view method : kPrecreatedMethods) {
    const prometheus::Labels labels = {{"method", std::string(method)},
                                       {"backend", std::string(backend)}};
    factorize_duration_->Add(labels, SecondsBuckets());
    solve_duration_->Add(labels, SecondsBuckets());
  }
}

void Metrics::SetGaugeSource(std::function<GaugeSnapshot()> source) {
  absl::MutexLock lock(&source_mu_);
  gauge_source_ = std::move(source);
}

void Metrics::ObserveRpc(absl::string_view method, absl::string_view code,
                         double seconds) {
  rpc_requests_
      ->Add({{"method", std::string(method)}, {"code", std::string(code)}})
      .Increment();
  rpc_duration_->Add({{"method", std::string(method)}}, SecondsBuckets())
      .Observe(seconds);
}

void Metrics::ObserveFactorize(absl::string_view method,
                               absl::string_view backend, double seconds) {
  factorize_duration_
      ->Add(
          {{"method", std::string(method)}, {"backend", std::string(backend)}},
          SecondsBuckets())
      .Observe(seconds);
}

void Metrics::ObserveSolve(absl::string_view method, absl::string_view backend,
                           double seconds, int iterations,
                           double relative_residual) {
  solve_duration_
      ->Add(
          {{"method", std::string(method)}, {"backend", std::string(backend)}},
          SecondsBuckets())
      .Observe(seconds);
  solve_iterations_->Observe(iterations);
  solve_residual_->Observe(relative_residual);
}

void Metrics::ObserveMatrixRpc(absl::string_view method, absl::string_view code,
                               absl::string_view tenant,
                               absl::string_view matrix_id) {
  if (matrix_id.empty()) return;
  // Tenants' IDs are separate name spaces; '\n' occurs in neither.
  const std::string key = absl::StrCat(tenant, "\n", matrix_id);
  if (code == "NOT_FOUND") {
    recently_missing_.Remember(key, absl::Now());
  } else if (code == "OK" && method == "UploadMatrix" &&
             recently_missing_.Take(key, absl::Now())) {
    reuploads_->Increment();
  }
}

void Metrics::SetWorkers(int64_t job_workers, int64_t assembly_workers) {
  workers_->Add({{"pool", "job"}}).Set(static_cast<double>(job_workers));
  workers_->Add({{"pool", "assembly"}})
      .Set(static_cast<double>(assembly_workers));
}

void Metrics::CredentialsReloaded(absl::string_view credentials, bool applied) {
  reloads_
      ->Add({{"credentials", std::string(credentials)},
             {"result", applied ? "applied" : "refused"}})
      .Increment();
}

std::string Metrics::Scrape() {
  {
    absl::MutexLock lock(&source_mu_);
    if (gauge_source_) {
      GaugeSnapshot s = gauge_source_();
      cache_bytes_->Set(static_cast<double>(s.cache_bytes));
      cache_entries_->Set(static_cast<double>(s.cache_entries));
      queue_length_->Set(static_cast<double>(s.queue_length));
      device_memory_->Set(static_cast<double>(s.device_memory_bytes));
      busy_workers_->Add({{"pool", "job"}})
          .Set(static_cast<double>(s.busy_job_workers));
      busy_workers_->Add({{"pool", "assembly"}})
          .Set(static_cast<double>(s.busy_assembly_workers));
    }
  }
  return prometheus::TextSerializer().Serialize(registry_->Collect());
}

}  // namespace factord::server
