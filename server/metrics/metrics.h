// Every metric family of the daemon, registered once at start-up on one
// prometheus::Registry. Names carry the factord_ prefix and base units
// (seconds, bytes); labels never carry matrix IDs (unbounded cardinality).
//
// Counters and histograms are updated where things happen; gauges that
// mirror state (cache, queue) are refreshed by a callback just before each
// scrape, so that they cannot drift from the state they describe.
#ifndef FACTORD_SERVER_METRICS_METRICS_H_
#define FACTORD_SERVER_METRICS_METRICS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "server/metrics/recently_missing.h"

namespace factord::server {

// The state the gauges mirror, read by the scrape callback.
struct GaugeSnapshot {
  int64_t cache_bytes = 0;
  int64_t cache_entries = 0;
  int64_t queue_length = 0;
  int64_t device_memory_bytes = 0;
  int64_t busy_job_workers = 0;       // factorizations and solves running
  int64_t busy_assembly_workers = 0;  // upload assemblies running
};

class Metrics {
 public:
  // `version` and `backend` label factord_build_info.
  Metrics(absl::string_view version, absl::string_view backend);
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // Called before each scrape to refresh the state gauges. Not owned state:
  // the callback must stay valid until it is replaced or Metrics dies.
  void SetGaugeSource(std::function<GaugeSnapshot()> source);

  // One finished RPC: `method` is the RPC name ("Solve"), `code` the gRPC
  // code name ("OK").
  void ObserveRpc(absl::string_view method, absl::string_view code,
                  double seconds);
  // One finished RPC that named matrix `matrix_id` (empty: none) for
  // `tenant`: a NOT_FOUND is remembered for ten minutes, and a successful
  // UploadMatrix of a remembered ID counts as a re-upload
  // (factord_reuploads_total; recently_missing.h).
  void ObserveMatrixRpc(absl::string_view method, absl::string_view code,
                        absl::string_view tenant, absl::string_view matrix_id);
  void ObserveFactorize(absl::string_view method, absl::string_view backend,
                        double seconds);
  void ObserveSolve(absl::string_view method, absl::string_view backend,
                    double seconds, int iterations, double relative_residual);
  void CacheHit() { cache_hits_->Increment(); }
  void CacheMiss() { cache_misses_->Increment(); }
  void CacheEvictions(int64_t count) {
    cache_evictions_->Increment(static_cast<double>(count));
  }
  void AnalysisReused() { analysis_reused_->Increment(); }
  void ReceivedBytes(int64_t bytes) {
    received_bytes_->Increment(static_cast<double>(bytes));
  }
  void InflightChange(int delta) { inflight_->Increment(delta); }
  // The device cache budget (--device_cache_bytes), for the alert on device
  // memory near its budget; 0 when there is no device cache.
  void SetDeviceMemoryBudget(int64_t bytes) {
    device_memory_budget_->Set(static_cast<double>(bytes));
  }

  // The host budget of the factor cache (--cache_bytes), and the size of
  // each worker pool ("job": factorizations and solves; "assembly").
  void SetCacheBudget(int64_t bytes) {
    cache_budget_->Set(static_cast<double>(bytes));
  }
  void SetWorkers(int64_t job_workers, int64_t assembly_workers);
  // A reload of `credentials` ("tokens" or "tls") was applied or refused.
  void CredentialsReloaded(absl::string_view credentials, bool applied);

  // The Prometheus text exposition format (version 0.0.4) of every family.
  std::string Scrape();

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>* rpc_requests_;
  prometheus::Family<prometheus::Histogram>* rpc_duration_;
  prometheus::Family<prometheus::Histogram>* factorize_duration_;
  prometheus::Family<prometheus::Histogram>* solve_duration_;
  prometheus::Histogram* solve_iterations_;
  prometheus::Histogram* solve_residual_;
  prometheus::Gauge* cache_bytes_;
  prometheus::Gauge* cache_entries_;
  prometheus::Counter* cache_hits_;
  prometheus::Counter* cache_misses_;
  prometheus::Counter* cache_evictions_;
  prometheus::Counter* analysis_reused_;
  prometheus::Counter* received_bytes_;
  prometheus::Gauge* device_memory_;
  prometheus::Gauge* device_memory_budget_;
  prometheus::Gauge* queue_length_;
  prometheus::Gauge* inflight_;
  prometheus::Gauge* cache_budget_;
  prometheus::Family<prometheus::Gauge>* workers_;
  prometheus::Family<prometheus::Gauge>* busy_workers_;
  prometheus::Counter* reuploads_;
  prometheus::Family<prometheus::Counter>* reloads_;
  RecentlyMissing recently_missing_;

  absl::Mutex source_mu_;
  std::function<GaugeSnapshot()> gauge_source_ ABSL_GUARDED_BY(source_mu_);
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_METRICS_METRICS_H_
