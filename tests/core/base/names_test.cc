#include "core/solver/options.h"
#include "gtest/gtest.h"

namespace factord {
namespace {

TEST(Names, MethodRoundTrips) {
  for (Method m :
       {Method::kAuto, Method::kBlockJacobi, Method::kLdlt, Method::kLu}) {
    auto parsed = ParseMethod(MethodName(m));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, m);
  }
}

TEST(Names, UnknownMethodIsInvalidArgumentListingKnownOnes) {
  auto parsed = ParseMethod("cholesky");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(parsed.status().message().find("block_jacobi"), std::string::npos);
}

}  // namespace
}  // namespace factord
