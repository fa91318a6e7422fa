// The client's retry policy (ConnectOptions::retry, client/retry.h): which
// failures are retried (in transit: UNAVAILABLE, and INTERNAL / UNKNOWN /
// CANCELLED without factord's details; never a daemon's own answer), the
// backoff, the defaults (on) and the total timeout, a retried upload that
// finds its own first attempt, a Release of a matrix the daemon lost, a
// daemon that goes away and comes back while calls retry (then NOT_FOUND
// and the transparent re-upload), also with the default policy, and one
// that stays away. The same policy behind HAProxy and nginx with a daemon
// killed: tests/fleet.
#include "client/retry.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "client/grpc_status.h"
#include "client/matrix_arrays.h"
#include "core/matrix/matrix_market.h"
#include "factord/v1/solver.grpc.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/config.h"
#include "server/server.h"
#include "test_data.h"

namespace factord::client {
namespace {

namespace pb = ::factord::v1;

// A failed call as factord sends it (an ErrorInfo in the details).
grpc::Status WithDetails(grpc::StatusCode code, const std::string& reason) {
  google::rpc::Status status;
  status.set_code(code);
  status.set_message(reason);
  google::rpc::ErrorInfo info;
  info.set_reason(reason);
  info.set_domain("factord.v1");
  status.add_details()->PackFrom(info);
  return grpc::Status(code, reason, status.SerializeAsString());
}

TEST(RetryPolicy, OnlyFailuresInTransitAreRetried) {
  using internal::FromGrpcStatus;
  using internal::RetriedInTransit;
  // From gRPC or a proxy: no details.
  for (grpc::StatusCode code :
       {grpc::StatusCode::UNAVAILABLE, grpc::StatusCode::INTERNAL,
        grpc::StatusCode::UNKNOWN, grpc::StatusCode::CANCELLED}) {
    EXPECT_TRUE(RetriedInTransit(FromGrpcStatus(grpc::Status(code, "reset"))))
        << code;
  }
  for (grpc::StatusCode code :
       {grpc::StatusCode::DEADLINE_EXCEEDED, grpc::StatusCode::NOT_FOUND,
        grpc::StatusCode::RESOURCE_EXHAUSTED,
        grpc::StatusCode::INVALID_ARGUMENT}) {
    EXPECT_FALSE(RetriedInTransit(FromGrpcStatus(grpc::Status(code, "x"))))
        << code;
  }
  // From a daemon: its own verdicts are final, but UNAVAILABLE (draining)
  // is worth another try.
  EXPECT_FALSE(RetriedInTransit(
      FromGrpcStatus(WithDetails(grpc::StatusCode::INTERNAL, "INTERNAL"))));
  EXPECT_FALSE(RetriedInTransit(
      FromGrpcStatus(WithDetails(grpc::StatusCode::CANCELLED, "CANCELLED"))));
  EXPECT_TRUE(RetriedInTransit(FromGrpcStatus(
      WithDetails(grpc::StatusCode::UNAVAILABLE, "UNAVAILABLE"))));
  // Made by the client library itself.
  EXPECT_FALSE(RetriedInTransit(internal::ClientError(
      absl::StatusCode::kInternal, "INTERNAL", "malformed chunk")));
  EXPECT_FALSE(RetriedInTransit(absl::OkStatus()));
}

TEST(RetryPolicy, BackoffGrowsToItsCapWithJitter) {
  RetryPolicy policy;
  policy.initial_backoff = absl::Milliseconds(100);
  policy.backoff_multiplier = 2;
  policy.max_backoff = absl::Milliseconds(500);
  const absl::Status unavailable = absl::UnavailableError("down");
  const double expected_ms[] = {100, 200, 400, 500, 500};
  for (int attempt = 1; attempt <= 5; ++attempt) {
    for (int draw = 0; draw < 20; ++draw) {
      const double ms = absl::ToDoubleMilliseconds(
          internal::RetryBackoff(policy, attempt, unavailable));
      EXPECT_GE(ms, 0.8 * expected_ms[attempt - 1] - 1e-9) << attempt;
      EXPECT_LE(ms, 1.2 * expected_ms[attempt - 1] + 1e-9) << attempt;
    }
  }
}

// ServerInfo fails UNAVAILABLE (without details, as a proxy would) until
// `failures` calls were made; UploadMatrix reads the whole stream, keeps the
// matrix and then answers UNAVAILABLE once (the reply lost on the way), so
// the client's next attempt finds the ID taken.
class FlakyService final : public pb::Solver::Service {
 public:
  explicit FlakyService(int failures) : failures_(failures) {}

