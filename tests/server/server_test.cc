// The Server object: start-up checks (a taken address among them),
// shutdown, and resident memory after many rejected uploads (no memory kept
// from a refused stream).
#include "server/server.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <thread>

#include "httplib.h"
#include "server/service_fixture.h"

namespace factord::server::testing {
namespace {

int64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

TEST(ServerStart, RejectsBadConfigAndCuda) {
  ServerConfig c = TestConfig();
  c.backend = "cuda";
  absl::Status s = Server::Start(c).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  // No GPU here: the message says why (no device, with the runtime's
  // error, or no CUDA backend in this build).
  EXPECT_TRUE(
      s.message().find("backend cuda requested, but no CUDA device: ") == 0 ||
      s.message() ==
          "backend cuda requested, but this build has no CUDA backend; use "
          "--backend=cpu or auto")
      << s;
  c.backend = "tpu";
  EXPECT_EQ(Server::Start(c).status().code(),
            absl::StatusCode::kInvalidArgument);
  c = TestConfig();
  c.workers = 0;
  EXPECT_EQ(Server::Start(c).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ServerStart, PortsAreReportedAndMetricsCanBeDisabled) {
  ServerConfig c = TestConfig();
  c.metrics_listen = "";
  auto server = Server::Start(c);
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_GT((*server)->port(), 0);
  EXPECT_EQ((*server)->metrics_port(), 0);
  (*server)->Shutdown(absl::Seconds(1));
  (*server)->Shutdown(absl::Seconds(1));  // idempotent
  (*server)->Wait();
}

// A second server on the address of a running one does not start (gRPC's
// default SO_REUSEPORT would let both listen on the port) and says why,
// for the gRPC port and for the /metrics port; the first serves on.
TEST(ServerStart, ASecondServerOnATakenAddressFailsAndTheFirstServes) {
  auto first = Server::Start(TestConfig());
  ASSERT_TRUE(first.ok()) << first.status();
  const std::string grpc_address =
      "127.0.0.1:" + std::to_string((*first)->port());
  const std::string metrics_address =
      "127.0.0.1:" + std::to_string((*first)->metrics_port());

  ServerConfig same_grpc = TestConfig();
  same_grpc.listen = grpc_address;
  absl::Status s = Server::Start(same_grpc).status();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("address in use"), std::string::npos) << s;
  EXPECT_NE(s.message().find(grpc_address), std::string::npos) << s;

  ServerConfig same_metrics = TestConfig();
  same_metrics.metrics_listen = metrics_address;
  s = Server::Start(same_metrics).status();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("address in use"), std::string::npos) << s;
  EXPECT_NE(s.message().find(metrics_address), std::string::npos) << s;

  auto stub = v1::Solver::NewStub(
      grpc::CreateChannel(grpc_address, grpc::InsecureChannelCredentials()));
  for (int i = 0; i < 4; ++i) {  // new connections, all to the first
    grpc::ClientContext ctx;
    v1::ServerInfoReply info;
    EXPECT_TRUE(stub->ServerInfo(&ctx, {}, &info).ok());
  }
  httplib::Client metrics("127.0.0.1", (*first)->metrics_port());
  auto scrape = metrics.Get("/metrics");
  ASSERT_TRUE(scrape);
  EXPECT_EQ(scrape->status, 200);
  (*first)->Shutdown(absl::Seconds(1));
}

TEST(ServerShutdown, ReadyTurns503AndNewRequestsAreServedDuringDrainDelay) {
  ServerConfig c = TestConfig();
  c.drain_delay = absl::Seconds(1);
  auto server = Server::Start(c);
  ASSERT_TRUE(server.ok()) << server.status();
  httplib::Client http("127.0.0.1", (*server)->metrics_port());
  auto ready = http.Get("/ready");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);
  auto stub = v1::Solver::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string((*server)->port()),
                          grpc::InsecureChannelCredentials()));

  const absl::Time start = absl::Now();
  std::thread stopper([&] { (*server)->Shutdown(absl::Seconds(10)); });
  absl::SleepFor(absl::Milliseconds(300));
  ready = http.Get("/ready");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 503);
  EXPECT_EQ(ready->body, "NOT_SERVING\n");
  // Proxies have not noticed yet: a new request is still served.
  grpc::ClientContext context;
  v1::ServerInfoReply info;
  EXPECT_TRUE(stub->ServerInfo(&context, v1::ServerInfoRequest(), &info).ok());
  stopper.join();
  EXPECT_GE(absl::Now() - start, absl::Seconds(1));
  (*server)->Wait();
}

