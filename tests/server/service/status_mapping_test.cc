#include "server/service/status_mapping.h"

#include "gtest/gtest.h"

namespace factord::server {
namespace {

TEST(StatusMapping, KeepsCodeAndMessage) {
  struct Case {
    absl::Status in;
    grpc::StatusCode code;
  } cases[] = {
      {absl::InvalidArgumentError("row 3: NaN"),
       grpc::StatusCode::INVALID_ARGUMENT},
      {absl::NotFoundError("no such matrix"), grpc::StatusCode::NOT_FOUND},
      {absl::ResourceExhaustedError("max_n"),
       grpc::StatusCode::RESOURCE_EXHAUSTED},
      {absl::FailedPreconditionError("stale"),
       grpc::StatusCode::FAILED_PRECONDITION},
      {absl::CancelledError("bye"), grpc::StatusCode::CANCELLED},
      {absl::DeadlineExceededError("late"),
       grpc::StatusCode::DEADLINE_EXCEEDED},
      {absl::UnimplementedError("later"), grpc::StatusCode::UNIMPLEMENTED},
      {absl::UnavailableError("draining"), grpc::StatusCode::UNAVAILABLE},
      {absl::InternalError("bug"), grpc::StatusCode::INTERNAL},
  };
  for (const Case& c : cases) {
    grpc::Status out = ToGrpcStatus(c.in);
    EXPECT_EQ(out.error_code(), c.code) << c.in;
    EXPECT_EQ(out.error_message(), std::string(c.in.message()));
  }
  EXPECT_TRUE(ToGrpcStatus(absl::OkStatus()).ok());
  EXPECT_EQ(ToGrpcStatus(absl::Status(static_cast<absl::StatusCode>(99), "odd"))
                .error_code(),
            grpc::StatusCode::UNKNOWN);
}

TEST(StatusMapping, CodeNames) {
  EXPECT_EQ(GrpcCodeName(grpc::StatusCode::OK), "OK");
  EXPECT_EQ(GrpcCodeName(grpc::StatusCode::INVALID_ARGUMENT),
            "INVALID_ARGUMENT");
  EXPECT_EQ(GrpcCodeName(grpc::StatusCode::RESOURCE_EXHAUSTED),
            "RESOURCE_EXHAUSTED");
  EXPECT_EQ(GrpcCodeName(grpc::StatusCode::FAILED_PRECONDITION),
            "FAILED_PRECONDITION");
}

}  // namespace
}  // namespace factord::server
