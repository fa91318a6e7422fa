// Every factord.v1.ErrorReason, triggered through a real daemon started
// in-process on loopback and seen through the client library: the gRPC
// code, the ErrorInfo reason (and domain), and the RetryInfo where retrying
// helps. One table row per reason, each with its own daemon configuration;
// a check at the end makes sure the table names every value of the enum.
//
// A few reasons are not the server's to send in a loopback run: UNAVAILABLE
// (nothing listening: the client names it), CANCELLED (the caller cancels:
// gRPC reports it and the client names it) and DEADLINE_EXCEEDED (either
// side may notice first). DEVICE_BUDGET, UNSUPPORTED and INTERNAL use the
// host-run device backend of the core tests.
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "client/factord_client.h"
#include "client/grpc_status.h"
#include "client/matrix_arrays.h"
#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"
#include "factord/v1/errors.pb.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/config.h"
#include "server/server.h"
#include "test_data.h"
#include "tests/core/linalg/reference_device_kernels.h"

namespace factord::client {
namespace {

namespace pb = ::factord::v1;

// An n x n SPD tridiagonal matrix (2 on the diagonal, -1 beside it), lower
// triangle.
CsrMatrix Tridiagonal(int64_t n) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSpdLower;
  a.row_ptr.push_back(0);
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0) {
      a.col_idx.push_back(static_cast<int32_t>(i - 1));
      a.values.push_back(-1.0);
    }
    a.col_idx.push_back(static_cast<int32_t>(i));
    a.values.push_back(2.0);
    a.row_ptr.push_back(static_cast<int64_t>(a.col_idx.size()));
  }
  return a;
}

// What one row's trigger works with.
struct Context {
  server::Server* server = nullptr;
  Client* client = nullptr;
  std::string target;
  CsrMatrix bus;    // 494_bus, SPD lower
  CsrMatrix small;  // 40 x 40 tridiagonal
  std::shared_ptr<testing::ReferenceDeviceKernels> device;
};

struct Row {
  pb::ErrorReason reason;
  absl::StatusCode code;
  bool retry_delay = false;  // a RetryInfo is expected
  // Daemon and client settings; `device` registers the host-run device
  // backend before the daemon starts (backend "cuda").
  std::function<void(server::ServerConfig&)> configure = nullptr;
  std::function<void(ConnectOptions&)> connect = nullptr;
  bool device = false;
  std::function<absl::Status(Context&)> trigger;
};

// The bearer token of the UNAUTHENTICATED row's tokens file.
constexpr char kToken[] = "token-of-tenant-a-0123456789";

std::string WriteTokensFile() {
  const std::string path =
      ::testing::TempDir() + "/factord_tokens." + std::to_string(::getpid());
  std::ofstream(path) << kToken << " tenant-a\n";
  ::chmod(path.c_str(), 0600);
  return path;
}

absl::Status Upload(Context& c, const CsrMatrix& a, const std::string& id) {
  return c.client->Upload(ArraysOf(a), id).status();
}

FactorizeOptions Method(const std::string& method) {
  FactorizeOptions o;
  o.method = method;
  return o;
}

