#include "bench/loopback.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"

namespace factord::bench {

int ThreadsOrAllCores(int requested) {
  return requested > 0
             ? requested
             : std::max(1,
                        static_cast<int>(std::thread::hardware_concurrency()));
}

Loopback::~Loopback() {
  client.reset();
  if (server) server->Shutdown(absl::Seconds(5));
}

absl::StatusOr<std::unique_ptr<Loopback>> StartLoopback(
    server::ServerConfig config, const client::ConnectOptions& options) {
  config.listen = "127.0.0.1:0";
  config.metrics_listen = "";
  auto loopback = std::make_unique<Loopback>();
  absl::StatusOr<std::unique_ptr<server::Server>> server =
      server::Server::Start(config);
  if (!server.ok()) {
    return absl::Status(server.status().code(),
                        absl::StrCat("server: ", server.status().message()));
  }
  loopback->server = *std::move(server);
  absl::StatusOr<std::unique_ptr<client::Client>> client =
      client::Client::Connect(
          absl::StrCat("127.0.0.1:", loopback->server->port()), options);
  if (!client.ok()) {
    return absl::Status(client.status().code(),
                        absl::StrCat("client: ", client.status().message()));
  }
  loopback->client = *std::move(client);
  return loopback;
}

}  // namespace factord::bench