  grpc::Status ServerInfo(grpc::ServerContext*, const pb::ServerInfoRequest*,
                          pb::ServerInfoReply* reply) override {
    if (info_calls_.fetch_add(1) < failures_) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE, "no server");
    }
    reply->set_version("flaky");
    return grpc::Status::OK;
  }

  grpc::Status UploadMatrix(grpc::ServerContext*,
                            grpc::ServerReader<pb::UploadRequest>* reader,
                            pb::MatrixInfo* reply) override {
    pb::UploadRequest request;
    std::string id;
    while (reader->Read(&request)) {
      if (request.has_header()) id = request.header().id();
    }
    if (upload_calls_.fetch_add(1) == 0) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE, "reply lost");
    }
    return WithDetails(grpc::StatusCode::ALREADY_EXISTS, "ALREADY_EXISTS");
  }

  grpc::Status GetMatrix(grpc::ServerContext*,
                         const pb::GetMatrixRequest* request,
                         pb::MatrixInfo* reply) override {
    reply->set_id(request->id());
    reply->set_generation(1);
    reply->set_n(3);
    return grpc::Status::OK;
  }

  int info_calls() const { return info_calls_.load(); }
  int upload_calls() const { return upload_calls_.load(); }

 private:
  const int failures_;
  std::atomic<int> info_calls_{0};
  std::atomic<int> upload_calls_{0};
};

