// grpc.health.v1 through the wire: liveness "" and readiness
// "factord.v1.Solver", including NOT_SERVING while draining.
#include "server/health/health.h"

#include <thread>

#include "absl/synchronization/notification.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/impl/codegen/client_unary_call.h"
#include "grpcpp/impl/codegen/rpc_method.h"
#include "grpcpp/support/byte_buffer.h"
#include "server/service_fixture.h"

namespace factord::server::testing {
namespace {

enum class Health { kServing, kNotServing, kNotFound, kError };

// grpc.health.v1.Health/Check with a hand-encoded HealthCheckRequest
// {string service = 1;}; the reply is HealthCheckResponse {enum status = 1;}
// (1 = SERVING, 2 = NOT_SERVING).
Health Check(grpc::Channel* channel, const std::string& service) {
  std::string request;
  if (!service.empty()) {
    request.push_back(0x0A);
    request.push_back(static_cast<char>(service.size()));
    request += service;
  }
  grpc::Slice slice(request);
  grpc::ByteBuffer in(&slice, 1), out;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  grpc::internal::RpcMethod method("/grpc.health.v1.Health/Check",
                                   grpc::internal::RpcMethod::NORMAL_RPC);
  grpc::Status s =
      grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
          channel, method, &ctx, in, &out);
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) return Health::kNotFound;
  if (!s.ok()) return Health::kError;
  std::vector<grpc::Slice> slices;
  if (!out.Dump(&slices).ok()) return Health::kError;
  std::string reply;
  for (const auto& sl : slices)
    reply.append(reinterpret_cast<const char*>(sl.begin()), sl.size());
  if (reply.size() == 2 && reply[0] == 0x08 && reply[1] == 0x01)
    return Health::kServing;
  if (reply.size() == 2 && reply[0] == 0x08 && reply[1] == 0x02)
    return Health::kNotServing;
  return Health::kError;
}

TEST_F(ServiceTest, LivenessAndReadinessServeWhileRunning) {
  EXPECT_EQ(Check(channel_.get(), ""), Health::kServing);
  EXPECT_EQ(Check(channel_.get(), kReadinessService), Health::kServing);
  EXPECT_EQ(Check(channel_.get(), "no.such.Service"), Health::kNotFound);
}

TEST_F(ServiceTest, ReadinessIsNotServingWhileDraining) {
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", Tridiagonal(10), 10, &info).ok());
  v1::FactorizeReply fr;
  grpc::Status fs = Factorize("m", v1::METHOD_LU, &fr);
  ASSERT_TRUE(fs.ok()) << fs.error_message();

  // A Solve stream stays open: in-flight work the drain must wait for.
  grpc::ClientContext ctx;
  auto stream = stub_->Solve(&ctx);
  v1::SolveRequest first;
  first.set_id("m");
  ASSERT_TRUE(stream->Write(first));
  absl::SleepFor(absl::Milliseconds(100));  // let the server open the stream

  absl::Notification drained;
  std::thread shutdown([&] {
    server_->Shutdown(absl::Seconds(20));
    drained.Notify();
  });
  Health readiness = Health::kServing;
  for (int i = 0; i < 200 && readiness == Health::kServing; ++i) {
    readiness = Check(channel_.get(), kReadinessService);
    if (readiness == Health::kServing) absl::SleepFor(absl::Milliseconds(10));
  }
  EXPECT_EQ(readiness, Health::kNotServing);
  EXPECT_EQ(Check(channel_.get(), ""), Health::kServing);  // still alive
  EXPECT_FALSE(drained.HasBeenNotified());

  // The in-flight solve completes normally, then the server stops.
  v1::SolveRequest rhs;
  rhs.set_rhs_index(0);
  for (int i = 0; i < 10; ++i) rhs.add_values(1.0);
  rhs.set_last(true);
  ASSERT_TRUE(stream->Write(rhs));
  stream->WritesDone();
  v1::SolveReply reply;
  int replies = 0;
  while (stream->Read(&reply)) ++replies;
  grpc::Status s = stream->Finish();
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(replies, 1);
  EXPECT_EQ(reply.status(), v1::SOLVE_STATUS_CONVERGED);
  EXPECT_TRUE(drained.WaitForNotificationWithTimeout(absl::Seconds(20)));
  shutdown.join();
  server_->Wait();  // returns at once: already shut down
}

}  // namespace
}  // namespace factord::server::testing
