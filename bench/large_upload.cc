// large_upload: streams a synthetic matrix with nnz >= 10^8 (by default) to
// an in-process factord on loopback and prints one JSON line with the upload
// time and throughput; then shows that a matrix above the server's memory
// budget is refused with RESOURCE_EXHAUSTED before it is stored.
//
//   large_upload [--nnz=100000000] [--band=10]
//
// The matrix is symmetric-lower, banded: row i holds columns
// max(0, i - band + 1) .. i, with a dominant diagonal (SPD). A program, not a
// test: it needs a few GiB of memory (client arrays + server copy).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/time/time.h"
#include "client/factord_client.h"
#include "core/base/timer.h"
#include "server/config.h"
#include "server/server.h"

namespace {

long ResidentKib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, f)) {
    if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  }
  std::fclose(f);
  return kib;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t target_nnz = 100'000'000;
  int64_t band = 10;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (absl::StartsWith(arg, "--nnz=")) {
      (void)absl::SimpleAtoi(arg.substr(6), &target_nnz);
    } else if (absl::StartsWith(arg, "--band=")) {
      (void)absl::SimpleAtoi(arg.substr(7), &band);
    }
  }
  // Rows 0..band-2 hold fewer entries; size n so that nnz >= target.
  const int64_t n = target_nnz / band + band;
  std::vector<int64_t> row_ptr(n + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    row_ptr[i + 1] = row_ptr[i] + std::min<int64_t>(i + 1, band);
  }
  const int64_t nnz = row_ptr[n];
  std::vector<int32_t> col_idx(nnz);
  std::vector<double> values(nnz);
  for (int64_t i = 0; i < n; ++i) {
    int64_t k = row_ptr[i];
    for (int64_t j = std::max<int64_t>(0, i - band + 1); j <= i; ++j, ++k) {
      col_idx[k] = static_cast<int32_t>(j);
      values[k] = j == i ? 2.0 * band : -1.0;
    }
  }
  const int64_t matrix_bytes =
      (n + 1) * 8 + nnz * (sizeof(int32_t) + sizeof(double));

  factord::server::ServerConfig config;
  config.listen = "127.0.0.1:0";
  config.metrics_listen = "";
  config.cache_bytes = 3 * matrix_bytes;
  config.max_nnz = std::max<int64_t>(config.max_nnz, nnz);
  config.max_n = std::max<int64_t>(config.max_n, n);
  auto server = factord::server::Server::Start(config);
  if (!server.ok()) {
    std::fprintf(stderr, "%s\n", server.status().ToString().c_str());
    return 1;
  }
  const std::string target = "127.0.0.1:" + std::to_string((*server)->port());
  auto client = factord::client::Client::Connect(target);
  if (!client.ok()) {
    std::fprintf(stderr, "%s\n", client.status().ToString().c_str());
    return 1;
  }
  factord::client::CsrArrays arrays;
  arrays.n = n;
  arrays.structure = "spd_lower";
  arrays.row_ptr = row_ptr;
  arrays.col_idx = col_idx;
  arrays.values = values;

  const long rss_before = ResidentKib();
  factord::Timer timer;
  auto info = (*client)->Upload(arrays, "large");
  const double upload_s = timer.Seconds();
  const long rss_after = ResidentKib();
  if (!info.ok()) {
    std::fprintf(stderr, "upload: %s\n", info.status().ToString().c_str());
    return 1;
  }
  (void)(*client)->Release(info->id);
  (*server)->Shutdown(absl::Seconds(5));

  // The same matrix against a budget it cannot fit: refused, nothing kept.
  config.cache_bytes = matrix_bytes / 2;
  auto small = factord::server::Server::Start(config);
  std::string refused = "not run";
  double refuse_s = 0;
  if (small.ok()) {
    auto small_client = factord::client::Client::Connect(
        "127.0.0.1:" + std::to_string((*small)->port()));
    if (small_client.ok()) {
      timer.Reset();
      auto r = (*small_client)->Upload(arrays, "too-large");
      refuse_s = timer.Seconds();
      refused = r.ok()
                    ? "accepted"
                    : std::string(absl::StatusCodeToString(r.status().code()));
    }
    (*small)->Shutdown(absl::Seconds(5));
  }
  std::printf(
      "{\"case\":\"large_upload\",\"n\":%lld,\"nnz\":%lld,"
      "\"matrix_bytes\":%lld,\"bytes_received\":%lld,\"upload_s\":%.3f,"
      "\"throughput_mib_s\":%.1f,\"process_rss_growth_mib\":%.1f,"
      "\"over_budget_upload\":\"%s\",\"over_budget_refused_after_s\":%.3f}\n",
      static_cast<long long>(n), static_cast<long long>(nnz),
      static_cast<long long>(matrix_bytes),
      static_cast<long long>(info->bytes_received), upload_s,
      info->bytes_received / upload_s / (1 << 20),
      (rss_after - rss_before) / 1024.0, refused.c_str(), refuse_s);
  return 0;
}
