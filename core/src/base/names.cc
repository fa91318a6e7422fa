// Names of the core's enums, as they appear in logs, JSON and metric labels.
#include <string>

#include "absl/strings/str_cat.h"
#include "factord/base/exec_context.h"
#include "factord/matrix/csr.h"
#include "factord/solver/options.h"
#include "factord/solver/report.h"

namespace factord {

std::string_view BackendName(Backend backend) {
  switch (backend) {
    case Backend::kReference: return "reference";
    case Backend::kCpu: return "cpu";
    case Backend::kCuda: return "cuda";
  }
  return "unknown";
}

std::string_view StructureName(Structure structure) {
  switch (structure) {
    case Structure::kGeneral: return "general";
    case Structure::kSymmetricLower: return "symmetric_lower";
    case Structure::kSpdLower: return "spd_lower";
  }
  return "unknown";
}

namespace {

constexpr std::pair<Method, std::string_view> kMethods[] = {
    {Method::kAuto, "auto"},         {Method::kNone, "none"},
    {Method::kJacobi, "jacobi"},     {Method::kBlockJacobi, "block_jacobi"},
    {Method::kLdlt, "ldlt"},         {Method::kBlockIldlt, "block_ildlt"},
    {Method::kJacobiLdlt, "jacobi_ldlt"}, {Method::kIc, "ic"},
    {Method::kIlu, "ilu"},           {Method::kLu, "lu"},
};
constexpr std::pair<Krylov, std::string_view> kKrylovs[] = {
    {Krylov::kAuto, "auto"}, {Krylov::kNone, "none"},
    {Krylov::kCg, "cg"},     {Krylov::kGmres, "gmres"},
    {Krylov::kSqmr, "sqmr"}, {Krylov::kIdr, "idr"},
    {Krylov::kBicgstab, "bicgstab"},
};
constexpr std::pair<Ordering, std::string_view> kOrderings[] = {
    {Ordering::kAuto, "auto"}, {Ordering::kNatural, "natural"},
    {Ordering::kAmd, "amd"},   {Ordering::kMetis, "metis"},
    {Ordering::kRcm, "rcm"},   {Ordering::kGmc, "gmc"},
};
constexpr std::pair<Pivoting, std::string_view> kPivotings[] = {
    {Pivoting::kStatic, "static"},
    {Pivoting::kBunchKaufman, "bk"},
    {Pivoting::kRook, "rook"},
};

template <typename E, size_t N>
std::string_view NameOf(const std::pair<E, std::string_view> (&table)[N],
                        E value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "unknown";
}

template <typename E, size_t N>
absl::StatusOr<E> Parse(const std::pair<E, std::string_view> (&table)[N],
                        std::string_view what, std::string_view name) {
  std::string known;
  for (const auto& [v, n] : table) {
    if (n == name) return v;
    absl::StrAppend(&known, known.empty() ? "" : ", ");
    absl::StrAppend(&known, n);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown ", what, " '", name, "' (known: ", known, ")"));
}

}  // namespace

std::string_view MethodName(Method m) { return NameOf(kMethods, m); }
std::string_view KrylovName(Krylov k) { return NameOf(kKrylovs, k); }
std::string_view OrderingName(Ordering o) { return NameOf(kOrderings, o); }
std::string_view PivotingName(Pivoting p) { return NameOf(kPivotings, p); }
absl::StatusOr<Method> ParseMethod(std::string_view name) {
  return Parse(kMethods, "method", name);
}
absl::StatusOr<Krylov> ParseKrylov(std::string_view name) {
  return Parse(kKrylovs, "krylov method", name);
}
absl::StatusOr<Ordering> ParseOrdering(std::string_view name) {
  return Parse(kOrderings, "ordering", name);
}
absl::StatusOr<Pivoting> ParsePivoting(std::string_view name) {
  return Parse(kPivotings, "pivoting", name);
}

std::string_view FactorStatusName(FactorStatus s) {
  switch (s) {
    case FactorStatus::kOk: return "ok";
    case FactorStatus::kSingular: return "singular";
    case FactorStatus::kPerturbed: return "perturbed";
  }
  return "unknown";
}

std::string_view SolveStatusName(SolveStatus s) {
  switch (s) {
    case SolveStatus::kConverged: return "converged";
    case SolveStatus::kNotConverged: return "not_converged";
    case SolveStatus::kBreakdown: return "breakdown";
    case SolveStatus::kSingular: return "singular";
  }
  return "unknown";
}

std::string FactorOptions::AnalysisKey() const {
  // Only what shapes the symbolic analysis; values, shifts and numeric
  // thresholds do not invalidate it.
  return absl::StrCat(MethodName(method), "/", OrderingName(ordering), "/b",
                      max_block_size, "/l", fill_level, "/s",
                      static_cast<int>(scaling), "/t",
                      static_cast<int>(trisolve));
}

}  // namespace factord
