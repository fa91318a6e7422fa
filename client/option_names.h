// The names the client library accepts for the wire enumerations, derived
// from proto/factord/v1/solver.proto (the value name without its prefix,
// lower-cased: METHOD_BLOCK_JACOBI <-> "block_jacobi"). Besides them: "" for
// the server's default (value 0, UNSPECIFIED or AUTO) and "bk" for
// "bunch_kaufman". For programs that check names before connecting
// (factorctl); the Client checks them again before sending.
#ifndef FACTORD_CLIENT_OPTION_NAMES_H_
#define FACTORD_CLIENT_OPTION_NAMES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace factord::client {

// Which enumeration a name belongs to (the CsrArrays, FactorizeOptions and
// SolveOptions fields of the same names).
enum class OptionEnum {
  kStructure,
  kMethod,
  kOrdering,
  kPivoting,
  kScaling,
  kBlocking,
  kTriangularSolve,
  kKrylov,
};

// OK when `name` is accepted for `which`; else InvalidArgument with reason
// INVALID_OPTION whose message lists the names.
absl::Status CheckOptionName(OptionEnum which, absl::string_view name);

// Every value's name, in the order of the .proto (value 0 first).
std::vector<std::string> OptionNames(OptionEnum which);

}  // namespace factord::client

#endif  // FACTORD_CLIENT_OPTION_NAMES_H_