const std::vector<Row>& Rows() {
  static const auto* rows = new std::vector<Row>{
      {.reason = pb::UNAUTHENTICATED,
       .code = absl::StatusCode::kUnauthenticated,
       .configure =
           [](server::ServerConfig& config) {
             config.auth_tokens_file = WriteTokensFile();
           },
       .trigger = [](Context& c) { return c.client->Info().status(); }},
      {.reason = pb::QUEUE_FULL,
       .code = absl::StatusCode::kResourceExhausted,
       .retry_delay = true,
       .configure =
           [](server::ServerConfig& config) {
             config.max_concurrent_requests = 1;
           },
       .trigger =
           [](Context& c) {
             // An upload stream left open holds the one request slot.
             auto channel = grpc::CreateChannel(
                 c.target, grpc::InsecureChannelCredentials());
             auto stub = pb::Solver::NewStub(channel);
             grpc::ClientContext context;
             pb::MatrixInfo reply;
             auto writer = stub->UploadMatrix(&context, &reply);
             pb::UploadRequest header;
             header.mutable_header()->set_id("holder");
             header.mutable_header()->set_n(1);
             header.mutable_header()->set_nnz(1);
             writer->Write(header);
             // The stream reaches the daemon a moment after Write returns.
             absl::Status status = c.client->Info().status();
             for (int i = 0; status.ok() && i < 200; ++i) {
               absl::SleepFor(absl::Milliseconds(10));
               status = c.client->Info().status();
             }
             context.TryCancel();
             (void)writer->Finish();
             return status;
           }},
      {.reason = pb::MATRIX_TOO_LARGE,
       .code = absl::StatusCode::kResourceExhausted,
       .configure = [](server::ServerConfig& config) { config.max_n = 100; },
       .trigger = [](Context& c) { return Upload(c, c.bus, "big"); }},
      {.reason = pb::CACHE_BUDGET,
       .code = absl::StatusCode::kResourceExhausted,
       .configure =
           [](server::ServerConfig& config) { config.cache_bytes = 4096; },
       .trigger = [](Context& c) { return Upload(c, c.bus, "big"); }},
      {.reason = pb::TENANT_QUOTA,
       .code = absl::StatusCode::kResourceExhausted,
       .configure =
           [](server::ServerConfig& config) {
             config.tenant_cache_bytes = 4096;
           },
       .trigger = [](Context& c) { return Upload(c, c.bus, "big"); }},
      {.reason = pb::MESSAGE_TOO_LARGE,
       .code = absl::StatusCode::kResourceExhausted,
       .configure =
           [](server::ServerConfig& config) {
             config.max_message_bytes = 4096;
           },
       // Chunks of about 6 KB (the budget counts worst-case encodings):
       // over max_message_bytes, under the transport's limit (twice it),
       // so the handler refuses them with the reason.
       .connect = [](ConnectOptions& o) { o.max_chunk_bytes = 8000; },
       .trigger = [](Context& c) { return Upload(c, c.bus, "chunky"); }},
      {.reason = pb::NOT_FOUND,
       .code = absl::StatusCode::kNotFound,
       .trigger =
           [](Context& c) { return c.client->Factorize("never").status(); }},
      {.reason = pb::ALREADY_EXISTS,
       .code = absl::StatusCode::kAlreadyExists,
       .trigger =
           [](Context& c) {
             if (absl::Status s = Upload(c, c.small, "twice"); !s.ok()) {
               return s;
             }
             return Upload(c, c.small, "twice");
           }},
      {.reason = pb::GENERATION_MISMATCH,
       .code = absl::StatusCode::kAborted,
       .trigger =
           [](Context& c) {
             if (absl::Status s = Upload(c, c.small, "g"); !s.ok()) return s;
             return c.client->UpdateValues("g", c.small.values, 7).status();
           }},
      {.reason = pb::INVALID_OPTION,
       .code = absl::StatusCode::kInvalidArgument,
       .trigger =
           [](Context& c) {
             if (absl::Status s = Upload(c, c.small, "o"); !s.ok()) return s;
             FactorizeOptions o = Method("ilu");
             o.drop_tolerance = -1;
             return c.client->Factorize("o", o).status();
           }},
      {.reason = pb::INVALID_MATRIX,
       .code = absl::StatusCode::kInvalidArgument,
       .trigger =
           [](Context& c) {
             CsrMatrix bad = c.small;
             bad.values[3] = std::nan("");
             return Upload(c, bad, "nan");
           }},
      {.reason = pb::STALE_FACTOR,
       .code = absl::StatusCode::kFailedPrecondition,
       .trigger =
           [](Context& c) {
             if (absl::Status s = Upload(c, c.small, "s"); !s.ok()) return s;
             if (absl::Status s =
                     c.client->Factorize("s", Method("ldlt")).status();
                 !s.ok()) {
               return s;
             }
             if (absl::Status s =
                     c.client->UpdateValues("s", c.small.values).status();
                 !s.ok()) {
               return s;
             }
             return c.client
                 ->Solve("s", {std::vector<double>(c.small.rows, 1.0)})
                 .status();
           }},
      {.reason = pb::NOT_FACTORIZED,
       .code = absl::StatusCode::kFailedPrecondition,
       .trigger =
           [](Context& c) {
             if (absl::Status s = Upload(c, c.small, "u"); !s.ok()) return s;
             return c.client
                 ->Solve("u", {std::vector<double>(c.small.rows, 1.0)})
                 .status();
           }},
      {.reason = pb::INVALID_REQUEST,
       .code = absl::StatusCode::kInvalidArgument,
       .trigger =
           [](Context& c) {
             if (absl::Status s = Upload(c, c.small, "r"); !s.ok()) return s;
             if (absl::Status s =
                     c.client->Factorize("r", Method("ldlt")).status();
                 !s.ok()) {
               return s;
             }
             // A right-hand side of the wrong length.
             return c.client
                 ->Solve("r", {std::vector<double>(c.small.rows + 3, 1.0)})
                 .status();
           }},
      {.reason = pb::CANCELLED,
       .code = absl::StatusCode::kCancelled,
       .trigger =
           [](Context& c) {
             // The library has no cancel call: cancel a raw call and read
             // its status as the library does.
             auto stub = pb::Solver::NewStub(grpc::CreateChannel(
                 c.target, grpc::InsecureChannelCredentials()));
             grpc::ClientContext context;
             context.TryCancel();
             pb::ServerInfoReply reply;
             return internal::FromGrpcStatus(
                 stub->ServerInfo(&context, {}, &reply));
           }},
      {.reason = pb::DEADLINE_EXCEEDED,
       .code = absl::StatusCode::kDeadlineExceeded,
       // A deadline already past when the call starts (a tiny positive one
       // is rounded up to gRPC's millisecond clock and may be met).
       .connect = [](ConnectOptions& o) { o.rpc_timeout = -absl::Seconds(1); },
       .trigger = [](Context& c) { return Upload(c, c.bus, "late"); }},
      {.reason = pb::UNAVAILABLE,
       .code = absl::StatusCode::kUnavailable,
       .trigger =
           [](Context& c) {
             // The daemon is gone: nothing listens on its port.
             c.server->Shutdown(absl::Seconds(1));
             return c.client->Info().status();
           }},
      {.reason = pb::DEVICE_BUDGET,
       .code = absl::StatusCode::kResourceExhausted,
       .configure =
           [](server::ServerConfig& config) {
             config.device_cache_bytes = 256;
           },
       .device = true,
       .trigger =
           [](Context& c) {
             if (absl::Status s = Upload(c, c.small, "d"); !s.ok()) return s;
             return c.client->Factorize("d", Method("block_jacobi")).status();
           }},
      {.reason = pb::UNSUPPORTED,
       .code = absl::StatusCode::kFailedPrecondition,
       .device = true,
       .trigger =
           [](Context& c) {
             if (absl::Status s = Upload(c, c.small, "x"); !s.ok()) return s;
             // The device backend goes away: this process can no longer
             // run the configured backend.
             UnregisterDeviceKernels(Backend::kCuda);
             return c.client->Factorize("x", Method("block_jacobi")).status();
           }},
      {.reason = pb::INTERNAL,
       .code = absl::StatusCode::kInternal,
       .device = true,
       .trigger =
           [](Context& c) {
             if (absl::Status s = Upload(c, c.small, "i"); !s.ok()) return s;
             c.device->FailFromCall(0, absl::InternalError("device fault"));
             return c.client->Factorize("i", Method("block_jacobi")).status();
           }},
  };
  return *rows;
}

