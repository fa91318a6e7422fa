// Decoding a failed call's grpc::Status into absl::Status with factord's
// error details (ErrorInfo reason and metadata, RetryInfo delay, BadRequest
// field violations), the fallback reasons for errors made by gRPC itself,
// and the errors the client makes before sending. No server: the
// google.rpc.Status is built here, as the daemon would send it.
#include "client/grpc_status.h"

#include <string>

#include "client/status_details.h"
#include "core/base/error_details.h"
#include "gmock/gmock.h"
#include "google/protobuf/any.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"

namespace factord::client::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

// A google.rpc.Status as the server sends it, serialized for the trailer.
std::string Details(int code, const std::string& message,
                    const std::vector<google::protobuf::Message*>& details,
                    const std::string& prefix = "type.googleapis.com/") {
  google::rpc::Status status;
  status.set_code(code);
  status.set_message(message);
  for (const google::protobuf::Message* d : details) {
    google::protobuf::Any* any = status.add_details();
    any->PackFrom(*d, prefix);
  }
  return status.SerializeAsString();
}

TEST(GrpcStatusTest, OkIsOk) {
  EXPECT_TRUE(FromGrpcStatus(grpc::Status::OK).ok());
  EXPECT_EQ(ErrorReason(absl::OkStatus()), "");
  EXPECT_EQ(RetryDelay(absl::OkStatus()), std::nullopt);
}

TEST(GrpcStatusTest, ReasonRetryDelayAndViolationsAreDecoded) {
  google::rpc::ErrorInfo info;
  info.set_reason("QUEUE_FULL");
  info.set_domain("factord.v1");
  (*info.mutable_metadata())["queue"] = "factorize";
  google::rpc::RetryInfo retry;
  retry.mutable_retry_delay()->set_seconds(1);
  retry.mutable_retry_delay()->set_nanos(250'000'000);
  const grpc::Status wire(grpc::StatusCode::RESOURCE_EXHAUSTED,
                          "work queue full",
                          Details(8, "work queue full", {&info, &retry}));
  const absl::Status s = FromGrpcStatus(wire);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(s.message(), "work queue full");
  EXPECT_EQ(ErrorReason(s), "QUEUE_FULL");
  EXPECT_EQ(ErrorDomain(s), "factord.v1");
  EXPECT_THAT(ErrorMetadata(s), ElementsAre(Pair("queue", "factorize")));
  EXPECT_EQ(RetryDelay(s), absl::Milliseconds(1250));
  EXPECT_THAT(FieldViolations(s), IsEmpty());
  // The details are the plain ones the in-process solver sets too
  // (core/base/error_details.h).
  ASSERT_TRUE(GetErrorInfo(s).has_value());
  EXPECT_EQ(GetErrorInfo(s)->reason, "QUEUE_FULL");
  EXPECT_EQ(GetRetryDelay(s), absl::Milliseconds(1250));
}

TEST(GrpcStatusTest, BadRequestAndGenerationMetadata) {
  google::rpc::ErrorInfo info;
  info.set_reason("INVALID_OPTION");
  info.set_domain("factord.v1");
  google::rpc::BadRequest bad;
  auto* v = bad.add_field_violations();
  v->set_field("options.fill_factor");
  v->set_description("must be at least 1");
  v = bad.add_field_violations();
  v->set_field("options.drop_tolerance");
  v->set_description("must not be negative");
  absl::Status s = FromGrpcStatus(
      grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "bad options",
                   Details(3, "bad options", {&info, &bad})));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorReason(s), "INVALID_OPTION");
  EXPECT_THAT(
      FieldViolations(s),
      ElementsAre(Pair("options.fill_factor", "must be at least 1"),
                  Pair("options.drop_tolerance", "must not be negative")));
  EXPECT_EQ(RetryDelay(s), std::nullopt);

  google::rpc::ErrorInfo mismatch;
  mismatch.set_reason("GENERATION_MISMATCH");
  mismatch.set_domain("factord.v1");
  (*mismatch.mutable_metadata())["expected"] = "3";
  (*mismatch.mutable_metadata())["current"] = "4";
  s = FromGrpcStatus(grpc::Status(grpc::StatusCode::ABORTED, "generation",
                                  Details(10, "generation", {&mismatch})));
  EXPECT_EQ(s.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(ErrorReason(s), "GENERATION_MISMATCH");
  EXPECT_THAT(ErrorMetadata(s),
              ElementsAre(Pair("current", "4"), Pair("expected", "3")));
}

