#include "server/service/concurrency_limit.h"

#include <utility>

#include "gtest/gtest.h"

namespace factord::server {
namespace {

TEST(ConcurrencyLimit, SlotsAreTakenUpToTheLimitAndGivenBack) {
  ConcurrencyLimit limit(2);
  ASSERT_TRUE(limit.TryAcquire());
  RequestSlot first(&limit);
  ASSERT_TRUE(limit.TryAcquire());
  {
    RequestSlot second(&limit);
    EXPECT_EQ(limit.in_flight(), 2);
    EXPECT_FALSE(limit.TryAcquire());
    EXPECT_EQ(limit.in_flight(), 2);
  }
  EXPECT_EQ(limit.in_flight(), 1);
  // Moving a slot hands it over; only the last owner gives it back.
  RequestSlot moved(std::move(first));
  EXPECT_EQ(limit.in_flight(), 1);
  RequestSlot assigned;
  assigned = std::move(moved);
  EXPECT_EQ(limit.in_flight(), 1);
  assigned = RequestSlot();
  EXPECT_EQ(limit.in_flight(), 0);
}

TEST(ConcurrencyLimit, ZeroIsUnlimited) {
  ConcurrencyLimit limit(0);
  for (int i = 0; i < 10'000; ++i) ASSERT_TRUE(limit.TryAcquire());
  EXPECT_EQ(limit.in_flight(), 10'000);
}

}  // namespace
}  // namespace factord::server