class ErrorReasonTest : public ::testing::TestWithParam<Row> {};

TEST_P(ErrorReasonTest, ComesBackWithItsCodeAndReason) {
  const Row& row = GetParam();
  Context c;
  absl::StatusOr<CsrMatrix> bus =
      ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(bus.ok()) << bus.status();
  c.bus = *std::move(bus);
  c.bus.structure = Structure::kSpdLower;
  c.small = Tridiagonal(40);

  server::ServerConfig config;
  config.listen = "127.0.0.1:0";
  config.metrics_listen = "";
  config.threads = 1;
  config.workers = 2;
  if (row.device) {
    c.device = std::make_shared<testing::ReferenceDeviceKernels>();
    ASSERT_TRUE(RegisterDeviceKernels(Backend::kCuda, c.device).ok());
    config.backend = "cuda";
  }
  if (row.configure) row.configure(config);
  absl::StatusOr<std::unique_ptr<server::Server>> server =
      server::Server::Start(config);
  ASSERT_TRUE(server.ok()) << server.status();
  c.server = server->get();
  c.target = "127.0.0.1:" + std::to_string((*server)->port());

  ConnectOptions options;
  options.rpc_timeout = absl::Seconds(60);
  if (row.connect) row.connect(options);
  absl::StatusOr<std::unique_ptr<Client>> client =
      Client::Connect(c.target, options);
  ASSERT_TRUE(client.ok()) << client.status();
  c.client = client->get();

  const absl::Status status = row.trigger(c);
  const std::string reason = pb::ErrorReason_Name(row.reason);
  EXPECT_EQ(status.code(), row.code) << reason << ": " << status;
  EXPECT_EQ(ErrorReason(status), reason) << status;
  EXPECT_EQ(ErrorDomain(status), kErrorDomain) << status;
  EXPECT_EQ(RetryDelay(status).has_value(), row.retry_delay) << status;
  if (row.reason == pb::GENERATION_MISMATCH) {
    EXPECT_EQ(ErrorMetadata(status)["expected"], "7") << status;
    EXPECT_EQ(ErrorMetadata(status)["current"], "1") << status;
  }
  if (row.reason == pb::INVALID_OPTION) {
    EXPECT_FALSE(FieldViolations(status).empty()) << status;
  }

  client->reset();
  server->reset();
  if (row.device) UnregisterDeviceKernels(Backend::kCuda);
}

