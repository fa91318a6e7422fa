// A factord server in the benchmark's own process on 127.0.0.1 and one
// client connected to it: what the remote benchmarks measure against.
#ifndef FACTORD_BENCH_LOOPBACK_H_
#define FACTORD_BENCH_LOOPBACK_H_

#include <memory>

#include "absl/status/statusor.h"
#include "client/factord_client.h"
#include "server/config.h"
#include "server/server.h"

namespace factord::bench {

// `requested` if > 0, else every core of the machine.
int ThreadsOrAllCores(int requested);

// The client is declared after the server, so it goes first.
struct Loopback {
  std::unique_ptr<server::Server> server;
  std::unique_ptr<client::Client> client;
  ~Loopback();
};

// Starts a server with `config` on 127.0.0.1:0 (no metrics endpoint) and
// connects a client with `options`. The message of a failure names which
// of the two failed.
absl::StatusOr<std::unique_ptr<Loopback>> StartLoopback(
    server::ServerConfig config, const client::ConnectOptions& options);

}  // namespace factord::bench

#endif  // FACTORD_BENCH_LOOPBACK_H_
