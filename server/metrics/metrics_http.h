// GET /metrics over HTTP, served by cpp-httplib on its own threads (not
// prometheus-cpp's civetweb Exposer, whose small thread stacks crash next to
// OpenBLAS and METIS: PLATFORM.md).
#ifndef FACTORD_SERVER_METRICS_METRICS_HTTP_H_
#define FACTORD_SERVER_METRICS_METRICS_HTTP_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "server/metrics/metrics.h"

namespace factord::server {

class MetricsHttpServer {
 public:
  // Binds `listen` ("host:port"; port 0 picks a free one) and serves
  // `metrics` (not owned; must outlive the server) until Stop().
  static absl::StatusOr<std::unique_ptr<MetricsHttpServer>> Start(
      const std::string& listen, Metrics* metrics);
  ~MetricsHttpServer();  // Stop()

  int port() const { return port_; }
  void Stop();

 private:
  struct Impl;
  MetricsHttpServer(std::unique_ptr<Impl> impl, int port);
  std::unique_ptr<Impl> impl_;
  int port_;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_METRICS_METRICS_HTTP_H_
