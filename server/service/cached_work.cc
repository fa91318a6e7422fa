#include "server/service/cached_work.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/base/timer.h"
#include "core/solver/solver.h"
#include "core/solver/validate_options.h"
#include "server/error_reason.h"

namespace factord::server {
namespace {

// Methods whose orderings go through libraries with 32-bit indices (METIS
// idx_t: PLATFORM.md). lu uses UMFPACK's long-index API; the Krylov-only
// methods use no library index at all.
bool UsesInt32Libraries(Method m) {
  return m != Method::kNone && m != Method::kJacobi &&
         m != Method::kBlockJacobi && m != Method::kLu;
}

absl::Status CheckInt32Limits(const CsrMatrix& a, Method method) {
  if (!UsesInt32Libraries(method)) return absl::OkStatus();
  // The symmetric expansion stores about twice the lower triangle.
  const int64_t graph_entries =
      IsSymmetric(a.structure) ? 2 * a.nnz() - a.rows : a.nnz();
  const int64_t limit = std::numeric_limits<int32_t>::max();
  if (graph_entries > limit) {
    return WithReason(
        absl::ResourceExhaustedError(absl::StrCat(
            "method ", MethodName(method), " needs the expanded pattern (",
            graph_entries, " entries) to fit 32-bit library indices (limit ",
            limit, "); use block_jacobi or a smaller matrix")),
        v1::MATRIX_TOO_LARGE);
  }
  return absl::OkStatus();
}

struct AnalysisChoice {
  std::shared_ptr<const Analysis> analysis;
  bool reused = false;
  double analyze_s = 0;
};

absl::StatusOr<AnalysisChoice> FindOrAnalyze(AnalysisCache& analyses,
                                             const CacheEntry& entry,
                                             const FactorOptions& options,
                                             const ExecContext& ctx) {
  // Analyses are shared within a tenant only: a shared one would tell a
  // tenant (analysis_reused, timings) that another holds the same pattern,
  // and UMFPACK's symbolic phase looks at the first values (lu_method.cc).
  const std::string key = absl::StrCat(
      entry.tenant, "/",
      AnalysisCache::Key(*entry.matrix, entry.pattern_hash, options));
  AnalysisChoice choice;
  choice.analysis = analyses.Find(key);
  if (choice.analysis != nullptr) {
    choice.reused = true;
    return choice;
  }
  Timer timer;
  absl::StatusOr<std::shared_ptr<const Analysis>> analysis =
      Analyze(*entry.matrix, options, ctx);
  if (!analysis.ok()) return analysis.status();
  choice.analysis = *std::move(analysis);
  choice.analyze_s = choice.analysis->analyze_s > 0 ? choice.analysis->analyze_s
                                                    : timer.Seconds();
  analyses.Insert(key, choice.analysis);
  return choice;
}

// What the core refuses about a factorization: an option out of its range
// (INVALID_OPTION on that option), the method or options do not fit this
// matrix (INVALID_OPTION on the method), the device budget, or a method or
// backend this build lacks.
absl::Status TagCoreError(absl::Status status) {
  if (InvalidOptionField(status).has_value()) {
    return InvalidOptionFromCore(std::move(status));
  }
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      return WithBadField(
          WithDefaultReason(std::move(status), v1::INVALID_OPTION), "method");
    case absl::StatusCode::kResourceExhausted:
      return WithDefaultReason(std::move(status), v1::DEVICE_BUDGET);
    case absl::StatusCode::kUnimplemented:
    case absl::StatusCode::kFailedPrecondition:
      return WithDefaultReason(std::move(status), v1::UNSUPPORTED);
    default:
      return status;
  }
}

}  // namespace

