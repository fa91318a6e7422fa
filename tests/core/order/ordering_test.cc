#include "core/order/ordering.h"

#include <algorithm>
#include <numeric>

#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

bool IsPermutation(std::vector<int32_t> perm, int64_t n) {
  if (static_cast<int64_t>(perm.size()) != n) return false;
  std::sort(perm.begin(), perm.end());
  for (int64_t i = 0; i < n; ++i) {
    if (perm[i] != i) return false;
  }
  return true;
}

TEST(ComputeOrdering, EveryOrderingIsAPermutation) {
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  for (Ordering o : {Ordering::kAuto, Ordering::kNatural, Ordering::kAmd,
                     Ordering::kMetis, Ordering::kRcm, Ordering::kGmc}) {
    auto perm = ComputeOrdering(*a, o);
    ASSERT_TRUE(perm.ok()) << OrderingName(o) << ": " << perm.status();
    EXPECT_TRUE(IsPermutation(*perm, a->rows)) << OrderingName(o);
  }
}

TEST(ComputeOrdering, NaturalIsTheIdentityAndAutoIsAmd) {
  auto a = ReadMatrixMarket(testing::TestDataPath("1138_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  auto natural = ComputeOrdering(*a, Ordering::kNatural);
  ASSERT_TRUE(natural.ok());
  std::vector<int32_t> identity(a->rows);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(*natural, identity);
  auto automatic = ComputeOrdering(*a, Ordering::kAuto);
  auto amd = ComputeOrdering(*a, Ordering::kAmd);
  ASSERT_TRUE(automatic.ok() && amd.ok());
  EXPECT_EQ(*automatic, *amd);
}

}  // namespace
}  // namespace factord
