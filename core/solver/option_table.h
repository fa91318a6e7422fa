// Every scalar option of FactorOptions that travels on the wire, by its
// proto field name: the tables next to the structs that hold the options
// (kSharedOptionFields in core/solver/options.h, k<Family>OptionFields in
// core/<family>/<family>_options.h) gathered into one, with the members
// widened to FactorOptions'. The server converts the listed fields of a
// request by their names (server/service/option_fields.h), so an option
// added to a family's table needs no code here or there.
#ifndef FACTORD_SOLVER_OPTION_TABLE_H_
#define FACTORD_SOLVER_OPTION_TABLE_H_

#include <span>
#include <string_view>

#include "core/solver/option_field.h"
#include "core/solver/options.h"

namespace factord {

using FactorOptionField = OptionField<FactorOptions>;

// The options of every table, FactorOptions' own first, then the families'
// in the order of FactorOptions' bases. Built once; lives for the program.
std::span<const FactorOptionField> FactorOptionFields();

// The option called `name` in FactorOptionFields(), or nullptr.
const FactorOptionField* FindFactorOptionField(std::string_view name);

}  // namespace factord

#endif  // FACTORD_SOLVER_OPTION_TABLE_H_