INSTANTIATE_TEST_SUITE_P(EveryReason, ErrorReasonTest,
                         ::testing::ValuesIn(Rows()),
                         [](const ::testing::TestParamInfo<Row>& info) {
                           return pb::ErrorReason_Name(info.param.reason);
                         });

// A message over even the transport's limit is refused by gRPC itself,
// without details; the client names the reason all the same.
TEST(MessageTooLargeTest, OverTheTransportLimitToo) {
  server::ServerConfig config;
  config.listen = "127.0.0.1:0";
  config.metrics_listen = "";
  config.threads = 1;
  config.max_message_bytes = 4096;
  absl::StatusOr<std::unique_ptr<server::Server>> server =
      server::Server::Start(config);
  ASSERT_TRUE(server.ok()) << server.status();
  ConnectOptions options;
  options.max_chunk_bytes = 1 << 20;
  absl::StatusOr<std::unique_ptr<Client>> client = Client::Connect(
      "127.0.0.1:" + std::to_string((*server)->port()), options);
  ASSERT_TRUE(client.ok()) << client.status();
  absl::StatusOr<CsrMatrix> bus =
      ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(bus.ok()) << bus.status();
  const absl::Status status = (*client)->Upload(ArraysOf(*bus)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_EQ(ErrorReason(status), "MESSAGE_TOO_LARGE") << status;
}

TEST(ErrorReasonTableTest, NamesEveryReason) {
  std::set<int> covered;
  for (const Row& row : Rows()) {
    EXPECT_TRUE(covered.insert(row.reason).second)
        << pb::ErrorReason_Name(row.reason) << " twice";
  }
  const google::protobuf::EnumDescriptor* reasons =
      pb::ErrorReason_descriptor();
  for (int i = 0; i < reasons->value_count(); ++i) {
    const int number = reasons->value(i)->number();
    if (number == pb::ERROR_REASON_UNSPECIFIED) continue;
    EXPECT_TRUE(covered.count(number)) << reasons->value(i)->name();
  }
}

}  // namespace
}  // namespace factord::client
