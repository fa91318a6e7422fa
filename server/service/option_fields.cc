// Reflective conversion of the table options (option_fields.h).
#include "server/service/option_fields.h"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/solver/option_table.h"
#include "google/protobuf/descriptor.h"

namespace factord::server {
namespace {

using google::protobuf::FieldDescriptor;

bool IsHandConverted(std::string_view name) {
  return std::find(std::begin(kHandConvertedFactorOptions),
                   std::end(kHandConvertedFactorOptions),
                   name) != std::end(kHandConvertedFactorOptions);
}

// out->*member = the value of `field` in `in`, when their types match.
template <typename T>
bool CopyField(const google::protobuf::Message& in,
               const FieldDescriptor& field, T FactorOptions::*member,
               FactorOptions* out) {
  const google::protobuf::Reflection& r = *in.GetReflection();
  if constexpr (std::is_same_v<T, bool>) {
    if (field.cpp_type() != FieldDescriptor::CPPTYPE_BOOL) return false;
    out->*member = r.GetBool(in, &field);
  } else if constexpr (std::is_same_v<T, int>) {
    if (field.cpp_type() != FieldDescriptor::CPPTYPE_INT32) return false;
    out->*member = r.GetInt32(in, &field);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    if (field.cpp_type() != FieldDescriptor::CPPTYPE_INT64) return false;
    out->*member = r.GetInt64(in, &field);
  } else {
    static_assert(std::is_same_v<T, double>);
    if (field.cpp_type() != FieldDescriptor::CPPTYPE_DOUBLE) return false;
    out->*member = r.GetDouble(in, &field);
  }
  return true;
}

}  // namespace

absl::Status CopyTableFactorOptions(const google::protobuf::Message& in,
                                    FactorOptions* out) {
  std::vector<const FieldDescriptor*> set;
  in.GetReflection()->ListFields(in, &set);
  for (const FieldDescriptor* field : set) {
    if (IsHandConverted(field->name())) continue;
    const FactorOptionField* option = FindFactorOptionField(field->name());
    if (option == nullptr) {
      return absl::InternalError(absl::StrCat(
          "options.", field->name(),
          " is set but this server has no core option of that name "
          "(core/solver/option_table.h) and no conversion for it"));
    }
    const bool copied = std::visit(
        [&](auto member) { return CopyField(in, *field, member, out); },
        option->member);
    if (!copied) {
      return absl::InternalError(absl::StrCat(
          "options.", field->name(), " is a ", field->cpp_type_name(),
          " on the wire but its core option has another type"));
    }
  }
  return absl::OkStatus();
}

}  // namespace factord::server
