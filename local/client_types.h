// The client's plain structs (client/factord_client.h) as the core's types
// and back, without the wire: what the in-process solver needs where the
// daemon reads request messages and writes replies. The meaning is the
// wire's exactly: the same names for the enumerations (derived from
// proto/factord/v1/solver.proto, "" for the default), "0 means default" for
// the options without presence on the wire, the same ranges (the core's
// ValidateFactorOptions / ValidateSolveOptions) and the same errors
// (INVALID_OPTION with a BadRequest on the request field). Tests run every
// name and option through both paths and compare
// (tests/local/client_types_test.cc).
#ifndef FACTORD_LOCAL_CLIENT_TYPES_H_
#define FACTORD_LOCAL_CLIENT_TYPES_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/factord_client.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"
#include "core/solver/report.h"
#include "server/cache/factor_cache.h"

namespace factord::local {

// CsrArrays::structure ("general", "symmetric_lower", "spd_lower"; "" or
// "unspecified": general).
absl::StatusOr<Structure> StructureFromName(absl::string_view name);

// The options a Factorize with `options` asks for, checked.
absl::StatusOr<FactorOptions> FactorOptionsFrom(
    const client::FactorizeOptions& options);
// The options a Solve with `options` asks for, checked for `method`, the
// method of the factorization they solve with (kAuto: the ranges only).
absl::StatusOr<SolveOptions> SolveOptionsFrom(
    const client::SolveOptions& options, Method method);

// The report of a factorization of matrix `id` at `generation` with the
// resolved `method`, as Client::Factorize returns it.
client::FactorizeResult FactorizeResultOf(const FactorReport& report,
                                          Method method, absl::string_view id,
                                          uint64_t generation);
// The report fields of one right-hand side's result (not its x).
void SetSolveReport(const SolveReport& report, client::SolveResult* result);
// What the cache holds about a matrix, as Client::GetMatrix returns it.
client::MatrixInfo MatrixInfoOf(const server::CacheEntry& entry);

// The wire names of the option enumerations the tests compare
// (client::OptionNames gives the wire's own list).
std::string MethodWireName(Method method);

}  // namespace factord::local

#endif  // FACTORD_LOCAL_CLIENT_TYPES_H_
