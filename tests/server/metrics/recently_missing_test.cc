// The NOT_FOUND answers remembered for factord_reuploads_total: bounded in
// age and in count, each taken once.
#include "server/metrics/recently_missing.h"

#include "gtest/gtest.h"

namespace factord::server {
namespace {

TEST(RecentlyMissing, ForgetsAfterTheTtlAndBeyondTheCapacity) {
  RecentlyMissing missing(/*capacity=*/3, absl::Minutes(10));
  const absl::Time t0 = absl::FromUnixSeconds(1000);
  missing.Remember("a", t0);
  EXPECT_FALSE(missing.Take("a", t0 + absl::Minutes(11)));  // too old
  for (const char* key : {"b", "c", "d", "e"}) missing.Remember(key, t0);
  EXPECT_EQ(missing.size(), 3u);
  EXPECT_FALSE(missing.Take("b", t0));  // the oldest went
  EXPECT_TRUE(missing.Take("e", t0));
  EXPECT_FALSE(missing.Take("e", t0));  // taken once
  // Remembered again: the later time counts.
  missing.Remember("c", t0 + absl::Minutes(9));
  EXPECT_TRUE(missing.Take("c", t0 + absl::Minutes(15)));
}

}  // namespace
}  // namespace factord::server
