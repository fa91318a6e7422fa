// Names of the core's enums, as they appear in logs, JSON and metric labels
// (StructureName is in core/matrix/csr.cc, part of factord_matrix_io).
#include <string>

#include "absl/strings/str_cat.h"
#include "core/base/exec_context.h"
#include "core/solver/options.h"
#include "core/solver/report.h"

namespace factord {

absl::string_view BackendName(Backend backend) {
  switch (backend) {
    case Backend::kReference:
      return "reference";
    case Backend::kCpu:
      return "cpu";
    case Backend::kCuda:
      return "cuda";
  }
  return "unknown";
}

namespace {

constexpr std::pair<Method, absl::string_view> kMethods[] = {
    {Method::kAuto, "auto"},
    {Method::kNone, "none"},
    {Method::kJacobi, "jacobi"},
    {Method::kBlockJacobi, "block_jacobi"},
    {Method::kLdlt, "ldlt"},
    {Method::kBlockIldlt, "block_ildlt"},
    {Method::kJacobiLdlt, "jacobi_ldlt"},
    {Method::kIc, "ic"},
    {Method::kIlu, "ilu"},
    {Method::kLu, "lu"},
};
constexpr std::pair<Krylov, absl::string_view> kKrylovs[] = {
    {Krylov::kAuto, "auto"},
    {Krylov::kNone, "none"},
    {Krylov::kCg, "cg"},
    {Krylov::kGmres, "gmres"},
    {Krylov::kSqmr, "sqmr"},
    {Krylov::kIdr, "idr"},
    {Krylov::kBicgstab, "bicgstab"},
};
constexpr std::pair<Ordering, absl::string_view> kOrderings[] = {
    {Ordering::kAuto, "auto"}, {Ordering::kNatural, "natural"},
    {Ordering::kAmd, "amd"},   {Ordering::kMetis, "metis"},
    {Ordering::kRcm, "rcm"},   {Ordering::kGmc, "gmc"},
};
constexpr std::pair<Scaling, absl::string_view> kScalings[] = {
    {Scaling::kAuto, "auto"},
    {Scaling::kNone, "none"},
    {Scaling::kRuiz, "ruiz"},
    {Scaling::kMatching, "matching"},
    {Scaling::kColumnNorm, "column_norm"},
};
constexpr std::pair<Pivoting, absl::string_view> kPivotings[] = {
    {Pivoting::kStatic, "static"},
    {Pivoting::kBunchKaufman, "bk"},
    {Pivoting::kRook, "rook"},
};

template <typename E, size_t N>
absl::string_view NameOf(const std::pair<E, absl::string_view> (&table)[N],
                         E value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "unknown";
}

template <typename E, size_t N>
absl::StatusOr<E> Parse(const std::pair<E, absl::string_view> (&table)[N],
                        absl::string_view what, absl::string_view name) {
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

absl::string_view MethodName(Method m) { return NameOf(kMethods, m); }
absl::string_view KrylovName(Krylov k) { return NameOf(kKrylovs, k); }
absl::string_view OrderingName(Ordering o) { return NameOf(kOrderings, o); }
absl::string_view PivotingName(Pivoting p) { return NameOf(kPivotings, p); }
absl::string_view ScalingName(Scaling s) { return NameOf(kScalings, s); }
absl::StatusOr<Method> ParseMethod(absl::string_view name) {
  return Parse(kMethods, "method", name);
}
absl::StatusOr<Krylov> ParseKrylov(absl::string_view name) {
  return Parse(kKrylovs, "krylov method", name);
}
absl::StatusOr<Ordering> ParseOrdering(absl::string_view name) {
  return Parse(kOrderings, "ordering", name);
}
absl::StatusOr<Pivoting> ParsePivoting(absl::string_view name) {
  return Parse(kPivotings, "pivoting", name);
}

absl::string_view FactorStatusName(FactorStatus s) {
  switch (s) {
    case FactorStatus::kOk:
      return "ok";
    case FactorStatus::kSingular:
      return "singular";
    case FactorStatus::kPerturbed:
      return "perturbed";
  }
  return "unknown";
}

absl::string_view SolveStatusName(SolveStatus s) {
  switch (s) {
    case SolveStatus::kConverged:
      return "converged";
    case SolveStatus::kNotConverged:
      return "not_converged";
    case SolveStatus::kBreakdown:
      return "breakdown";
    case SolveStatus::kSingular:
      return "singular";
  }
  return "unknown";
}

std::string FactorOptions::AnalysisKey() const {
  // Only what shapes the symbolic analysis; values, shifts and numeric
  // thresholds do not invalidate it.
  return absl::StrCat(
      MethodName(method), "/", OrderingName(ordering), "/b", max_block_size,
      "/l", fill_level, "/s", static_cast<int>(scaling), "/t",
      static_cast<int>(trisolve), "/k", static_cast<int>(blocking),
      impose_matching_pairs ? "" : "/np");
}

}  // namespace factord
