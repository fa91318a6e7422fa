// The options' ranges (core/solver/validate_options.cc): one meaning per
// value, no option accepted by a method that does not apply it, and every
// refusal names its field.
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

constexpr Method kEveryMethod[] = {Method::kAuto,       Method::kNone,
                                   Method::kJacobi,     Method::kBlockJacobi,
                                   Method::kLdlt,       Method::kBlockIldlt,
                                   Method::kJacobiLdlt, Method::kIc,
                                   Method::kIlu,        Method::kLu};

// What each method applies (options.h); auto takes every scaling until it
// resolves to a method.
bool Applies(Method m, Scaling s) {
  if (s == Scaling::kAuto || s == Scaling::kNone || m == Method::kAuto) {
    return true;
  }
  switch (s) {
    case Scaling::kRuiz:
      return m == Method::kLdlt || m == Method::kBlockIldlt ||
             m == Method::kJacobiLdlt;
    case Scaling::kMatching:
      return m == Method::kLdlt;
    case Scaling::kColumnNorm:
      return m == Method::kIc || m == Method::kIlu;
    default:
      return false;
  }
}

TEST(ValidateOptions, AScalingTheMethodDoesNotApplyIsRefused) {
  for (Method m : kEveryMethod) {
    for (Scaling s : {Scaling::kAuto, Scaling::kNone, Scaling::kRuiz,
                      Scaling::kMatching, Scaling::kColumnNorm}) {
      FactorOptions o;
      o.method = m;
      o.scaling = s;
      const absl::Status status = ValidateFactorOptions(o);
      if (Applies(m, s)) {
        EXPECT_TRUE(status.ok())
            << MethodName(m) << " " << ScalingName(s) << ": " << status;
      } else {
        EXPECT_EQ(FieldOf(status), "scaling")
            << MethodName(m) << " " << ScalingName(s) << ": " << status;
        EXPECT_NE(status.message().find(ScalingName(s)), std::string::npos);
        EXPECT_NE(status.message().find(MethodName(m)), std::string::npos);
      }
    }
  }
}

TEST(ValidateOptions, ShiftsAreRefusedByTheMethodsThatCannotApplyThem) {
  for (Method m : kEveryMethod) {
    const bool refuses = m == Method::kNone || m == Method::kLu;
    FactorOptions first;
    first.method = m;
    first.shift_first = 1e-8;
    first.shift_count = 1;
    FactorOptions rest;
    rest.method = m;
    rest.shift_rest = -1e-8;
    FactorOptions vector;
    vector.method = m;
    vector.diagonal_shift = {1.0, 0.0};
    FactorOptions count_only;  // shifts of 0: nothing to apply
    count_only.method = m;
    count_only.shift_count = 1;
    EXPECT_TRUE(ValidateFactorOptions(count_only).ok()) << MethodName(m);
    const std::pair<const FactorOptions*, const char*> cases[] = {
        {&first, "shift_first"},
        {&rest, "shift_rest"},
        {&vector, "diagonal_shift"}};
    for (const auto& [options, field] : cases) {
      const absl::Status s = ValidateFactorOptions(*options);
      EXPECT_EQ(FieldOf(s), refuses ? field : "") << MethodName(m) << ": " << s;
    }
  }
}

TEST(ValidateOptions, SolveOptionsAreCheckedForTheMethodSolvedWith) {
  struct Case {
    Method method;
    void (*set)(SolveOptions&);
    const char* field;  // "" : accepted
  };
  const Case cases[] = {
      // The direct methods: substitution and refinement.
      {Method::kLdlt, [](SolveOptions& o) { o.krylov = Krylov::kNone; }, ""},
      {Method::kLdlt, [](SolveOptions& o) { o.tolerance = 1e-12; }, ""},
      {Method::kLdlt, [](SolveOptions& o) { o.krylov = Krylov::kCg; },
       "krylov"},
      {Method::kLdlt, [](SolveOptions& o) { o.krylov = Krylov::kGmres; },
       "krylov"},
      {Method::kLdlt, [](SolveOptions& o) { o.max_iterations = 20; },
       "max_iterations"},
      {Method::kLdlt, [](SolveOptions& o) { o.restart = 30; }, "restart"},
      {Method::kLdlt, [](SolveOptions& o) { o.idr_s = 8; }, "idr_s"},
      {Method::kLu, [](SolveOptions& o) { o.max_iterations = 3; }, ""},
      {Method::kLu, [](SolveOptions& o) { o.krylov = Krylov::kBicgstab; },
       "krylov"},
      // The preconditioners need a Krylov method.
      {Method::kIc, [](SolveOptions& o) { o.krylov = Krylov::kNone; },
       "krylov"},
      {Method::kJacobi, [](SolveOptions& o) { o.krylov = Krylov::kNone; },
       "krylov"},
      {Method::kIlu, [](SolveOptions& o) { o.restart = 10; }, ""},
      {Method::kBlockIldlt, [](SolveOptions& o) { o.krylov = Krylov::kCg; },
       "krylov"},
      {Method::kJacobiLdlt, [](SolveOptions& o) { o.krylov = Krylov::kCg; },
       "krylov"},
      {Method::kBlockIldlt, [](SolveOptions& o) { o.krylov = Krylov::kIdr; },
       ""},
      // Not known yet: the ranges only.
      {Method::kAuto, [](SolveOptions& o) { o.krylov = Krylov::kCg; }, ""},
      {Method::kAuto, [](SolveOptions& o) { o.max_iterations = 20; }, ""},
  };
  for (const Case& c : cases) {
    SolveOptions o;
    c.set(o);
    const absl::Status s = ValidateSolveOptions(o, c.method);
    EXPECT_EQ(FieldOf(s), c.field) << MethodName(c.method) << ": " << s;
  }
  for (Method m : kEveryMethod) {
    EXPECT_TRUE(ValidateSolveOptions(SolveOptions{}, m).ok()) << MethodName(m);
  }
}

TEST(ValidateOptions, OtherStatusesNameNoField) {
  EXPECT_EQ(InvalidOptionField(absl::InvalidArgumentError("x")), std::nullopt);
  EXPECT_EQ(InvalidOptionField(absl::OkStatus()), std::nullopt);
}

}  // namespace
}  // namespace factord
