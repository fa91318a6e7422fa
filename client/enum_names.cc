// Enum names derived from descriptors (see enum_names.h).
#include "client/enum_names.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "client/status_payloads.h"

namespace factord::client::internal {
namespace {

// Names callers used before the names were derived from the .proto, by full
// value name. Accepted when parsing; never produced.
constexpr std::pair<absl::string_view, absl::string_view> kAliases[] = {
    {"factord.v1.PIVOTING_BUNCH_KAUFMAN", "bk"},
};

// "TriangularSolve" -> "TRIANGULAR_SOLVE_".
std::string ValuePrefix(const google::protobuf::EnumDescriptor& type) {
  std::string prefix;
  for (char c : type.name()) {
    if (absl::ascii_isupper(static_cast<unsigned char>(c)) && !prefix.empty()) {
      prefix += '_';
    }
    prefix += absl::ascii_toupper(static_cast<unsigned char>(c));
  }
  prefix += '_';
  return prefix;
}

std::string DerivedName(const google::protobuf::EnumValueDescriptor& value) {
  absl::string_view name = value.name();
  absl::ConsumePrefix(&name, ValuePrefix(*value.type()));
  return absl::AsciiStrToLower(name);
}

}  // namespace

std::string EnumValueName(const google::protobuf::EnumDescriptor& type,
                          int number) {
  const google::protobuf::EnumValueDescriptor* value =
      type.FindValueByNumber(number);
  if (value == nullptr) return absl::StrCat("unknown(", number, ")");
  return DerivedName(*value);
}

std::vector<std::string> EnumValueNames(
    const google::protobuf::EnumDescriptor& type) {
  std::vector<std::string> names;
  names.reserve(type.value_count());
  for (int i = 0; i < type.value_count(); ++i) {
    names.push_back(DerivedName(*type.value(i)));
  }
  return names;
}

absl::StatusOr<int> ParseEnumValue(const google::protobuf::EnumDescriptor& type,
                                   absl::string_view name,
                                   absl::string_view field) {
  if (name.empty() && type.FindValueByNumber(0) != nullptr) return 0;
  for (int i = 0; i < type.value_count(); ++i) {
    const google::protobuf::EnumValueDescriptor& value = *type.value(i);
    if (DerivedName(value) == name) return value.number();
    for (const auto& [full_name, alias] : kAliases) {
      if (alias == name && full_name == value.full_name()) {
        return value.number();
      }
    }
  }
  // "pivoting" from "options.pivoting": the word a person reads.
  absl::string_view what = field;
  if (size_t dot = what.rfind('.'); dot != absl::string_view::npos) {
    what.remove_prefix(dot + 1);
  }
  return ClientError(
      absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
      absl::StrCat("unknown ", what, " '", name, "' (expected ",
                   absl::StrJoin(EnumValueNames(type), "|"), ")"),
      field);
}

}  // namespace factord::client::internal