TEST(GrpcStatusTest, AnyTypeUrlPrefixDoesNotMatter) {
  google::rpc::ErrorInfo info;
  info.set_reason("NOT_FOUND");
  absl::Status s = FromGrpcStatus(
      grpc::Status(grpc::StatusCode::NOT_FOUND, "gone",
                   Details(5, "gone", {&info}, "example.com/types/")));
  EXPECT_EQ(ErrorReason(s), "NOT_FOUND");
}

TEST(GrpcStatusTest, UnparsableDetailsAreIgnored) {
  absl::Status s = FromGrpcStatus(grpc::Status(
      grpc::StatusCode::INTERNAL, "boom", std::string("\xff\xff\xff", 3)));
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(s.message(), "boom");
  EXPECT_EQ(ErrorReason(s), "");
}

TEST(GrpcStatusTest, MessageTooLargeFromGrpcItself) {
  // gRPC's own wording, no details: the client names the reason.
  for (const char* message :
       {"Received message larger than max (5242880 vs. 4194304)",
        "Sent message larger than max (9000000 vs. 4194304)"}) {
    absl::Status s = FromGrpcStatus(
        grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, message));
    EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
    EXPECT_EQ(s.message(), message);
    EXPECT_EQ(ErrorReason(s), "MESSAGE_TOO_LARGE") << message;
    EXPECT_EQ(ErrorDomain(s), "factord.v1");
    EXPECT_EQ(RetryDelay(s), std::nullopt);
  }
  // Another RESOURCE_EXHAUSTED without details: no guess.
  EXPECT_EQ(ErrorReason(FromGrpcStatus(
                grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "quota"))),
            "");
  // With the server's own reason, the server's reason stands.
  google::rpc::ErrorInfo info;
  info.set_reason("CACHE_BUDGET");
  EXPECT_EQ(
      ErrorReason(FromGrpcStatus(grpc::Status(
          grpc::StatusCode::RESOURCE_EXHAUSTED,
          "message larger than max, and no room", Details(8, "", {&info})))),
      "CACHE_BUDGET");
}

TEST(GrpcStatusTest, UnreachableDeadlineAndCancelWithoutDetails) {
  EXPECT_EQ(ErrorReason(FromGrpcStatus(grpc::Status(
                grpc::StatusCode::UNAVAILABLE, "failed to connect"))),
            "UNAVAILABLE");
  EXPECT_EQ(ErrorReason(FromGrpcStatus(grpc::Status(
                grpc::StatusCode::DEADLINE_EXCEEDED, "Deadline Exceeded"))),
            "DEADLINE_EXCEEDED");
  EXPECT_EQ(ErrorReason(FromGrpcStatus(
                grpc::Status(grpc::StatusCode::CANCELLED, "Cancelled"))),
            "CANCELLED");
  EXPECT_EQ(ErrorReason(FromGrpcStatus(
                grpc::Status(grpc::StatusCode::INTERNAL, "no details"))),
            "");
  // A draining server says UNAVAILABLE itself, with a retry delay.
  google::rpc::ErrorInfo info;
  info.set_reason("UNAVAILABLE");
  google::rpc::RetryInfo retry;
  retry.mutable_retry_delay()->set_seconds(2);
  absl::Status s =
      FromGrpcStatus(grpc::Status(grpc::StatusCode::UNAVAILABLE, "draining",
                                  Details(14, "draining", {&info, &retry})));
  EXPECT_EQ(ErrorReason(s), "UNAVAILABLE");
  EXPECT_EQ(RetryDelay(s), absl::Seconds(2));
}

TEST(ClientErrorTest, HasTheShapeOfAServerError) {
  absl::Status s = ClientError(absl::StatusCode::kInvalidArgument,
                               "INVALID_REQUEST", "empty ID", "id");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "empty ID");
  EXPECT_EQ(ErrorReason(s), "INVALID_REQUEST");
  EXPECT_EQ(ErrorDomain(s), "factord.v1");
  EXPECT_THAT(FieldViolations(s), ElementsAre(Pair("id", "empty ID")));
  s = ClientError(absl::StatusCode::kAborted, "GENERATION_MISMATCH", "m", "",
                  {{"expected", "2"}, {"current", "1"}});
  EXPECT_THAT(FieldViolations(s), IsEmpty());
  EXPECT_THAT(ErrorMetadata(s),
              ElementsAre(Pair("current", "1"), Pair("expected", "2")));
}

}  // namespace
}  // namespace factord::client::internal
