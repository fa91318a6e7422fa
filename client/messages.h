// The wire messages (factord.v1) <-> the client's plain structs
// (factord_client.h). Enumerations travel as numbers and are names in the
// structs (enum_names.h). Internal to the client library.
#ifndef FACTORD_CLIENT_MESSAGES_H_
#define FACTORD_CLIENT_MESSAGES_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/factord_client.h"
#include "factord/v1/solver.pb.h"

namespace factord::client::internal {

namespace pb = ::factord::v1;

// OK for a non-empty matrix ID; else InvalidArgument with reason
// INVALID_REQUEST and a BadRequest on `field` (the ID's field in the
// request). The server checks the rest (length, characters).
absl::Status CheckMatrixId(absl::string_view id,
                           absl::string_view field = "id");

// MatrixInfo.method is "" when the matrix has no factorization (AUTO on the
// wire).
MatrixInfo FromProto(const pb::MatrixInfo& p);
Timings FromProto(const pb::Timings& p);
FactorizeResult FromProto(const pb::FactorizeReply& p);
ServerInfo FromProto(const pb::ServerInfoReply& p);

// The report of one right-hand side from the solution chunk that carries
// it (last = true); the solution values are not touched.
void SetSolveReport(const pb::SolveReply& p, SolveResult* result);

// The request for Factorize(id, options): the members, then the options of
// options.named by their field names (protobuf reflection). InvalidArgument
// (INVALID_OPTION, BadRequest on the field) for an unknown enumeration
// name, and for a named option that is not a field of FactorOptions or
// whose value is not of the field's type.
absl::StatusOr<pb::FactorizeRequest> ToFactorizeRequest(
    absl::string_view id, const FactorizeOptions& options);

// The options of a Solve stream's first message; InvalidArgument
// (INVALID_OPTION) for an unknown Krylov method.
absl::StatusOr<pb::SolveOptions> ToProto(const SolveOptions& options);

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_MESSAGES_H_
