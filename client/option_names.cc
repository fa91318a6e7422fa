// Public access to the derived enum names (see option_names.h).
#include "client/option_names.h"

#include "client/enum_names.h"
#include "factord/v1/solver.pb.h"

namespace factord::client {
namespace {

namespace pb = ::factord::v1;

struct EnumField {
  const google::protobuf::EnumDescriptor* type;
  const char* field;  // in the request, for BadRequest
};

EnumField Lookup(OptionEnum which) {
  switch (which) {
    case OptionEnum::kStructure:
      return {pb::Structure_descriptor(), "header.structure"};
    case OptionEnum::kMethod:
      return {pb::Method_descriptor(), "method"};
    case OptionEnum::kOrdering:
      return {pb::Ordering_descriptor(), "options.ordering"};
    case OptionEnum::kPivoting:
      return {pb::Pivoting_descriptor(), "options.pivoting"};
    case OptionEnum::kScaling:
      return {pb::Scaling_descriptor(), "options.scaling"};
    case OptionEnum::kBlocking:
      return {pb::Blocking_descriptor(), "options.blocking"};
    case OptionEnum::kTriangularSolve:
      return {pb::TriangularSolve_descriptor(), "options.trisolve"};
    case OptionEnum::kKrylov:
      return {pb::Krylov_descriptor(), "options.krylov"};
  }
  return {pb::Method_descriptor(), "method"};
}

}  // namespace

absl::Status CheckOptionName(OptionEnum which, absl::string_view name) {
  const EnumField e = Lookup(which);
  return internal::ParseEnumValue(*e.type, name, e.field).status();
}

std::vector<std::string> OptionNames(OptionEnum which) {
  return internal::EnumValueNames(*Lookup(which).type);
}

}  // namespace factord::client
