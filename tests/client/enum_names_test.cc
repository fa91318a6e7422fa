// The enum names the client derives from the .proto descriptors: every
// value of every enum of the wire contract round-trips through its name,
// the names are the documented ones, "bk" still means Bunch-Kaufman, and an
// unknown name is INVALID_OPTION naming the field.
#include "client/enum_names.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "client/option_names.h"
#include "client/status_details.h"
#include "factord/v1/errors.pb.h"
#include "factord/v1/solver.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace factord::client::internal {
namespace {

namespace pb = ::factord::v1;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// Every enum of solver.proto and errors.proto.
std::vector<const google::protobuf::EnumDescriptor*> WireEnums() {
  std::vector<const google::protobuf::EnumDescriptor*> enums;
  for (const google::protobuf::FileDescriptor* file :
       {pb::Method_descriptor()->file(),
        pb::ErrorReason_descriptor()->file()}) {
    for (int i = 0; i < file->enum_type_count(); ++i) {
      enums.push_back(file->enum_type(i));
    }
  }
  return enums;
}

TEST(EnumNamesTest, EveryValueOfEveryEnumRoundTrips) {
  const std::vector<const google::protobuf::EnumDescriptor*> enums =
      WireEnums();
  // Structure, Method, Ordering, Pivoting, Scaling, Blocking,
  // TriangularSolve, FactorStatus, Krylov, SolveStatus; ErrorReason.
  ASSERT_GE(enums.size(), 11u);
  for (const google::protobuf::EnumDescriptor* type : enums) {
    std::set<std::string> seen;
    for (int i = 0; i < type->value_count(); ++i) {
      const int number = type->value(i)->number();
      const std::string name = EnumValueName(*type, number);
      EXPECT_FALSE(name.empty()) << type->full_name();
      EXPECT_EQ(name, absl::AsciiStrToLower(name)) << type->full_name();
      EXPECT_TRUE(seen.insert(name).second)
          << type->full_name() << ": '" << name << "' twice";
      absl::StatusOr<int> back = ParseEnumValue(*type, name, "field");
      ASSERT_TRUE(back.ok())
          << type->full_name() << " " << name << ": " << back.status();
      EXPECT_EQ(*back, number) << type->full_name() << " " << name;
    }
    EXPECT_EQ(EnumValueNames(*type).size(),
              static_cast<size_t>(type->value_count()));
    // 0 is UNSPECIFIED or AUTO everywhere, and "" stands for it.
    const std::string zero = EnumValueName(*type, 0);
    EXPECT_TRUE(zero == "unspecified" || zero == "auto")
        << type->full_name() << ": " << zero;
    absl::StatusOr<int> empty = ParseEnumValue(*type, "", "field");
    ASSERT_TRUE(empty.ok()) << type->full_name();
    EXPECT_EQ(*empty, 0);
  }
}

TEST(EnumNamesTest, NamesAreTheValueNamesWithoutThePrefix) {
  EXPECT_EQ(NameOf(pb::METHOD_BLOCK_JACOBI), "block_jacobi");
  EXPECT_EQ(NameOf(pb::METHOD_AUTO), "auto");
  EXPECT_EQ(NameOf(pb::PIVOTING_BUNCH_KAUFMAN), "bunch_kaufman");
  EXPECT_EQ(NameOf(pb::TRIANGULAR_SOLVE_BLOCK_JACOBI), "block_jacobi");
  EXPECT_EQ(NameOf(pb::STRUCTURE_SYMMETRIC_LOWER), "symmetric_lower");
  EXPECT_EQ(NameOf(pb::SCALING_COLUMN_NORM), "column_norm");
  EXPECT_EQ(NameOf(pb::FACTOR_STATUS_OK), "ok");
  EXPECT_EQ(NameOf(pb::SOLVE_STATUS_NOT_CONVERGED), "not_converged");
  EXPECT_EQ(NameOf(pb::KRYLOV_BICGSTAB), "bicgstab");
  EXPECT_EQ(NameOf(pb::BLOCKING_BR), "br");
  // ErrorReason's values have no prefix (but its 0 does).
  EXPECT_EQ(NameOf(pb::QUEUE_FULL), "queue_full");
  EXPECT_EQ(NameOf(pb::ERROR_REASON_UNSPECIFIED), "unspecified");
  // A number this client does not know (a newer server's value).
  EXPECT_EQ(NameOf(static_cast<pb::Method>(99)), "unknown(99)");
}

TEST(EnumNamesTest, BkIsAnAliasOfBunchKaufman) {
  absl::StatusOr<pb::Pivoting> bk = ParseEnum<pb::Pivoting>("bk", "p");
  ASSERT_TRUE(bk.ok()) << bk.status();
  EXPECT_EQ(*bk, pb::PIVOTING_BUNCH_KAUFMAN);
  // Accepted, never produced; and only for pivoting.
  EXPECT_EQ(NameOf(pb::PIVOTING_BUNCH_KAUFMAN), "bunch_kaufman");
  EXPECT_FALSE(ParseEnum<pb::Method>("bk", "method").ok());
  EXPECT_TRUE(CheckOptionName(OptionEnum::kPivoting, "bk").ok());
}

TEST(EnumNamesTest, UnknownNameIsInvalidOptionNamingTheField) {
  absl::StatusOr<pb::Method> method =
      ParseEnum<pb::Method>("cholesky", "method");
  ASSERT_FALSE(method.ok());
  const absl::Status& s = method.status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("unknown method 'cholesky'"));
  EXPECT_THAT(s.message(), HasSubstr("block_jacobi|ldlt"));
  EXPECT_EQ(ErrorReason(s), "INVALID_OPTION");
  EXPECT_EQ(ErrorDomain(s), "factord.v1");
  EXPECT_THAT(FieldViolations(s),
              ElementsAre(Pair("method", HasSubstr("cholesky"))));

  // The word is the field's last part; case matters (names are lower-case).
  absl::Status p = CheckOptionName(OptionEnum::kPivoting, "ROOK");
  EXPECT_THAT(p.message(), HasSubstr("unknown pivoting 'ROOK'"));
  EXPECT_THAT(FieldViolations(p),
              ElementsAre(Pair("options.pivoting", ::testing::_)));
  EXPECT_EQ(ErrorReason(CheckOptionName(OptionEnum::kStructure, "hermitian")),
            "INVALID_OPTION");
}

TEST(OptionNamesTest, PublicNamesComeFromTheContract) {
  EXPECT_THAT(OptionNames(OptionEnum::kBlocking),
              ElementsAre("unspecified", "rb", "br"));
  EXPECT_THAT(OptionNames(OptionEnum::kScaling),
              ElementsAre("auto", "none", "ruiz", "matching", "column_norm"));
  EXPECT_THAT(
      OptionNames(OptionEnum::kKrylov),
      ElementsAre("auto", "none", "cg", "gmres", "sqmr", "idr", "bicgstab"));
  for (OptionEnum which :
       {OptionEnum::kStructure, OptionEnum::kMethod, OptionEnum::kOrdering,
        OptionEnum::kPivoting, OptionEnum::kScaling, OptionEnum::kBlocking,
        OptionEnum::kTriangularSolve, OptionEnum::kKrylov}) {
    for (const std::string& name : OptionNames(which)) {
      EXPECT_TRUE(CheckOptionName(which, name).ok()) << name;
    }
    EXPECT_TRUE(CheckOptionName(which, "").ok());
    EXPECT_FALSE(CheckOptionName(which, "no_such_name").ok());
  }
}

}  // namespace
}  // namespace factord::client::internal
