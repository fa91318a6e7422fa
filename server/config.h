// The daemon's configuration. main.cc turns flags into this struct; tests
// and benchmarks fill it directly to run a server in-process.
#ifndef FACTORD_SERVER_CONFIG_H_
#define FACTORD_SERVER_CONFIG_H_

#include <cstdint>
#include <string>

#include "absl/time/time.h"

namespace factord::server {

struct ServerConfig {
  std::string listen = "127.0.0.1:50051";  // "127.0.0.1:0" picks a free port
  std::string metrics_listen =
      "127.0.0.1:9464";  // port 0 picks a free port; "" disables /metrics
  std::string backend = "auto";  // auto | cpu | cuda
  int threads = 0;  // kernel threads per job; 0 = hardware concurrency
  int workers = 2;  // concurrent jobs (factorize / solve)
  int64_t cache_bytes = int64_t{8} << 30;   // host factor-cache budget
  int64_t device_cache_bytes = int64_t{0};  // CUDA budget (0 = no limit)
  absl::Duration idle_ttl =
      absl::Hours(1);  // matrices unused that long are released
  int64_t max_n = 50'000'000;
  int64_t max_nnz = 500'000'000;
  int64_t max_message_bytes = 4 << 20;  // gRPC max receive message size
  int max_queue = 256;                  // queued jobs before RESOURCE_EXHAUSTED
  // Solver RPCs open at once (streams included) before RESOURCE_EXHAUSTED;
  // 0 = unlimited. Health checks are not counted.
  int max_concurrent_requests = 1024;

  // Security (docs/security.md). TLS when tls_cert_file is set (PEM
  // certificate chain and private key); with tls_client_ca_file, clients
  // must present a certificate signed by that CA (mutual TLS).
  std::string tls_cert_file;
  std::string tls_key_file;
  std::string tls_client_ca_file;
  // `token tenant` lines; empty: authentication off (one anonymous tenant).
  std::string auth_tokens_file;
  // Bytes of matrices and factors one tenant may hold; 0 = unlimited.
  int64_t tenant_cache_bytes = 0;
  // How often the tokens file and the TLS files are read again for changes
  // (SIGHUP reads them at once); zero: only on SIGHUP (Server::Reload).
  absl::Duration reload_interval = absl::Minutes(1);

  // On Shutdown, how long to keep serving new requests after readiness
  // turns NOT_SERVING, so that proxies and balancers that poll readiness
  // (HAProxy's check of /ready, Kubernetes endpoints) stop sending before
  // the port closes. Counted within the shutdown grace.
  absl::Duration drain_delay = absl::ZeroDuration();
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_CONFIG_H_
