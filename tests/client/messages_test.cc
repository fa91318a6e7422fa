// The factorize request the client builds: the members of FactorizeOptions
// as before, and the options set by name (FactorizeOptions::named) read
// for their field's type; an unknown name or a value not of the type is
// INVALID_OPTION naming "options.<name>".
#include "client/messages.h"

#include <cstdint>
#include <limits>
#include <string>

#include "client/status_details.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace factord::client::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

pb::FactorOptions Sent(const FactorizeOptions& options) {
  absl::StatusOr<pb::FactorizeRequest> request =
      ToFactorizeRequest("m", options);
  EXPECT_TRUE(request.ok()) << request.status();
  return request.ok() ? request->options() : pb::FactorOptions();
}

absl::Status Refusal(const FactorizeOptions& options) {
  return ToFactorizeRequest("m", options).status();
}

// The reason and the field a refusal names.
void ExpectNamesField(const absl::Status& s, const std::string& field) {
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(ErrorReason(s), "INVALID_OPTION") << s;
  EXPECT_THAT(FieldViolations(s), ElementsAre(Pair(field, s.message())));
}

TEST(Messages, TypedMembersTravelAsBefore) {
  FactorizeOptions o;
  o.method = "ldlt";
  o.fill_level = -1;
  o.sweeps = 4;
  o.pivot_threshold = 0.1;
  o.shift_count = 7;
  o.deterministic = true;
  o.expected_generation = 3;
  absl::StatusOr<pb::FactorizeRequest> r = ToFactorizeRequest("m", o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->id(), "m");
  EXPECT_EQ(r->method(), pb::METHOD_LDLT);
  EXPECT_EQ(r->expected_generation(), 3u);
  EXPECT_TRUE(r->options().has_fill_level());
  EXPECT_EQ(r->options().fill_level(), -1);
  EXPECT_EQ(r->options().sweeps(), 4);
  EXPECT_EQ(r->options().pivot_threshold(), 0.1);
  EXPECT_EQ(r->options().shift_count(), 7);
  EXPECT_TRUE(r->options().deterministic());
  EXPECT_FALSE(r->options().has_epsilon());  // unset: the server's default
}

TEST(Messages, NamedOptionsAreReadForTheirFieldsType) {
  FactorizeOptions o;
  o.Set("fill_level", int64_t{-1})
      .Set("epsilon", 0.25)
      .Set("delta", int64_t{1})  // an integer is a number too
      .Set("shift_count", int64_t{1} << 40)
      .Set("deterministic", true)
      .Set("ordering", "metis")  // an enumeration, by its name
      .Set("pivoting", std::string("bk"));
  const pb::FactorOptions p = Sent(o);
  EXPECT_TRUE(p.has_fill_level());
  EXPECT_EQ(p.fill_level(), -1);
  EXPECT_EQ(p.epsilon(), 0.25);
  EXPECT_EQ(p.delta(), 1.0);
  EXPECT_EQ(p.shift_count(), int64_t{1} << 40);
  EXPECT_TRUE(p.deterministic());
  EXPECT_EQ(p.ordering(), pb::ORDERING_METIS);
  EXPECT_EQ(p.pivoting(), pb::PIVOTING_BUNCH_KAUFMAN);
}

TEST(Messages, NamedOptionsAsText) {
  FactorizeOptions o;
  o.named = {{"drop_tolerance", "0"},  // set to 0: differs from unset
             {"sweeps", "12"},
             {"shift_first", "-1e-8"},
             {"deterministic", "true"},
             {"trisolve", "block_jacobi"}};
  const pb::FactorOptions p = Sent(o);
  EXPECT_TRUE(p.has_drop_tolerance());
  EXPECT_EQ(p.drop_tolerance(), 0.0);
  EXPECT_EQ(p.sweeps(), 12);
  EXPECT_EQ(p.shift_first(), -1e-8);
  EXPECT_TRUE(p.deterministic());
  EXPECT_EQ(p.trisolve(), pb::TRIANGULAR_SOLVE_BLOCK_JACOBI);
}

TEST(Messages, ANamedOptionOverridesItsMember) {
  FactorizeOptions o;
  o.pivot_threshold = 0.1;
  o.ordering = "amd";
  o.Set("pivot_threshold", 0.2).Set("ordering", "rcm");
  const pb::FactorOptions p = Sent(o);
  EXPECT_EQ(p.pivot_threshold(), 0.2);
  EXPECT_EQ(p.ordering(), pb::ORDERING_RCM);
}

TEST(Messages, AnUnknownNameIsRefusedNamingIt) {
  FactorizeOptions o;
  o.Set("pivot_treshold", 0.1);
  const absl::Status s = Refusal(o);
  ExpectNamesField(s, "options.pivot_treshold");
  EXPECT_THAT(s.message(), HasSubstr("unknown option 'pivot_treshold'"));
  EXPECT_EQ(CheckNamedOption("pivot_treshold", 0.1), s);
  // Fields of other messages, or not options, are not options either.
  ExpectNamesField(CheckNamedOption("tolerance", 1e-6), "options.tolerance");
  ExpectNamesField(CheckNamedOption("", 1.0), "options.");
}

TEST(Messages, AValueNotOfTheFieldsTypeIsRefusedNamingIt) {
  struct Case {
    const char* name;
    OptionValue value;
    const char* expected;
  };
  const Case cases[] = {
      {"pivot_threshold", "abc", "pivot_threshold 'abc' is not a number"},
      {"pivot_threshold", true, "pivot_threshold 'true' is not a number"},
      {"sweeps", "1.5", "sweeps '1.5' is not a 32-bit integer"},
      {"sweeps", 2.0, "sweeps '2' is not a 32-bit integer"},
      {"sweeps", int64_t{1} << 31, "is not a 32-bit integer"},
      {"sweeps", "3000000000", "is not a 32-bit integer"},
      {"shift_count", "x", "shift_count 'x' is not an integer"},
      {"deterministic", "maybe", "deterministic 'maybe' is not true or false"},
      {"deterministic", int64_t{1}, "is not true or false"},
      {"ordering", "nd", "unknown ordering 'nd'"},
      {"ordering", int64_t{2}, "ordering '2' is not a name (auto|natural|"},
  };
  for (const Case& c : cases) {
    FactorizeOptions o;
    o.Set(c.name, c.value);
    const absl::Status s = Refusal(o);
    ExpectNamesField(s, std::string("options.") + c.name);
    EXPECT_THAT(s.message(), HasSubstr(c.expected));
    EXPECT_EQ(CheckNamedOption(c.name, c.value), s);
  }
  EXPECT_TRUE(CheckNamedOption("sweeps", int64_t{7}).ok());
  EXPECT_TRUE(CheckNamedOption("sweeps", "-7").ok());  // the server's range
  EXPECT_TRUE(CheckNamedOption("pivot_threshold", "inf").ok());
}

}  // namespace
}  // namespace factord::client::internal
