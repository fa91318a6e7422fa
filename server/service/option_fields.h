// The scalar fields of factord.v1.FactorOptions, converted by name: each
// field a request sets that has an entry of the same name in the core's
// option table (core/solver/option_table.h) is copied into that member, by
// protobuf reflection, so that a new option needs no line here. The other
// fields are converted by hand in convert.cc and listed below; a set field
// that is in neither is this server's mistake (INTERNAL), never dropped.
#ifndef FACTORD_SERVER_SERVICE_OPTION_FIELDS_H_
#define FACTORD_SERVER_SERVICE_OPTION_FIELDS_H_

#include <string_view>

#include "absl/status/status.h"
#include "core/solver/options.h"
#include "google/protobuf/message.h"

namespace factord::server {

// The fields of factord.v1.FactorOptions that convert.cc converts by hand:
// the enumerations, whose wire numbers differ from the core's values, and
// `deterministic`, which has no FactorOptions member: every backend is
// deterministic for a fixed thread count, whatever it says (solver.proto).
inline constexpr std::string_view kHandConvertedFactorOptions[] = {
    "ordering", "pivoting", "trisolve", "scaling", "blocking", "deterministic",
};

// Copies every field `in` (a factord.v1.FactorOptions; tests pass other
// messages) sets (a field with presence that is present, or a field
// without presence that is not 0) that has an entry in the core's option
// table into `out`; leaves the others, and the hand-converted fields,
// alone. INTERNAL, naming "options.<field>", for a set field with
// neither an entry nor a place in kHandConvertedFactorOptions, or whose
// type is not its member's (int32: int, int64: int64_t, bool, double).
// Does not check ranges (ValidateFactorOptions does).
absl::Status CopyTableFactorOptions(const google::protobuf::Message& in,
                                    FactorOptions* out);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_OPTION_FIELDS_H_
