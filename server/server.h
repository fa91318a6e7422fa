// The factord daemon in a process: gRPC service, factor cache, worker pools,
// /metrics and health. main.cc runs one; tests and benchmarks run one
// in-process on loopback ("127.0.0.1:0").
#ifndef FACTORD_SERVER_SERVER_H_
#define FACTORD_SERVER_SERVER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "server/config.h"

namespace factord::server {

// What one Server::Reload did.
struct ReloadResult {
  int applied = 0;                 // files put in force
  int refused = 0;                 // changed files that failed the checks
  std::vector<std::string> lines;  // the log lines written
};

class Server {
 public:
  // Resolves the backend, binds the ports and starts serving. Errors:
  // InvalidArgument (bad config), FailedPrecondition (backend unavailable),
  // Unavailable (a port cannot be bound).
  static absl::StatusOr<std::unique_ptr<Server>> Start(
      const ServerConfig& config);

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;
  ~Server();  // Shutdown(absl::Seconds(5)) if still running

  int port() const;          // the bound gRPC port
  int metrics_port() const;  // the bound /metrics port (0 if disabled)

  // Reads --auth_tokens_file and the TLS files again and puts in force
  // what changed and passes the start-up checks (new calls, new
  // connections); a changed file that fails them is refused with a log line
  // and the old one stays (server/auth/credential_reloader.h). Cached
  // factors and open streams are untouched. main.cc calls it on SIGHUP; a
  // timer calls it every config.reload_interval. Thread-safe.
  ReloadResult Reload();

  // Readiness NOT_SERVING (gRPC health and /ready), then keeps serving for
  // config.drain_delay so that proxies notice, waits up to `grace` (counted
  // from the call) for in-flight RPCs (their jobs included) to finish,
  // cancels the rest, stops. Idempotent.
  void Shutdown(absl::Duration grace);
  void Wait();  // blocks until shut down

 private:
  struct State;
  explicit Server(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVER_H_
