// Names of the wire enumerations, derived from their proto descriptors so
// that no table has to follow the .proto by hand: a value's name is its
// proto name without the enum's prefix, lower-cased (METHOD_BLOCK_JACOBI <->
// "block_jacobi", TRIANGULAR_SOLVE_EXACT <-> "exact"). The prefix is the
// enum's own name in UPPER_SNAKE_CASE plus '_' (TriangularSolve ->
// TRIANGULAR_SOLVE_); a value without it keeps its whole name (ErrorReason's
// QUEUE_FULL -> "queue_full").
//
// Parsing also accepts the empty name for value 0 (UNSPECIFIED or AUTO: the
// server's default) and a few aliases older callers used ("bk" for
// PIVOTING_BUNCH_KAUFMAN). Internal to the client library: the public API
// passes names (option_names.h).
#ifndef FACTORD_CLIENT_ENUM_NAMES_H_
#define FACTORD_CLIENT_ENUM_NAMES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/generated_enum_reflection.h"

namespace factord::client::internal {

// The derived name of value `number` of `type`; "unknown(N)" for a number
// the descriptor does not have (a value newer than this client).
std::string EnumValueName(const google::protobuf::EnumDescriptor& type,
                          int number);

// The derived names of every value of `type`, in declaration order.
std::vector<std::string> EnumValueNames(
    const google::protobuf::EnumDescriptor& type);

// The number of the value of `type` called `name` (derived name, alias, or
// "" for 0). Otherwise InvalidArgument with reason INVALID_OPTION and a
// BadRequest violation on `field` (the request field, e.g.
// "options.pivoting"), whose message lists the accepted names.
absl::StatusOr<int> ParseEnumValue(const google::protobuf::EnumDescriptor& type,
                                   absl::string_view name,
                                   absl::string_view field);

// Typed shorthands for the generated enums.
template <typename E>
std::string NameOf(E value) {
  return EnumValueName(*google::protobuf::GetEnumDescriptor<E>(),
                       static_cast<int>(value));
}

template <typename E>
absl::StatusOr<E> ParseEnum(absl::string_view name, absl::string_view field) {
  absl::StatusOr<int> number =
      ParseEnumValue(*google::protobuf::GetEnumDescriptor<E>(), name, field);
  if (!number.ok()) return number.status();
  return static_cast<E>(*number);
}

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_ENUM_NAMES_H_
