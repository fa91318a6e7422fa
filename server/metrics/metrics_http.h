// GET /metrics over HTTP, served by cpp-httplib on its own threads (not
// prometheus-cpp's civetweb Exposer, whose small thread stacks crash next to
// OpenBLAS and METIS: PLATFORM.md); and GET /ready, the readiness of the
// gRPC health service as HTTP for proxies whose active checks speak HTTP
// only (HAProxy: deploy/haproxy): 200 `SERVING` or 503 `NOT_SERVING`
// (starting, draining). Neither needs a token.
#ifndef FACTORD_SERVER_METRICS_METRICS_HTTP_H_
#define FACTORD_SERVER_METRICS_METRICS_HTTP_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "server/metrics/metrics.h"

namespace factord::server {

class MetricsHttpServer {
 public:
  // Binds `listen` ("host:port"; port 0 picks a free one) and serves
  // `metrics` (not owned; must outlive the server) until Stop(). `ready`,
  // when set, answers /ready (called on the HTTP threads; it must be
  // thread-safe and outlive the server); without it /ready is 404.
  static absl::StatusOr<std::unique_ptr<MetricsHttpServer>> Start(
      const std::string& listen, Metrics* metrics,
      std::function<bool()> ready = nullptr);
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
