#include "server/service/status_mapping.h"

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "server/error_reason.h"

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

// The google.rpc.Status sent in the grpc-status-details-bin trailer.
google::rpc::Status Details(const grpc::Status& status) {
  google::rpc::Status details;
  EXPECT_TRUE(details.ParseFromString(status.error_details()));
  return details;
}

TEST(StatusMapping, EveryErrorCarriesAnErrorInfoReason) {
  // Untagged: the code's default reason.
  google::rpc::Status d = Details(ToGrpcStatus(absl::NotFoundError("gone")));
  EXPECT_EQ(d.code(), static_cast<int>(grpc::StatusCode::NOT_FOUND));
  EXPECT_EQ(d.message(), "gone");
  ASSERT_EQ(d.details_size(), 1);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(d.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "NOT_FOUND");
  EXPECT_EQ(info.domain(), "factord.v1");
  EXPECT_EQ(d.details(0).type_url(),
            "type.googleapis.com/google.rpc.ErrorInfo");

  // Tagged: the tag wins; retry delay and bad field travel too.
  d = Details(ToGrpcStatus(QueueFull("busy")));
  ASSERT_EQ(d.details_size(), 2);
  ASSERT_TRUE(d.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "QUEUE_FULL");
  google::rpc::RetryInfo retry;
  ASSERT_TRUE(d.details(1).UnpackTo(&retry));
  EXPECT_EQ(retry.retry_delay().seconds(), 0);
  EXPECT_EQ(retry.retry_delay().nanos(), 200'000'000);

  d = Details(ToGrpcStatus(InvalidOption("options.delta", "= 2 is outside")));
  ASSERT_EQ(d.details_size(), 2);
  ASSERT_TRUE(d.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "INVALID_OPTION");
  google::rpc::BadRequest bad;
  ASSERT_TRUE(d.details(1).UnpackTo(&bad));
  ASSERT_EQ(bad.field_violations_size(), 1);
  EXPECT_EQ(bad.field_violations(0).field(), "options.delta");
  EXPECT_EQ(bad.field_violations(0).description(),
            "options.delta = 2 is outside");

  // Metadata added after the reason keeps the reason.
  absl::Status g = CheckGeneration("m", 3, 4);
  d = Details(ToGrpcStatus(g));
  ASSERT_TRUE(d.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "GENERATION_MISMATCH");
  EXPECT_EQ(info.metadata().at("expected"), "3");
  EXPECT_EQ(info.metadata().at("current"), "4");
  EXPECT_EQ(ToGrpcStatus(g).error_code(), grpc::StatusCode::ABORTED);
  EXPECT_TRUE(CheckGeneration("m", 0, 4).ok());
  EXPECT_TRUE(CheckGeneration("m", 4, 4).ok());
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
