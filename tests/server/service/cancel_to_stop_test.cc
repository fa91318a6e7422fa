// Cancel-to-stop latency: long factorizations and solves are
// cancelled at a random point, by a client TryCancel or by a short deadline,
// and the time from the cancel until the server's work is gone is measured.
// Work is gone when /metrics reports no RPC in flight: the Factorize reactor
// finishes from its worker after the numeric phase stopped, and the Solve
// reactor finishes only when none of its jobs runs (solve_reactor.cc), so
// the gauge falls only after the numerical loops have returned. The bound
// is the issue's: p99 <= 1 s.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "httplib.h"
#include "server/service_fixture.h"

namespace factord::server::testing {
namespace {

using Clock = std::chrono::steady_clock;

// The 7-point Laplacian of an m x m x m grid, lower triangle (SPD).
CsrMatrix Laplacian3d(int m) {
  CsrMatrix a;
  a.rows = a.cols = int64_t{m} * m * m;
  a.structure = Structure::kSpdLower;
  a.row_ptr.push_back(0);
  auto index = [m](int i, int j, int k) { return (k * m + j) * m + i; };
  for (int k = 0; k < m; ++k) {
    for (int j = 0; j < m; ++j) {
      for (int i = 0; i < m; ++i) {
        // Lower neighbours in increasing column order, then the diagonal.
        if (k > 0) a.col_idx.push_back(index(i, j, k - 1));
        if (j > 0) a.col_idx.push_back(index(i, j - 1, k));
        if (i > 0) a.col_idx.push_back(index(i - 1, j, k));
        while (a.values.size() < a.col_idx.size()) a.values.push_back(-1.0);
        a.col_idx.push_back(index(i, j, k));
        a.values.push_back(6.0);
        a.row_ptr.push_back(static_cast<int64_t>(a.col_idx.size()));
      }
    }
  }
  return a;
}

// The /metrics scrape says no RPC is in flight.
bool Idle(httplib::Client& http) {
  auto res = http.Get("/metrics");
  return res &&
         res->body.find("\nfactord_inflight_requests 0\n") != std::string::npos;
}

// Seconds until Idle(), polled every 2 ms; -1 after `timeout_s`.
double SecondsUntilIdle(httplib::Client& http, Clock::time_point since,
                        double timeout_s) {
  while (true) {
    const double waited =
        std::chrono::duration<double>(Clock::now() - since).count();
    if (Idle(http)) return std::max(0.0, waited);
    if (waited > timeout_s) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  // Nearest rank.
  const size_t rank = static_cast<size_t>(std::ceil(p * v.size()));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

class CancelToStopTest : public ServiceTest {
 protected:
  void SetUp() override {
    ServiceTest::SetUp();
    v1::MatrixInfo info;
    // ldlt in natural order on a 3-D grid: a band of m^2, so about
    // m^7 flops in fronts of m^2 rows, seconds of work checked per front.
    ASSERT_TRUE(
        UploadCsr("factor", Laplacian3d(kFactorGrid), 4096, &info).ok());
    // An endless solve: CG to 1e-300, checked every iteration.
    ASSERT_TRUE(UploadCsr("solve", Laplacian3d(kSolveGrid), 4096, &info).ok());
    v1::FactorizeReply reply;
    grpc::Status s = Factorize("solve", v1::METHOD_JACOBI, &reply);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }

  grpc::Status LongFactorize(grpc::ClientContext* ctx) {
    v1::FactorizeRequest request;
    request.set_id("factor");
    request.set_method(v1::METHOD_LDLT);
    request.mutable_options()->set_ordering(v1::ORDERING_NATURAL);
    v1::FactorizeReply reply;
    return stub_->Factorize(ctx, request, &reply);
  }

  grpc::Status LongSolve(grpc::ClientContext* ctx) {
    auto stream = stub_->Solve(ctx);
    v1::SolveRequest request;
    request.set_id("solve");
    request.mutable_options()->set_krylov(v1::KRYLOV_CG);
    request.mutable_options()->set_tolerance(1e-300);
    request.mutable_options()->set_max_iterations(2'000'000'000);
    const int64_t n = int64_t{kSolveGrid} * kSolveGrid * kSolveGrid;
    for (int64_t i = 0; i < n; ++i) request.add_values(1.0);
    request.set_last(true);
    stream->Write(request);
    stream->WritesDone();
    v1::SolveReply reply;
    while (stream->Read(&reply)) {
    }
    return stream->Finish();
  }

  static constexpr int kFactorGrid = 22;  // n = 10648, band 484
  static constexpr int kSolveGrid = 40;   // n = 64000
};

TEST_F(CancelToStopTest, P99FromCancelToStopIsAtMostOneSecond) {
  httplib::Client http("127.0.0.1", server_->metrics_port());
  std::mt19937 rng(20261108);
  std::uniform_int_distribution<int> delay_ms(50, 600);
  // Each kind of request with each kind of cancel, 6 times: 24 requests.
  struct Sample {
    const char* what;
    double seconds;
  };
  std::vector<Sample> samples;
  int finished_first = 0;
  // How long one factorization runs when left alone: factorizations are
  // cancelled within its first quarter, so that they are still running
  // at the cancel however fast the machine is (the solves never end).
  double factor_s = 0;
  {
    grpc::ClientContext ctx;
    const Clock::time_point start = Clock::now();
    grpc::Status s = LongFactorize(&ctx);
    ASSERT_TRUE(s.ok()) << s.error_message();
    factor_s = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("uncancelled factorization: %.3f s\n", factor_s);
  }
  ASSERT_GE(factor_s, 0.1) << "the factorization is too short to cancel";
  std::uniform_real_distribution<double> factor_fraction(0.02, 0.25);
  for (int round = 0; round < 6; ++round) {
    for (bool factorize : {true, false}) {
      for (bool deadline : {false, true}) {
        ASSERT_GE(SecondsUntilIdle(http, Clock::now(), 10), 0)
            << "the server is busy before the request";
        const auto delay = std::chrono::milliseconds(
            factorize ? std::max(5, static_cast<int>(1000 * factor_s *
                                                     factor_fraction(rng)))
                      : delay_ms(rng));
        grpc::ClientContext ctx;
        const Clock::time_point start = Clock::now();
        if (deadline)
          ctx.set_deadline(std::chrono::system_clock::now() + delay);
        grpc::Status status;
        std::thread call([&] {
          status = factorize ? LongFactorize(&ctx) : LongSolve(&ctx);
        });
        std::this_thread::sleep_until(start + delay);
        const Clock::time_point cancelled = Clock::now();
        if (!deadline) ctx.TryCancel();
        const double stop_s = SecondsUntilIdle(http, cancelled, 30);
        call.join();
        const char* what =
            factorize ? (deadline ? "factorize/deadline" : "factorize/cancel")
                      : (deadline ? "solve/deadline" : "solve/cancel");
        // A factorization may still finish before a late cancel when the
        // machine is quicker than during the calibration run: no sample.
        if (factorize && status.ok()) {
          ++finished_first;
          continue;
        }
        // Still running at the cancel: the request did not complete.
        EXPECT_EQ(status.error_code(), deadline
                                           ? grpc::StatusCode::DEADLINE_EXCEEDED
                                           : grpc::StatusCode::CANCELLED)
            << what << " after " << delay.count()
            << " ms: " << status.error_message();
        ASSERT_GE(stop_s, 0) << what << ": still working 30 s after the cancel";
        samples.push_back({what, stop_s});
      }
    }
  }
  std::printf("%d factorizations finished before their cancel\n",
              finished_first);
  ASSERT_GE(samples.size(), 20u) << "too few requests were still running";
  std::vector<double> all;
  for (const Sample& s : samples) all.push_back(s.seconds);
  const double p50 = Percentile(all, 0.5), p99 = Percentile(all, 0.99);
  std::printf("cancel-to-stop over %zu requests: p50 %.4f s, p99 %.4f s\n",
              all.size(), p50, p99);
  for (const char* kind : {"factorize/cancel", "factorize/deadline",
                           "solve/cancel", "solve/deadline"}) {
    std::vector<double> some;
    for (const Sample& s : samples) {
      if (std::string(s.what) == kind) some.push_back(s.seconds);
    }
    std::printf("  %-18s p50 %.4f s, max %.4f s\n", kind, Percentile(some, 0.5),
                Percentile(some, 1.0));
  }
  EXPECT_LE(p99, 1.0);
}

}  // namespace
}  // namespace factord::server::testing
