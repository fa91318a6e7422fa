// The gathered option table: every family's table is in it, each name once
// and each member once, and a name finds its member of FactorOptions.
#include "core/solver/option_table.h"

#include <iterator>
#include <set>
#include <string>

#include "gtest/gtest.h"

namespace factord {
namespace {

TEST(OptionTable, GathersEveryTableOnce) {
  const size_t expected =
      std::size(kSharedOptionFields) + std::size(kLdltOptionFields) +
      std::size(kBlockIldltOptionFields) + std::size(kJacobiLdltOptionFields) +
      std::size(kIncompleteOptionFields);
  EXPECT_EQ(FactorOptionFields().size(), expected);
  std::set<std::string_view> names;
  std::set<size_t> offsets;  // of the members in a FactorOptions
  const FactorOptions o;
  for (const FactorOptionField& field : FactorOptionFields()) {
    EXPECT_TRUE(names.insert(field.name).second) << field.name;
    const size_t offset = std::visit(
        [&o](auto m) {
          return static_cast<size_t>(reinterpret_cast<const char*>(&(o.*m)) -
                                     reinterpret_cast<const char*>(&o));
        },
        field.member);
    EXPECT_TRUE(offsets.insert(offset).second)
        << field.name << " shares its member with another name";
  }
}

TEST(OptionTable, ANameFindsItsMember) {
  FactorOptions o;
  const FactorOptionField* fill_factor = FindFactorOptionField("fill_factor");
  ASSERT_NE(fill_factor, nullptr);
  o.*std::get<double FactorOptions::*>(fill_factor->member) = 0.5;
  EXPECT_EQ(o.fill_factor, 0.5);  // a base's member, through FactorOptions

  const FactorOptionField* sweeps = FindFactorOptionField("sweeps");
  ASSERT_NE(sweeps, nullptr);
  o.*std::get<int FactorOptions::*>(sweeps->member) = 3;
  EXPECT_EQ(o.sweeps, 3);

  const FactorOptionField* count = FindFactorOptionField("shift_count");
  ASSERT_NE(count, nullptr);
  o.*std::get<int64_t FactorOptions::*>(count->member) = 9;
  EXPECT_EQ(o.shift_count, 9);

  // Enumerations are converted by hand, not listed; unknown names are not.
  EXPECT_EQ(FindFactorOptionField("ordering"), nullptr);
  EXPECT_EQ(FindFactorOptionField("trisolve_block_size"), nullptr);
  EXPECT_EQ(FindFactorOptionField("no_such_option"), nullptr);
}

}  // namespace
}  // namespace factord
