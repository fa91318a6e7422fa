// Authentication and admission through the wire: every Solver RPC needs a
// valid bearer token once a tokens file is configured; health and /metrics
// stay open; max_concurrent_requests refuses with RESOURCE_EXHAUSTED.
#include "server/service/admission.h"

#include <chrono>
#include <thread>

#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/impl/codegen/client_unary_call.h"
#include "grpcpp/impl/codegen/rpc_method.h"
#include "grpcpp/support/byte_buffer.h"
#include "httplib.h"
#include "server/service/tenant_fixture.h"

namespace factord::server::testing {
namespace {

bool Mentions(const grpc::Status& s, const std::string& needle) {
  return s.error_message().find(needle) != std::string::npos;
}

class AdmissionTest : public TenantTest {
 protected:
  void Configure(ServerConfig& config) override {
    channel_ = nullptr;  // made after Start
  }
  v1::Solver::Stub& Stub() {
    if (stub_ == nullptr) {
      channel_ =
          grpc::CreateChannel(Target(), grpc::InsecureChannelCredentials());
      stub_ = v1::Solver::NewStub(channel_);
    }
    return *stub_;
  }

  // Every kind of Solver RPC, each with `authorization` metadata `headers`;
  // the statuses in the order Upload, UpdateValues, Factorize, Solve,
  // Release, ListMatrices, ServerInfo.
  std::vector<grpc::Status> CallEveryRpc(
      const std::vector<std::string>& headers) {
    auto prepare = [&](grpc::ClientContext* ctx) {
      for (const std::string& h : headers) ctx->AddMetadata("authorization", h);
    };
    std::vector<grpc::Status> out;
    {
      grpc::ClientContext ctx;
      prepare(&ctx);
      v1::MatrixInfo info;
      auto writer = Stub().UploadMatrix(&ctx, &info);
      v1::UploadRequest header;
      header.mutable_header()->set_id("m");
      header.mutable_header()->set_n(1);
      header.mutable_header()->set_nnz(0);
      header.mutable_header()->set_structure(v1::STRUCTURE_GENERAL);
      writer->Write(header);
      writer->WritesDone();
      out.push_back(writer->Finish());
    }
    {
      grpc::ClientContext ctx;
      prepare(&ctx);
      v1::MatrixInfo info;
      auto writer = Stub().UpdateValues(&ctx, &info);
      v1::UpdateValuesRequest request;
      request.set_id("m");
      writer->Write(request);
      writer->WritesDone();
      out.push_back(writer->Finish());
    }
    {
      grpc::ClientContext ctx;
      prepare(&ctx);
      v1::FactorizeRequest request;
      request.set_id("m");
      v1::FactorizeReply reply;
      out.push_back(Stub().Factorize(&ctx, request, &reply));
    }
    {
      grpc::ClientContext ctx;
      prepare(&ctx);
      auto stream = Stub().Solve(&ctx);
      v1::SolveRequest request;
      request.set_id("m");
      stream->Write(request);
      stream->WritesDone();
      v1::SolveReply reply;
      while (stream->Read(&reply)) {
      }
      out.push_back(stream->Finish());
    }
    {
      grpc::ClientContext ctx;
      prepare(&ctx);
      v1::ReleaseRequest request;
      request.set_id("m");
      v1::ReleaseReply reply;
      out.push_back(Stub().Release(&ctx, request, &reply));
    }
    {
      grpc::ClientContext ctx;
      prepare(&ctx);
      v1::ListMatricesReply reply;
      out.push_back(Stub().ListMatrices(&ctx, {}, &reply));
    }
    {
      grpc::ClientContext ctx;
      prepare(&ctx);
      v1::ServerInfoReply reply;
      out.push_back(Stub().ServerInfo(&ctx, {}, &reply));
    }
    return out;
  }

  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Solver::Stub> stub_;
};

TEST_F(AdmissionTest, MissingWrongOrMalformedTokenIsUnauthenticated) {
  const std::string wrong = "alice-7f3a9c1e5b2d4f6a8c0e1b3X";
  const std::vector<std::vector<std::string>> refused = {
      {},                                     // missing
      {"Bearer " + wrong},                    // wrong
      {"Bearer"},                             // malformed: no token
      {std::string("Basic ") + kAliceToken},  // malformed: scheme
      {kAliceToken},                          // malformed: no scheme
      {std::string("Bearer ") + kAliceToken,  // malformed: twice
       std::string("Bearer ") + kBobToken},
  };
  for (const auto& headers : refused) {
    std::vector<grpc::Status> statuses = CallEveryRpc(headers);
    ASSERT_EQ(statuses.size(), 7u);
    for (size_t rpc = 0; rpc < statuses.size(); ++rpc) {
      const grpc::Status& s = statuses[rpc];
      EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED)
          << "rpc " << rpc << " headers " << headers.size() << ": "
          << s.error_message();
      EXPECT_FALSE(Mentions(s, "7f3a9c1e")) << s.error_message();
      EXPECT_FALSE(Mentions(s, "2c4e6a8b")) << s.error_message();
    }
  }
  // The right token passes authentication: these fail for other reasons.
  std::vector<grpc::Status> statuses =
      CallEveryRpc({std::string("Bearer ") + kAliceToken});
  EXPECT_TRUE(statuses[0].ok()) << statuses[0].error_message();  // upload
  for (const grpc::Status& s : statuses) {
    EXPECT_NE(s.error_code(), grpc::StatusCode::UNAUTHENTICATED)
        << s.error_message();
  }
  EXPECT_TRUE(statuses[5].ok());  // list
  EXPECT_TRUE(statuses[6].ok());  // info
}

TEST_F(AdmissionTest, RequestLogNamesTheTenantButNeverTheToken) {
  ::testing::internal::CaptureStderr();
  ASSERT_TRUE(alice_->List().ok());
  CallEveryRpc({std::string("Bearer ") + kBobToken + "x"});
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("rpc=ListMatrices matrix=- code=OK"), std::string::npos)
      << log;
  EXPECT_NE(log.find("tenant=alice"), std::string::npos) << log;
  EXPECT_NE(log.find("code=UNAUTHENTICATED"), std::string::npos) << log;
  EXPECT_EQ(log.find(kAliceToken), std::string::npos) << log;
  EXPECT_EQ(log.find("2c4e6a8b"), std::string::npos) << log;
}