TEST_F(ServiceTest, MetricsEndpointHasTheFamiliesAfterTraffic) {
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", Tridiagonal(30), 10, &info).ok());
  v1::FactorizeReply fr;
  grpc::Status s = Factorize("m", v1::METHOD_LU, &fr);
  ASSERT_TRUE(s.ok()) << s.error_message();
  std::map<uint32_t, Solution> out;
  ASSERT_TRUE(Solve("m", {std::vector<double>(30, 1.0)}, 30, &out).ok());
  EXPECT_EQ(Factorize("none", v1::METHOD_LU, &fr).error_code(),
            grpc::StatusCode::NOT_FOUND);

  httplib::Client http("127.0.0.1", server_->metrics_port());
  auto res = http.Get("/metrics");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  const std::string& text = res->body;
  for (const char* needle : {
           "factord_rpc_requests_total{code=\"OK\",method=\"UploadMatrix\"} 1",
           "factord_rpc_requests_total{code=\"NOT_FOUND\",method=\"Factorize\"}"
           " 1",
           "factord_rpc_duration_seconds_bucket{method=\"Solve\"",
           "factord_factorize_duration_seconds_count{backend=\"cpu\",method="
           "\"lu\"} 1",
           "factord_solve_duration_seconds_count{backend=\"cpu\",method=\"lu\"}"
           " 1",
           "factord_solve_iterations_count 1",
           "factord_solve_relative_residual_count 1",
           "factord_cache_entries 1",
           "factord_cache_hits_total",
           "factord_cache_misses_total 1",
           "factord_cache_evictions_total 0",
           "factord_analysis_reused_total 0",
           "factord_device_memory_bytes 0",
           "factord_queue_length 0",
           "factord_inflight_requests 0",
           "factord_build_info{backend=\"cpu\"",
       }) {
    EXPECT_NE(text.find(needle), std::string::npos) << needle;
  }
  EXPECT_EQ(text.find("m\""), std::string::npos)
      << "a matrix id leaked into labels";
  // The value of an unlabelled sample: the line that starts with `name `.
  auto value = [&text](const std::string& name) {
    const size_t at = text.find("\n" + name + " ");
    return at == std::string::npos
               ? -1.0
               : std::stod(text.substr(at + name.size() + 2));
  };
  EXPECT_GT(value("factord_received_bytes_total"), 0);
  EXPECT_GT(value("factord_cache_bytes"), 0);
  EXPECT_GE(value("factord_cache_hits_total"), 2);  // factorize + solve
}

TEST_F(ServiceTest, ResidentMemoryStaysFlatOver1000RejectedUploads) {
  // Each rejected upload carries a partial matrix of 2000 rows (about 72
  // KiB) that must be dropped with the stream.
  const CsrMatrix a = Tridiagonal(4000);
  auto bad_upload = [&](int i) {
    std::vector<v1::UploadRequest> m;
    v1::UploadRequest header;
    header.mutable_header()->set_id("bad");
    header.mutable_header()->set_n(a.rows);
    header.mutable_header()->set_nnz(a.nnz());
    m.push_back(header);
    v1::UploadRequest chunk;
    for (int r = 0; r < 2000; ++r) {
      chunk.mutable_csr()->add_row_nnz(a.row_ptr[r + 1] - a.row_ptr[r]);
    }
    for (int64_t k = 0; k < a.row_ptr[2000]; ++k) {
      chunk.mutable_csr()->add_col_idx(a.col_idx[k]);
      chunk.mutable_csr()->add_values(a.values[k]);
    }
    switch (i % 3) {
      case 0:  // stops half way
        break;
      case 1:  // a NaN at the end of the chunk
        chunk.mutable_csr()->set_values(
            chunk.csr().values_size() - 1,
            std::numeric_limits<double>::quiet_NaN());
        break;
      case 2:  // a column out of range
        chunk.mutable_csr()->set_col_idx(chunk.csr().col_idx_size() - 1, 4000);
        break;
    }
    m.push_back(chunk);
    return UploadRaw(m);
  };
  for (int i = 0; i < 100; ++i) {  // warm up gRPC's and malloc's pools
    ASSERT_EQ(bad_upload(i).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  const int64_t before = ResidentBytes();
  for (int i = 0; i < 1000; ++i) {
    grpc::Status s = bad_upload(i);
    ASSERT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << s.error_message();
  }
  const int64_t after = ResidentBytes();
  std::printf("resident bytes before %lld, after 1000 rejected uploads %lld\n",
              static_cast<long long>(before), static_cast<long long>(after));
  EXPECT_LE(after, before * 11 / 10)
      << "resident memory grew from " << before << " to " << after << " bytes";
  // And the daemon still serves.
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("good", a, 1000, &info).ok());
  EXPECT_EQ(info.nnz(), a.nnz());
}

}  // namespace
}  // namespace factord::server::testing
