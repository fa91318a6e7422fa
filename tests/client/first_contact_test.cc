// A client's first connection (client/first_contact.h): an address where
// nothing listens fails at once, eagerly (Connect with a connect timeout)
// and lazily (the first call), with UNAVAILABLE naming the address and how
// to start a daemon there, and without retries; a daemon that comes up
// there later is then reached by the same client. A daemon that was
// reached and went away is retried instead (retry_test.cc).
#include "client/first_contact.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "absl/time/clock.h"
#include "client/factord_client.h"
#include "client/retry.h"
#include "gtest/gtest.h"
#include "server/config.h"
#include "server/server.h"

namespace factord::client {
namespace {

// A loopback port that nothing listens on: one the kernel handed out and
// that was closed again (connections to it are refused).
int FreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  EXPECT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  close(fd);
  return ntohs(address.sin_port);
}

// The never-reached failure for `target`: UNAVAILABLE, marked, its message
// naming the target and the command that starts a daemon there.
void ExpectNeverReached(const absl::Status& status, const std::string& target) {
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_EQ(ErrorReason(status), "UNAVAILABLE");
  EXPECT_TRUE(DaemonNeverReached(status)) << status;
  EXPECT_FALSE(internal::RetriedInTransit(status));
  EXPECT_EQ(ErrorMetadata(status)["target"], target);
  EXPECT_NE(status.message().find("no factord daemon answers at " + target),
            absl::string_view::npos)
      << status;
  EXPECT_NE(status.message().find("factord --listen=" + target),
            absl::string_view::npos)
      << status;
  // gRPC's own account of the failure is kept.
  EXPECT_NE(status.message().find("onnection refused"), absl::string_view::npos)
      << status;
}

TEST(FirstContact, ARefusedConnectFailsAtOnceNotAfterItsTimeout) {
  const std::string target = "127.0.0.1:" + std::to_string(FreeLoopbackPort());
  ConnectOptions options;
  options.connect_timeout = absl::Seconds(10);
  const absl::Time start = absl::Now();
  absl::Status status = Client::Connect(target, options).status();
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  ExpectNeverReached(status, target);
}

TEST(FirstContact, ALazyClientsFirstCallFailsAtOnceWithoutRetries) {
  const std::string target = "127.0.0.1:" + std::to_string(FreeLoopbackPort());
  absl::StatusOr<std::unique_ptr<Client>> client = Client::Connect(target);
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_GT((*client)->options().retry.max_attempts, 1);  // retries are on
  for (int call = 0; call < 2; ++call) {
    const absl::Time start = absl::Now();
    absl::Status status = (*client)->Info().status();
    EXPECT_LT(absl::Now() - start, absl::Seconds(2)) << call;
    ExpectNeverReached(status, target);
  }
  const std::vector<double> values = {1};
  absl::Status update = (*client)->UpdateValues("m", values).status();
  ExpectNeverReached(update, target);
  EXPECT_EQ((*client)->retries(), 0);
}

TEST(FirstContact, ADaemonStartedLaterIsReachedByTheSameClient) {
  const int port = FreeLoopbackPort();
  const std::string target = "127.0.0.1:" + std::to_string(port);
  absl::StatusOr<std::unique_ptr<Client>> client = Client::Connect(target);
  ASSERT_TRUE(client.ok()) << client.status();
  ExpectNeverReached((*client)->Info().status(), target);

  server::ServerConfig config;
  config.listen = target;
  config.metrics_listen = "";
  config.threads = 1;
  config.workers = 1;
  absl::StatusOr<std::unique_ptr<server::Server>> daemon =
      server::Server::Start(config);
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  // The channel tries again within ConnectOptions::max_reconnect_backoff
  // (1 s); until then a call may still find it failed.
  absl::Status status = absl::UnknownError("no call made");
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (absl::Now() < deadline) {
    status = (*client)->Info().status();
    if (status.ok()) break;
    EXPECT_TRUE(DaemonNeverReached(status)) << status;
    absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_TRUE(status.ok()) << status;
  (*daemon)->Shutdown(absl::Seconds(5));
}

TEST(FirstContact, NeverReachedErrorNamesTheListenAddressOfADnsTarget) {
  absl::Status status =
      internal::NeverReachedError("dns:///factord:50051", "refused");
  EXPECT_TRUE(DaemonNeverReached(status));
  EXPECT_NE(status.message().find("factord --listen=factord:50051`"),
            absl::string_view::npos)
      << status;
  // Another UNAVAILABLE is not the never-reached one.
  EXPECT_FALSE(DaemonNeverReached(absl::UnavailableError("refused")));
}

}  // namespace
}  // namespace factord::client
