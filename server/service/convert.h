// The one place where wire messages (factord.v1) become core types and core
// results become wire messages. Unset proto fields (0, UNSPECIFIED, AUTO,
// or an absent optional field) take the core's defaults; the ranges are the
// core's (core/solver/validate_options.h), and a value out of range is
// InvalidArgument (INVALID_OPTION) naming the field.
#ifndef FACTORD_SERVER_SERVICE_CONVERT_H_
#define FACTORD_SERVER_SERVICE_CONVERT_H_

#include <cstdint>
#include <span>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"
#include "core/solver/report.h"
#include "factord/v1/solver.pb.h"
#include "server/cache/factor_cache.h"
#include "server/error_reason.h"
#include "server/service/matrix_upload.h"

namespace factord::server {

namespace pb = ::factord::v1;

absl::StatusOr<Structure> StructureFromProto(pb::Structure structure);
pb::Structure StructureToProto(Structure structure);

absl::StatusOr<Method> MethodFromProto(pb::Method method);
pb::Method MethodToProto(Method method);

// The factorization options of a request: `method` and `options` as sent.
// The enumerations are converted here by hand; the scalar fields by their
// names through the core's option table (option_fields.h), so that adding
// an option to a family's table needs no line here. `deterministic` has no
// core counterpart: every backend is bitwise deterministic for a fixed
// thread count (solver.proto), so the field changes nothing. The options
// are checked (ValidateFactorOptions) for the method asked for; `auto` is
// checked again for the method it resolves to, by the core.
absl::StatusOr<FactorOptions> FactorOptionsFromProto(
    pb::Method method, const pb::FactorOptions& options);

// The solve options of a request, checked (ValidateSolveOptions) for
// `method`, the method of the factorization they solve with (kAuto: the
// ranges only, when it is not known yet).
absl::StatusOr<SolveOptions> SolveOptionsFromProto(
    const pb::SolveOptions& options, Method method = Method::kAuto);

// Fills everything of `reply` but timings.queue_s.
void FactorReportToProto(const FactorReport& report, Method method,
                         pb::FactorizeReply* reply);

// Fills the report fields of the last chunk of a solution (status, norms,
// iterations, timings.solve_s, message); not the values.
void SolveReportToProto(const SolveReport& report, pb::SolveReply* reply);

// What the cache holds about one matrix. bytes_received of the snapshot.
void CacheEntryToProto(const CacheEntry& entry, pb::MatrixInfo* info);

// The arrays of a CSR or COO chunk message as views (matrix_upload.h),
// kept here so that every proto field access is in this file.
CsrChunkView ViewCsrChunk(const pb::CsrChunk& chunk);
CooChunkView ViewCooChunk(const pb::CooChunk& chunk);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_CONVERT_H_
