// The plain error details (core/base/error_details.h): every kind round
// trips, whatever bytes its strings hold; an OK status takes none; a
// payload that is not the encoding reads as absent.
#include "core/base/error_details.h"

#include <string>

#include "gtest/gtest.h"

namespace factord {
namespace {

TEST(ErrorDetails, EveryKindRoundTripsWhateverItsBytes) {
  absl::Status s = absl::AbortedError("generation");
  const std::string odd = std::string("a:1:b\n\0c", 9);
  ErrorInfo info;
  info.reason = "GENERATION_MISMATCH";
  info.domain = "factord.v1";
  info.metadata = {{"expected", "3"}, {"current", "4"}, {odd, ""}, {"", odd}};
  SetErrorInfo(s, info);
  SetRetryDelay(s, absl::Milliseconds(1500));
  SetFieldViolations(
      s, {{"options.fill_factor", "must be at least 1"}, {odd, ""}});
  std::optional<ErrorInfo> read = GetErrorInfo(s);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->reason, info.reason);
  EXPECT_EQ(read->domain, info.domain);
  EXPECT_EQ(read->metadata, info.metadata);
  EXPECT_EQ(GetRetryDelay(s), absl::Milliseconds(1500));
  const std::vector<FieldViolation> violations = GetFieldViolations(s);
  ASSERT_EQ(violations.size(), 2u);
  EXPECT_EQ(violations[0],
            (FieldViolation{"options.fill_factor", "must be at least 1"}));
  EXPECT_EQ(violations[1], (FieldViolation{odd, ""}));
  // Setting again replaces.
  info.reason = "NOT_FOUND";
  info.metadata.clear();
  SetErrorInfo(s, info);
  EXPECT_EQ(GetErrorInfo(s)->reason, "NOT_FOUND");
  EXPECT_TRUE(GetErrorInfo(s)->metadata.empty());
}

TEST(ErrorDetails, NoneOnAnOkStatusOrAPlainOne) {
  absl::Status ok;
  SetErrorInfo(ok, ErrorInfo{"X", "d", {}});
  SetRetryDelay(ok, absl::Seconds(1));
  SetFieldViolations(ok, {{"f", "d"}});
  EXPECT_TRUE(ok.ok());
  EXPECT_FALSE(GetErrorInfo(ok).has_value());
  EXPECT_FALSE(GetRetryDelay(ok).has_value());
  EXPECT_TRUE(GetFieldViolations(ok).empty());
  const absl::Status plain = absl::InternalError("x");
  EXPECT_FALSE(GetErrorInfo(plain).has_value());
  EXPECT_FALSE(GetRetryDelay(plain).has_value());
  EXPECT_TRUE(GetFieldViolations(plain).empty());
}

TEST(ErrorDetails, AMalformedPayloadReadsAsAbsent) {
  absl::Status s = absl::InternalError("x");
  for (const char* garbage : {"5:abc", "x:ab", "3:abc", "7"}) {
    SCOPED_TRACE(garbage);
    s.SetPayload("factord/error-info", absl::Cord(garbage));
    s.SetPayload("factord/retry-delay-ns", absl::Cord("soon"));
    s.SetPayload("factord/field-violations", absl::Cord(garbage));
    EXPECT_FALSE(GetErrorInfo(s).has_value());
    EXPECT_FALSE(GetRetryDelay(s).has_value());
    EXPECT_TRUE(GetFieldViolations(s).empty());
  }
}

}  // namespace
}  // namespace factord