absl::Status CheckMatrixId(absl::string_view id, absl::string_view field) {
  if (id.empty()) {
    return InvalidRequest(
        field, "the request must name the matrix (an ID chosen by the client)");
  }
  if (id.size() > kMaxMatrixIdLength) {
    return InvalidRequest(
        field, absl::StrCat("matrix id of ", id.size(), " bytes, over ",
                            kMaxMatrixIdLength));
  }
  for (size_t i = 0; i < id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(id[i]);
    if (c < 0x21 || c > 0x7e) {
      return InvalidRequest(field, absl::StrCat("matrix id byte ", i, " (0x",
                                                absl::Hex(c, absl::kZeroPad2),
                                                ") is not printable ASCII"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<FactorizeOutcome> FactorizeEntry(const FactorStore& store,
                                                const MatrixKey& key,
                                                const CacheEntry& entry,
                                                const FactorOptions& requested,
                                                bool deterministic,
                                                const ExecContext& ctx) {
  const std::string& id = key.id;
  const CsrMatrix& a = *entry.matrix;
  FactorCache& cache = *store.cache;
  const int64_t budget = cache.budget_bytes();
  // What this entry may grow to under the tenant's quota (its own bytes are
  // counted in the tenant's use already).
  const int64_t quota = cache.tenant_budget_bytes();
  const int64_t room =
      quota > 0 ? std::clamp<int64_t>(
                      quota - cache.tenant_bytes(key.tenant) + entry.bytes(), 0,
                      budget)
                : budget;

  if (absl::Status s = ValidateFactorOptions(requested, a.rows); !s.ok()) {
    return InvalidOptionFromCore(std::move(s));
  }

  // The core resolves `auto` against the room left (core/solver/solver.h:
  // ChooseMethod); each analysis it asks for is looked up in the cache
  // first, after the 32-bit limits of the method it is for. `choice` ends
  // as that of the method chosen (the last analysis asked for).
  AnalysisChoice choice;
  absl::StatusOr<MethodChoice> chosen = ChooseMethod(
      a, requested, room,
      [&](const FactorOptions& resolved)
          -> absl::StatusOr<std::shared_ptr<const Analysis>> {
        if (absl::Status s = CheckInt32Limits(a, resolved.method); !s.ok()) {
          return s;
        }
        absl::StatusOr<AnalysisChoice> found =
            FindOrAnalyze(*store.analyses, entry, resolved, ctx);
        if (!found.ok()) return TagCoreError(found.status());
        choice = *std::move(found);
        return choice.analysis;
      });
  if (!chosen.ok()) return chosen.status();
  FactorOptions options = requested;
  options.method = chosen->method;
  const int64_t expected = ExpectedFactorBytes(a, *choice.analysis);
  if (absl::Status s = cache.CheckTenantQuota(
          key.tenant, expected - entry.bytes(),
          absl::StrCat("factorizing matrix '", id, "' with ",
                       MethodName(options.method), " (about ", expected,
                       " bytes with its matrix)"));
      !s.ok()) {
    return s;
  }
  if (expected > budget) {
    return WithReason(
        absl::ResourceExhaustedError(absl::StrCat(
            "factorizing matrix '", id, "' with ", MethodName(options.method),
            " needs about ", expected, " bytes (factor estimate ",
            choice.analysis->factor_bytes_estimate(),
            "), over the cache budget cache_bytes = ", budget)),
        v1::CACHE_BUDGET);
  }
  if (absl::Status s = ctx.cancellation->Check(); !s.ok()) return s;

  absl::StatusOr<std::shared_ptr<const Factorization>> factorization =
      Factorize(entry.matrix, choice.analysis, options, ctx);
  if (!factorization.ok()) return TagCoreError(factorization.status());

  FactorizeOutcome outcome;
  outcome.method = options.method;
  outcome.report = (*factorization)->report();
  outcome.report.analysis_reused = choice.reused;
  outcome.report.analyze_s = choice.analyze_s;
  absl::StatusOr<CacheEntry> stored = cache.StoreFactorization(
      key, entry.pattern_hash, entry.generation, choice.analysis,
      *std::move(factorization), options.method, deterministic);
  if (!stored.ok()) return stored.status();
  outcome.entry = *std::move(stored);
  if (outcome.entry.stale) {
    absl::StrAppend(&outcome.report.message,
                    outcome.report.message.empty() ? "" : "; ",
                    "values were updated during the factorization: it is "
                    "stale, factorize again");
  }
  return outcome;
}

absl::Status CheckSolvable(const CacheEntry& entry, absl::string_view id,
                           uint64_t expected_generation) {
  if (entry.factorization == nullptr) {
    return WithReason(
        absl::FailedPreconditionError(absl::StrCat(
            "matrix '", id, "' has not been factorized: call Factorize first")),
        v1::NOT_FACTORIZED);
  }
  if (absl::Status s =
          CheckGeneration(id, expected_generation, entry.generation);
      !s.ok()) {
    return s;
  }
  if (entry.stale) {
    return WithReason(
        absl::FailedPreconditionError(absl::StrCat(
            "the values of matrix '", id,
            "' changed (UpdateValues) since its factorization: call "
            "Factorize again")),
        v1::STALE_FACTOR);
  }
  return absl::OkStatus();
}

}  // namespace factord::server
