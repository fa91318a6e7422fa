// A scalar option of an options struct under the name it travels by: the
// field of factord.v1.FactorOptions (proto/factord/v1/solver.proto) that
// carries it. Each family's options header lists its scalar options in a
// table of these next to its struct; core/solver/option_table.h gathers the
// tables for FactorOptions, and the server and the client convert every
// listed option by its name, with no per-option code. Enumerations are not
// listed: their wire values differ from the core's and are converted by
// hand (server/service/convert.cc).
#ifndef FACTORD_SOLVER_OPTION_FIELD_H_
#define FACTORD_SOLVER_OPTION_FIELD_H_

#include <cstdint>
#include <string_view>
#include <variant>

namespace factord {

template <typename Options>
struct OptionField {
  // The proto field's name, which is also the member's.
  std::string_view name;
  // The member; its type is the proto field's: bool, int32 (int), int64
  // (int64_t) or double.
  std::variant<bool Options::*, int Options::*, int64_t Options::*,
               double Options::*>
      member;
};

}  // namespace factord

#endif  // FACTORD_SOLVER_OPTION_FIELD_H_