// grpc.health.v1.Health/Check of the liveness service "", with no token.
grpc::Status HealthCheck(grpc::Channel* channel) {
  grpc::Slice slice(std::string{});
  grpc::ByteBuffer in(&slice, 1), out;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  grpc::internal::RpcMethod method("/grpc.health.v1.Health/Check",
                                   grpc::internal::RpcMethod::NORMAL_RPC);
  return grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
      channel, method, &ctx, in, &out);
}

TEST_F(AdmissionTest, HealthAndMetricsNeedNoTokenAndShowNoTenant) {
  Stub();
  EXPECT_TRUE(HealthCheck(channel_.get()).ok());
  const std::vector<double> values = {4, 4};
  const std::vector<int64_t> row_ptr = {0, 1, 2};
  const std::vector<int32_t> col_idx = {0, 1};
  client::CsrArrays m{.n = 2,
                      .structure = "general",
                      .row_ptr = row_ptr,
                      .col_idx = col_idx,
                      .values = values};
  ASSERT_TRUE(alice_->Upload(m, "alice-private-matrix").ok());
  ASSERT_TRUE(alice_->Factorize("alice-private-matrix").ok());
  httplib::Client http("127.0.0.1", server_->metrics_port());
  auto res = http.Get("/metrics");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(res->body.find("factord_rpc_requests_total"), std::string::npos);
  EXPECT_EQ(res->body.find("alice"), std::string::npos);
  EXPECT_EQ(res->body.find("bob"), std::string::npos);
  EXPECT_EQ(res->body.find("tenant"), std::string::npos);
  EXPECT_EQ(res->body.find("private-matrix"), std::string::npos);
}

TEST_F(AdmissionTest, ClientLibraryTakesTheTokenFromTheEnvironment) {
  setenv("FACTORD_TOKEN", kBobToken, 1);
  std::unique_ptr<client::Client> from_env = Connect("");
  unsetenv("FACTORD_TOKEN");
  ASSERT_NE(from_env, nullptr);
  EXPECT_TRUE(from_env->List().ok());
  std::unique_ptr<client::Client> none = Connect("");
  EXPECT_EQ(none->List().status().code(), absl::StatusCode::kUnauthenticated);
}

TEST(Admission, BadTokensFileStopsTheServerNamingTheFlag) {
  ServerConfig config = TestConfig();
  config.auth_tokens_file = "/nonexistent/factord-tokens";
  absl::StatusOr<std::unique_ptr<Server>> server = Server::Start(config);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(server.status().message().find("--auth_tokens_file"),
            absl::string_view::npos)
      << server.status();
  EXPECT_NE(server.status().message().find("/nonexistent/factord-tokens"),
            absl::string_view::npos);
}

TEST(Admission, MaxConcurrentRequestsRefusesWithResourceExhausted) {
  ServerConfig config = TestConfig();
  config.max_concurrent_requests = 2;
  absl::StatusOr<std::unique_ptr<Server>> server = Server::Start(config);
  ASSERT_TRUE(server.ok()) << server.status();
  auto channel =
      grpc::CreateChannel("127.0.0.1:" + std::to_string((*server)->port()),
                          grpc::InsecureChannelCredentials());
  auto stub = v1::Solver::NewStub(channel);
  auto list = [&] {
    grpc::ClientContext ctx;
    v1::ListMatricesReply reply;
    return stub->ListMatrices(&ctx, {}, &reply);
  };
  ASSERT_TRUE(list().ok());
  // Two open Solve streams take both slots.
  grpc::ClientContext ctx1, ctx2;
  auto s1 = stub->Solve(&ctx1);
  auto s2 = stub->Solve(&ctx2);
  grpc::Status refused;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    refused = list();
    if (!refused.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(Mentions(refused, "max_concurrent_requests = 2"))
      << refused.error_message();
  // Closing the streams gives the slots back.
  s1->WritesDone();
  s2->WritesDone();
  s1->Finish();
  s2->Finish();
  grpc::Status again;
  const auto later =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < later) {
    again = list();
    if (again.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(again.ok()) << again.error_message();
}

// A slot is given back before the reply is sent: a client that calls again
// as soon as it has its answer is never refused, even with a limit of 1.
TEST(Admission, SequentialCallsAtTheLimitAreNeverRefused) {
  ServerConfig config = TestConfig();
  config.max_concurrent_requests = 1;
  absl::StatusOr<std::unique_ptr<Server>> server = Server::Start(config);
  ASSERT_TRUE(server.ok()) << server.status();
  auto channel =
      grpc::CreateChannel("127.0.0.1:" + std::to_string((*server)->port()),
                          grpc::InsecureChannelCredentials());
  auto stub = v1::Solver::NewStub(channel);
  for (int i = 0; i < 300; ++i) {
    grpc::ClientContext ctx;
    v1::ListMatricesReply reply;
    grpc::Status s = stub->ListMatrices(&ctx, {}, &reply);
    ASSERT_TRUE(s.ok()) << "call " << i << ": " << s.error_message();
  }
}

}  // namespace
}  // namespace factord::server::testing