class FlakyServerTest : public ::testing::Test {
 protected:
  void Start(int failures) {
    service_ = std::make_unique<FlakyService>(failures);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port_);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  std::unique_ptr<Client> Connect(int max_attempts) {
    ConnectOptions options;
    options.rpc_timeout = absl::Seconds(10);
    options.retry.max_attempts = max_attempts;
    options.retry.initial_backoff = absl::Milliseconds(10);
    options.retry.max_backoff = absl::Milliseconds(40);
    auto c = Client::Connect("127.0.0.1:" + std::to_string(port_), options);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

  std::unique_ptr<FlakyService> service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

TEST_F(FlakyServerTest, UnavailableIsRetriedUpToMaxAttempts) {
  Start(/*failures=*/3);
  std::unique_ptr<Client> client = Connect(/*max_attempts=*/5);
  absl::StatusOr<ServerInfo> info = client->Info();
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->version, "flaky");
  EXPECT_EQ(client->retries(), 3);
  EXPECT_EQ(service_->info_calls(), 4);
}

TEST_F(FlakyServerTest, GivesUpAfterMaxAttemptsAndOneAttemptIsNoRetry) {
  Start(/*failures=*/100);
  std::unique_ptr<Client> client = Connect(/*max_attempts=*/3);
  EXPECT_EQ(client->Info().status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(client->retries(), 2);
  EXPECT_EQ(service_->info_calls(), 3);
  std::unique_ptr<Client> plain = Connect(/*max_attempts=*/1);
  EXPECT_EQ(plain->Info().status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(plain->retries(), 0);
  EXPECT_EQ(service_->info_calls(), 4);
}

TEST_F(FlakyServerTest, RetriesAreOnByDefault) {
  Start(/*failures=*/100);
  const RetryPolicy defaults;
  ASSERT_GT(defaults.max_attempts, 1);
  auto client = Client::Connect("127.0.0.1:" + std::to_string(port_));
  ASSERT_TRUE(client.ok()) << client.status();
  const absl::Time start = absl::Now();
  EXPECT_EQ((*client)->Info().status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ((*client)->retries(), defaults.max_attempts - 1);
  EXPECT_EQ(service_->info_calls(), defaults.max_attempts);
  // The backoffs in between, at least 80% of each (jitter).
  absl::Duration waits;
  absl::Duration wait = defaults.initial_backoff;
  for (int k = 1; k < defaults.max_attempts; ++k) {
    waits += std::min(wait, defaults.max_backoff);
    wait *= defaults.backoff_multiplier;
  }
  EXPECT_GE(absl::Now() - start, waits * 0.8);
  EXPECT_LT(absl::Now() - start, defaults.total_timeout);
}

TEST_F(FlakyServerTest, NoAttemptStartsAfterTheTotalTimeout) {
  Start(/*failures=*/100);
  ConnectOptions options;
  options.retry.max_attempts = 100;
  options.retry.initial_backoff = absl::Milliseconds(100);
  options.retry.max_backoff = absl::Milliseconds(100);
  options.retry.total_timeout = absl::Milliseconds(700);
  auto client = Client::Connect("127.0.0.1:" + std::to_string(port_), options);
  ASSERT_TRUE(client.ok()) << client.status();
  const absl::Time start = absl::Now();
  EXPECT_EQ((*client)->Info().status().code(), absl::StatusCode::kUnavailable);
  const absl::Duration elapsed = absl::Now() - start;
  EXPECT_LE(elapsed, absl::Milliseconds(700) + absl::Milliseconds(300));
  // About 700 / 100 attempts (+-20% jitter), far from 100.
  EXPECT_GE(service_->info_calls(), 4);
  EXPECT_LE(service_->info_calls(), 10);
}

TEST_F(FlakyServerTest, ARetriedUploadThatFindsItsOwnFirstAttemptAdoptsIt) {
  Start(/*failures=*/0);
  std::unique_ptr<Client> client = Connect(/*max_attempts=*/3);
  const std::vector<int64_t> row_ptr = {0, 1, 2, 3};
  const std::vector<int32_t> col_idx = {0, 1, 2};
  const std::vector<double> values = {1, 2, 3};
  CsrArrays m{3, "general", row_ptr, col_idx, values};
  absl::StatusOr<MatrixInfo> info = client->Upload(m, "mine");
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->id, "mine");
  EXPECT_EQ(info->generation, 1u);
  EXPECT_EQ(service_->upload_calls(), 2);
  EXPECT_EQ(client->retries(), 1);
  // Without a retry before it, ALREADY_EXISTS is the answer.
  EXPECT_EQ(client->Upload(m, "mine").status().code(),
            absl::StatusCode::kAlreadyExists);
}

std::unique_ptr<server::Server> StartOn(int port) {
  server::ServerConfig config;
  config.listen = "127.0.0.1:" + std::to_string(port);
  config.metrics_listen = "";
  config.threads = 1;
  config.workers = 2;
  absl::StatusOr<std::unique_ptr<server::Server>> s =
      server::Server::Start(config);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

TEST(RetryAndReupload, ADaemonGoneAndBackIsRetriedThenRestored) {
  absl::StatusOr<CsrMatrix> a =
      ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  a->structure = Structure::kSpdLower;
  std::unique_ptr<server::Server> daemon = StartOn(0);
  ASSERT_NE(daemon, nullptr);
  const int port = daemon->port();
  ConnectOptions options;
  options.rpc_timeout = absl::Seconds(30);
  options.reupload_on_not_found = true;
  options.retry.max_attempts = 12;
  options.retry.initial_backoff = absl::Milliseconds(50);
  options.retry.max_backoff = absl::Milliseconds(500);
  auto client = Client::Connect("127.0.0.1:" + std::to_string(port), options);
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_TRUE((*client)->Upload(ArraysOf(*a), "kept").ok());
  FactorizeOptions ldlt;
  ldlt.method = "ldlt";
  ASSERT_TRUE((*client)->Factorize("kept", ldlt).ok());

  // The daemon goes away; a new one (holding nothing) comes up on the same
  // port 300 ms later, while the Solve below is retrying.
  daemon->Shutdown(absl::Seconds(5));
  daemon.reset();
  std::thread restart([&daemon, port] {
    absl::SleepFor(absl::Milliseconds(300));
    daemon = StartOn(port);
  });
  const std::vector<std::vector<double>> rhs = {
      std::vector<double>(a->rows, 1.0)};
  absl::StatusOr<std::vector<SolveResult>> x = (*client)->Solve("kept", rhs);
  restart.join();
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_EQ((*x)[0].status, "converged");
  EXPECT_GE((*client)->retries(), 1);
  EXPECT_EQ((*client)->reuploads(), 1);

  // A matrix the new daemon lost as well: its Release frees nothing, and
  // is not an error for a client that uploaded it.
  daemon->Shutdown(absl::Seconds(5));
  daemon = StartOn(port);
  ASSERT_NE(daemon, nullptr);
  absl::StatusOr<int64_t> freed = (*client)->Release("kept");
  ASSERT_TRUE(freed.ok()) << freed.status();
  EXPECT_EQ(*freed, 0);
  // An ID it never uploaded stays NOT_FOUND.
  EXPECT_EQ((*client)->Release("never").status().code(),
            absl::StatusCode::kNotFound);
}

// With the default policy (nothing set but the re-upload): a daemon shut
// down and started again on its port 2.5 s later, longer than all the
// default backoffs together (1.5 s), while calls are made. They wait for it
// (the retry window, 15 s) and succeed.
TEST(RetryAndReupload, TheDefaultPolicyWaitsForARestartedDaemon) {
  absl::StatusOr<CsrMatrix> a =
      ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  a->structure = Structure::kSpdLower;
  std::unique_ptr<server::Server> daemon = StartOn(0);
  ASSERT_NE(daemon, nullptr);
  const int port = daemon->port();
  ConnectOptions options;
  options.reupload_on_not_found = true;
  auto client = Client::Connect("127.0.0.1:" + std::to_string(port), options);
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_TRUE((*client)->Upload(ArraysOf(*a), "kept").ok());

  daemon->Shutdown(absl::Seconds(5));
  daemon.reset();
  const absl::Duration down = absl::Milliseconds(2500);
  std::thread restart([&daemon, port, down] {
    absl::SleepFor(down);
    daemon = StartOn(port);
  });
  const absl::Time start = absl::Now();
  absl::StatusOr<ServerInfo> info = (*client)->Info();
  const absl::Duration waited = absl::Now() - start;
  restart.join();
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_GE(waited, down * 0.9);
  EXPECT_LT(waited, RetryPolicy().total_timeout);
  EXPECT_GE((*client)->retries(), 1);
  // The new daemon holds nothing: the factorization re-uploads first.
  FactorizeOptions ldlt;
  ldlt.method = "ldlt";
  absl::StatusOr<FactorizeResult> factor = (*client)->Factorize("kept", ldlt);
  ASSERT_TRUE(factor.ok()) << factor.status();
  EXPECT_EQ((*client)->reuploads(), 1);
  daemon->Shutdown(absl::Seconds(5));
}

// A daemon that was reached and stays away: a call fails UNAVAILABLE (not
// the never-reached error) when the retry window ends.
TEST(RetryAndReupload, ADaemonThatStaysAwayFailsTheCallAtTheWindowsEnd) {
  std::unique_ptr<server::Server> daemon = StartOn(0);
  ASSERT_NE(daemon, nullptr);
  ConnectOptions options;
  options.retry.total_timeout = absl::Seconds(1);
  auto client =
      Client::Connect("127.0.0.1:" + std::to_string(daemon->port()), options);
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_TRUE((*client)->Info().ok());
  daemon->Shutdown(absl::Seconds(5));
  daemon.reset();
  const absl::Time start = absl::Now();
  absl::Status status = (*client)->Info().status();
  const absl::Duration waited = absl::Now() - start;
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_FALSE(DaemonNeverReached(status)) << status;
  EXPECT_GE(waited, absl::Milliseconds(900));
  EXPECT_LT(waited, absl::Seconds(3));
}

}  // namespace
}  // namespace factord::client
