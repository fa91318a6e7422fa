// Deadlines and client cancels reach the numerical loops: a solve that would
// run (practically) forever stops, and the server is idle again.
#include <string>
#include <thread>

#include "httplib.h"
#include "server/service_fixture.h"

namespace factord::server::testing {
namespace {

// Waits until /metrics reports no RPC in flight.
bool BecomesIdle(int metrics_port, absl::Duration timeout) {
  httplib::Client http("127.0.0.1", metrics_port);
  const absl::Time end = absl::Now() + timeout;
  while (absl::Now() < end) {
    auto res = http.Get("/metrics");
    if (res && res->body.find("\nfactord_inflight_requests 0\n") !=
                   std::string::npos) {
      return true;
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  return false;
}

class CancellationTest : public ServiceTest {
 protected:
  void SetUp() override {
    ServiceTest::SetUp();
    v1::MatrixInfo info;
    ASSERT_TRUE(UploadCsr("big", Tridiagonal(n_), 5000, &info).ok());
    v1::FactorizeReply fr;
    grpc::Status s = Factorize("big", v1::METHOD_JACOBI, &fr);
    // jacobi is a method of the core: any error, UNIMPLEMENTED included,
    // fails every test of this fixture.
    ASSERT_TRUE(s.ok()) << "gRPC code " << s.error_code() << ": "
                        << s.error_message();
  }

  // A solve that cannot converge (tolerance 1e-300) and may iterate ~forever.
  grpc::Status EndlessSolve(grpc::ClientContext* ctx) {
    auto stream = stub_->Solve(ctx);
    v1::SolveRequest req;
    req.set_id("big");
    req.mutable_options()->set_krylov(v1::KRYLOV_GMRES);
    req.mutable_options()->set_tolerance(1e-300);
    req.mutable_options()->set_max_iterations(2'000'000'000);
    for (int64_t i = 0; i < n_; ++i) req.add_values(1.0);
    req.set_last(true);
    stream->Write(req);
    stream->WritesDone();
    v1::SolveReply reply;
    while (stream->Read(&reply)) {
    }
    return stream->Finish();
  }

  const int64_t n_ = 20000;
};

TEST_F(CancellationTest, DeadlineStopsTheSolve) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() +
                   std::chrono::milliseconds(300));
  grpc::Status s = EndlessSolve(&ctx);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED)
      << s.error_message();
  EXPECT_TRUE(BecomesIdle(server_->metrics_port(), absl::Seconds(5)))
      << "the solve kept running after its deadline";
}

TEST_F(CancellationTest, ClientCancelStopsTheSolve) {
  grpc::ClientContext ctx;
  std::thread canceller([&ctx] {
    absl::SleepFor(absl::Milliseconds(300));
    ctx.TryCancel();
  });
  grpc::Status s = EndlessSolve(&ctx);
  canceller.join();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::CANCELLED) << s.error_message();
  EXPECT_TRUE(BecomesIdle(server_->metrics_port(), absl::Seconds(5)))
      << "the solve kept running after the cancel";
  // The factorization is still there for the next client.
  std::map<uint32_t, Solution> out;
  grpc::Status ok = Solve("big", {std::vector<double>(n_, 1.0)}, 100000, &out);
  EXPECT_TRUE(ok.ok()) << ok.error_message();
}

TEST_F(CancellationTest, FullQueueIsResourceExhausted) {
  ServerConfig config = TestConfig();
  config.workers = 1;
  config.max_queue = 0;
  StartServer(config);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("big", Tridiagonal(n_), 5000, &info).ok());
  v1::FactorizeReply fr;
  ASSERT_TRUE(Factorize("big", v1::METHOD_JACOBI, &fr).ok());
  // The endless solve holds the only worker.
  grpc::ClientContext ctx;
  std::thread busy([&] { EndlessSolve(&ctx); });
  grpc::Status s;
  for (int i = 0; i < 100; ++i) {
    absl::SleepFor(absl::Milliseconds(20));
    s = Factorize("big", v1::METHOD_JACOBI, &fr);
    if (!s.ok()) break;
  }
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << s.error_message();
  EXPECT_NE(s.error_message().find("max_queue = 0"), std::string::npos)
      << s.error_message();
  ctx.TryCancel();
  busy.join();
  EXPECT_TRUE(BecomesIdle(server_->metrics_port(), absl::Seconds(5)));
  // The request gauge drops when the reply is sent, a moment before the
  // worker thread returns to the pool, so the worker is given up to 5 s.
  const absl::Time give_up = absl::Now() + absl::Seconds(5);
  do {
    s = Factorize("big", v1::METHOD_JACOBI, &fr);
    if (s.ok()) break;
    absl::SleepFor(absl::Milliseconds(20));
  } while (absl::Now() < give_up);
  EXPECT_TRUE(s.ok()) << s.error_message();
}

}  // namespace
}  // namespace factord::server::testing
