#include "server/metrics/metrics.h"

#include <string>

#include "gtest/gtest.h"

namespace factord::server {
namespace {

bool Contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

TEST(Metrics, ScrapeHasEveryFamilyAndTheRecordedValues) {
  Metrics m("9.9.9", "cpu");
  m.SetGaugeSource([] {
    GaugeSnapshot g;
    g.cache_bytes = 1234;
    g.cache_entries = 2;
    g.queue_length = 3;
    return g;
  });
  m.ObserveRpc("Factorize", "INVALID_ARGUMENT", 0.01);
  m.ObserveFactorize("lu", "cpu", 0.2);
  m.ObserveSolve("lu", "cpu", 0.05, 12, 1e-12);
  m.CacheHit();
  m.CacheMiss();
  m.CacheEvictions(4);
  m.AnalysisReused();
  m.ReceivedBytes(4096);
  m.InflightChange(+1);
  const std::string text = m.Scrape();
  for (const char* family :
       {"factord_rpc_requests_total", "factord_rpc_duration_seconds",
        "factord_factorize_duration_seconds", "factord_solve_duration_seconds",
        "factord_solve_iterations", "factord_solve_relative_residual",
        "factord_cache_bytes", "factord_cache_entries",
        "factord_cache_hits_total", "factord_cache_misses_total",
        "factord_cache_evictions_total", "factord_analysis_reused_total",
        "factord_received_bytes_total", "factord_device_memory_bytes",
        "factord_build_info", "factord_queue_length",
        "factord_inflight_requests"}) {
    EXPECT_TRUE(Contains(text, std::string("# TYPE ") + family)) << family;
  }
  EXPECT_TRUE(Contains(text,
                       "factord_rpc_requests_total{code=\"INVALID_ARGUMENT\","
                       "method=\"Factorize\"} 1"))
      << text;
  EXPECT_TRUE(Contains(text, "factord_cache_bytes 1234"));
  EXPECT_TRUE(Contains(text, "factord_queue_length 3"));
  EXPECT_TRUE(Contains(text, "factord_cache_evictions_total 4"));
  EXPECT_TRUE(Contains(text, "factord_received_bytes_total 4096"));
  EXPECT_TRUE(Contains(text, "factord_inflight_requests 1"));
  EXPECT_TRUE(Contains(
      text, "factord_build_info{backend=\"cpu\",version=\"9.9.9\"} 1"));
  EXPECT_TRUE(Contains(text, "factord_solve_iterations_count 1"));
}

TEST(Metrics, CapacityFamiliesAndReuploadsAfterNotFound) {
  Metrics m("9.9.9", "cpu");
  m.SetCacheBudget(int64_t{1} << 30);
  m.SetWorkers(4, 2);
  m.SetGaugeSource([] {
    GaugeSnapshot g;
    g.busy_job_workers = 3;
    g.busy_assembly_workers = 1;
    return g;
  });
  // An upload after NOT_FOUND of the same ID (and tenant) is a re-upload;
  // a first upload, another tenant's, or a failed one is not.
  m.ObserveMatrixRpc("UploadMatrix", "OK", "", "fresh");
  m.ObserveMatrixRpc("Factorize", "NOT_FOUND", "alice", "moved");
  m.ObserveMatrixRpc("UploadMatrix", "OK", "bob", "moved");
  m.ObserveMatrixRpc("UploadMatrix", "RESOURCE_EXHAUSTED", "alice", "moved");
  m.ObserveMatrixRpc("UploadMatrix", "OK", "alice", "moved");  // counts
  m.ObserveMatrixRpc("UploadMatrix", "OK", "alice", "moved");  // once only
  m.ObserveMatrixRpc("Solve", "NOT_FOUND", "", "lost");
  m.ObserveMatrixRpc("UploadMatrix", "OK", "", "lost");  // counts
  m.ObserveMatrixRpc("ServerInfo", "NOT_FOUND", "", "");
  m.CredentialsReloaded("tls", false);
  const std::string text = m.Scrape();
  for (const char* needle : {
           "factord_cache_budget_bytes 1073741824",
           "factord_workers{pool=\"job\"} 4",
           "factord_workers{pool=\"assembly\"} 2",
           "factord_workers_busy{pool=\"job\"} 3",
           "factord_workers_busy{pool=\"assembly\"} 1",
           "factord_reuploads_total 2",
           "factord_credential_reloads_total{credentials=\"tls\",result="
           "\"refused\"} 1",
           "factord_credential_reloads_total{credentials=\"tokens\",result="
           "\"applied\"} 0",
       }) {
    EXPECT_TRUE(Contains(text, needle)) << needle;
  }
}

}  // namespace
}  // namespace factord::server
