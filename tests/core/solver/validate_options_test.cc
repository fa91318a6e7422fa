// The options' ranges (core/solver/validate_options.cc): one meaning per
// value, and every refusal names its field.
#include "core/solver/validate_options.h"

#include <limits>

#include "gtest/gtest.h"

namespace factord {
namespace {

// The field a refusal names, or "" when `s` is OK or names none.
std::string FieldOf(const absl::Status& s) {
  return InvalidOptionField(s).value_or("");
}

TEST(ValidateOptions, DefaultsAreValidForEveryMethod) {
  for (Method m :
       {Method::kAuto, Method::kNone, Method::kJacobi, Method::kBlockJacobi,
        Method::kLdlt, Method::kBlockIldlt, Method::kJacobiLdlt, Method::kIc,
        Method::kIlu, Method::kLu}) {
    FactorOptions o;
    o.method = m;
    EXPECT_TRUE(ValidateFactorOptions(o).ok()) << MethodName(m);
  }
  EXPECT_TRUE(ValidateSolveOptions(SolveOptions{}).ok());
}

TEST(ValidateOptions, FillFactorZeroIsNoLimitAndNegativeIsRefused) {
  FactorOptions o;
  o.method = Method::kBlockIldlt;
  o.fill_factor = 0;
  EXPECT_TRUE(ValidateFactorOptions(o).ok());
  for (double bad : {-1.0, std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()}) {
    o.fill_factor = bad;
    const absl::Status s = ValidateFactorOptions(o);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_EQ(FieldOf(s), "fill_factor") << s;
    EXPECT_EQ(s.message().rfind("fill_factor ", 0), 0u) << s;
  }
}

TEST(ValidateOptions, FamilyRangesApplyToTheirMethodOnly) {
  FactorOptions o;
  o.epsilon = 1.5;  // >= 0 for every method, < 1 for jacobi_ldlt
  o.method = Method::kLdlt;
  EXPECT_TRUE(ValidateFactorOptions(o).ok());
  o.method = Method::kJacobiLdlt;
  EXPECT_EQ(FieldOf(ValidateFactorOptions(o)), "epsilon");

  FactorOptions level;
  level.fill_level = -1;  // full fill: refused by the methods that read it
  for (Method m : {Method::kLdlt, Method::kAuto}) {
    level.method = m;
    EXPECT_TRUE(ValidateFactorOptions(level).ok()) << MethodName(m);
  }
  for (Method m :
       {Method::kBlockIldlt, Method::kJacobiLdlt, Method::kIc, Method::kIlu}) {
    level.method = m;
    EXPECT_EQ(FieldOf(ValidateFactorOptions(level)), "fill_level")
        << MethodName(m);
  }
}

TEST(ValidateOptions, EachRangeNamesItsField) {
  struct Case {
    void (*set)(FactorOptions&);
    const char* field;
  };
  const Case cases[] = {
      {[](FactorOptions& o) { o.max_block_size = 33; }, "max_block_size"},
      {[](FactorOptions& o) { o.fill_level = -2; }, "fill_level"},
      {[](FactorOptions& o) { o.drop_tolerance = -1; }, "drop_tolerance"},
      {[](FactorOptions& o) { o.sweeps = -1; }, "sweeps"},
      {[](FactorOptions& o) { o.delta = 0; }, "delta"},
      {[](FactorOptions& o) { o.trisolve_sweeps = -1; }, "trisolve_sweeps"},
      {[](FactorOptions& o) { o.shift_count = -1; }, "shift_count"},
      {[](FactorOptions& o) { o.pivot_threshold = 0.6; }, "pivot_threshold"},
  };
  for (const Case& c : cases) {
    FactorOptions o;
    c.set(o);
    EXPECT_EQ(FieldOf(ValidateFactorOptions(o)), c.field);
  }
  FactorOptions shifted;
  shifted.shift_count = 5;
  EXPECT_TRUE(ValidateFactorOptions(shifted).ok());  // n not known
  EXPECT_TRUE(ValidateFactorOptions(shifted, 5).ok());
  EXPECT_EQ(FieldOf(ValidateFactorOptions(shifted, 4)), "shift_count");

  SolveOptions solve;
  solve.restart = 0;
  EXPECT_EQ(FieldOf(ValidateSolveOptions(solve)), "restart");
}

TEST(ValidateOptions, OtherStatusesNameNoField) {
  EXPECT_EQ(InvalidOptionField(absl::InvalidArgumentError("x")), std::nullopt);
  EXPECT_EQ(InvalidOptionField(absl::OkStatus()), std::nullopt);
}

}  // namespace
}  // namespace factord
