// The error reasons' names (server/error_reason.h), kept without the
// generated descriptor, against errors.proto; and a reason survives the way
// to the wire and back.
#include "server/error_reason.h"

#include <set>

#include "factord/v1/errors.pb.h"
#include "gtest/gtest.h"

namespace factord::server {
namespace {

TEST(ErrorReasonNames, MatchTheProto) {
  const google::protobuf::EnumDescriptor& type = *v1::ErrorReason_descriptor();
  std::set<int> named;
  for (v1::ErrorReason reason : KnownReasons()) {
    EXPECT_EQ(ReasonName(reason), v1::ErrorReason_Name(reason));
    named.insert(static_cast<int>(reason));
  }
  for (int i = 0; i < type.value_count(); ++i) {
    EXPECT_TRUE(named.count(type.value(i)->number()))
        << type.value(i)->name() << " has no name in error_reason.cc";
  }
  EXPECT_EQ(named.size(), static_cast<size_t>(type.value_count()));
}

TEST(ErrorReasonNames, EveryReasonReadsBack) {
  for (v1::ErrorReason reason : KnownReasons()) {
    const absl::Status s = WithReason(absl::InternalError("x"), reason);
    ASSERT_TRUE(ReasonOf(s).has_value());
    EXPECT_EQ(*ReasonOf(s), reason);
  }
  EXPECT_EQ(EffectiveReason(absl::NotFoundError("x")), v1::NOT_FOUND);
  EXPECT_EQ(ReasonOf(WithEffectiveReason(absl::AbortedError("x"))),
            v1::GENERATION_MISMATCH);
}

}  // namespace
}  // namespace factord::server
