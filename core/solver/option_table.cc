// The families' option tables gathered (option_table.h).
#include "core/solver/option_table.h"

#include <vector>

namespace factord {
namespace {

// A member of a base of FactorOptions as a member of FactorOptions.
template <typename T, typename Part>
FactorOptionField Widen(std::string_view name, T Part::*member) {
  T FactorOptions::*widened = member;
  return {name, widened};
}

// `table`: an array of OptionField<Part>.
template <typename Table>
void Append(const Table& table, std::vector<FactorOptionField>& all) {
  for (const auto& field : table) {
    all.push_back(
        std::visit([&field](auto member) { return Widen(field.name, member); },
                   field.member));
  }
}

}  // namespace

std::span<const FactorOptionField> FactorOptionFields() {
  // One table per struct: a new family adds its line here; a new option of
  // a family goes in the family's table only.
  static const std::vector<FactorOptionField>* const all = [] {
    auto* fields = new std::vector<FactorOptionField>;
    Append(kSharedOptionFields, *fields);
    Append(kLdltOptionFields, *fields);
    Append(kBlockIldltOptionFields, *fields);
    Append(kJacobiLdltOptionFields, *fields);
    Append(kIncompleteOptionFields, *fields);
    return fields;
  }();
  return *all;
}

const FactorOptionField* FindFactorOptionField(std::string_view name) {
  for (const FactorOptionField& field : FactorOptionFields()) {
    if (field.name == name) return &field;
  }
  return nullptr;
}

}  // namespace factord
