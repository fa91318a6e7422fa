// Options of the factorize and solve stages, as the core sees them.
//
// FactorOptions is one struct: the knobs several method families share are
// its own members; the knobs of one family are in that family's options
// struct (core/<family>/<family>_options.h), a base of FactorOptions, so
// `options.fill_factor` reads the same everywhere and a family's code can
// take its own part alone. The ranges of every value are checked in one
// place, ValidateFactorOptions (core/solver/validate_options.h).
//
// The server converts proto messages into these structs in one place
// (server/service/convert.cc); nothing here knows about the wire.
#ifndef FACTORD_SOLVER_OPTIONS_H_
#define FACTORD_SOLVER_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/block_ildlt/block_ildlt_options.h"
#include "core/incomplete/incomplete_options.h"
#include "core/jacobi_ldlt/jacobi_ldlt_options.h"
#include "core/ldlt/ldlt_options.h"
#include "core/solver/option_field.h"

namespace factord {

enum class Method {
  kAuto,         // picks by matrix class and memory
  kNone,         // unpreconditioned Krylov
  kJacobi,       // scalar diagonal scaling
  kBlockJacobi,  // S3: supervariable blocks, batched Gauss-Jordan inverses
  kLdlt,         // S1 to full fill: complete block LDL^T, the IPM direct path
  kBlockIldlt,   // S1: incomplete block LDL^T as an SQMR preconditioner
  kJacobiLdlt,   // S2: fixed-point block LDL^T sweeps
  kIc,           // S4: IC(k)
  kIlu,          // S4: ILU(k)
  kLu,           // direct LU through UMFPACK
};

enum class Krylov { kAuto, kNone, kCg, kGmres, kSqmr, kIdr, kBicgstab };

enum class Ordering { kAuto, kNatural, kAmd, kMetis, kRcm, kGmc };

enum class Pivoting { kStatic, kBunchKaufman, kRook };

enum class Scaling { kAuto, kNone, kRuiz, kMatching, kColumnNorm };

absl::string_view MethodName(Method m);
absl::string_view KrylovName(Krylov k);
absl::string_view OrderingName(Ordering o);
absl::string_view PivotingName(Pivoting p);
absl::string_view ScalingName(Scaling s);
absl::StatusOr<Method> ParseMethod(absl::string_view name);
absl::StatusOr<Krylov> ParseKrylov(absl::string_view name);
absl::StatusOr<Ordering> ParseOrdering(absl::string_view name);
absl::StatusOr<Pivoting> ParsePivoting(absl::string_view name);

struct FactorOptions : LdltOptions,
                       BlockIldltOptions,
                       JacobiLdltOptions,
                       IncompleteOptions {
  Method method = Method::kAuto;
  Ordering ordering = Ordering::kAuto;
  // Symmetric scaling of the matrix factorized; kAuto is the method's own.
  // What each method applies (ValidateFactorOptions refuses the others):
  // ldlt Ruiz (auto), none or matching; block_ildlt and jacobi_ldlt Ruiz
  // (auto) or none; ic and ilu none (auto) or column_norm; lu UMFPACK's
  // own row scaling (auto) or none; none, jacobi and block_jacobi auto or
  // none (a Jacobi preconditioner is invariant under diagonal scaling).
  Scaling scaling = Scaling::kAuto;
  Pivoting pivoting = Pivoting::kBunchKaufman;
  // Largest diagonal block (1..32, for warp kernels) of block_ildlt,
  // jacobi_ldlt and block_jacobi.
  int max_block_size = 32;
  // Level of fill of the incomplete factorizations (block_ildlt,
  // jacobi_ldlt's pattern, ic, ilu): >= 0 for them; -1 (full fill) is
  // accepted for the methods that do not read it.
  int fill_level = 1;
  // IPM regularization without re-upload: shift_first is added to the first
  // shift_count diagonal entries, shift_rest to the others, and
  // diagonal_shift[i] (when not empty: n entries) to entry i on top. The
  // shifted matrix is the system: it is factorized (for the iterative
  // methods: the preconditioner is built from it), its solves solve it and
  // report its residuals (core/solver/residual.h). Every method applies
  // them but none (no preconditioner) and lu (UMFPACK factorizes the matrix
  // as uploaded), which refuse them.
  double shift_first = 0.0;
  double shift_rest = 0.0;
  int64_t shift_count = 0;
  std::vector<double> diagonal_shift;
  // Threshold u of the 1x1/2x2 pivot test |l_ij| <= 1/u of ldlt's fronts
  // and block_ildlt's and jacobi_ldlt's diagonal blocks, in (0, 0.5]
  // (MA57's default 0.01). A larger u trades fill and delays for stability:
  // an IPM raises it when it asks for a more accurate factorization.
  double pivot_threshold = 0.01;

  // What is added to diagonal entry i (shift_first / shift_rest, plus
  // diagonal_shift[i]); HasShift is false when that is 0 for every i by
  // construction (no scalar shift, no diagonal vector).
  double ShiftOf(int64_t i) const {
    const double scalar = i < shift_count ? shift_first : shift_rest;
    return diagonal_shift.empty() ? scalar : scalar + diagonal_shift[i];
  }
  bool HasShift() const {
    return shift_first != 0 || shift_rest != 0 || !diagonal_shift.empty();
  }
  // ShiftOf(i) for i in [0, n), or empty when !HasShift(): the diagonal the
  // factorized system adds to the matrix as uploaded, which its solves
  // solve with (core/solver/residual.h).
  std::vector<double> ShiftVector(int64_t n) const {
    std::vector<double> shift;
    if (!HasShift()) return shift;
    shift.resize(n);
    for (int64_t i = 0; i < n; ++i) shift[i] = ShiftOf(i);
    return shift;
  }

  // A key of the options that determine the analysis, for the analysis cache.
  std::string AnalysisKey() const;
};

// FactorOptions' own scalar options that travel on the wire, by their proto
// field names (core/solver/option_field.h); the families' are in their
// headers, and core/solver/option_table.h gathers them all. The enumerations
// (method, ordering, scaling, pivoting) and diagonal_shift are converted by
// hand.
inline constexpr OptionField<FactorOptions> kSharedOptionFields[] = {
    {"max_block_size", &FactorOptions::max_block_size},
    {"fill_level", &FactorOptions::fill_level},
    {"shift_first", &FactorOptions::shift_first},
    {"shift_rest", &FactorOptions::shift_rest},
    {"shift_count", &FactorOptions::shift_count},
    {"pivot_threshold", &FactorOptions::pivot_threshold},
};

// The direct methods (ldlt, lu) take krylov auto or none (substitution and
// iterative refinement), tolerance as the refinement's target, and leave
// restart and idr_s (and, for ldlt, whose refinement stops when a step no
// longer helps, max_iterations) at their defaults; lu caps its refinement
// steps at min(max_iterations, 10). ValidateSolveOptions checks this for
// the method of the factorization.
struct SolveOptions {
  Krylov krylov = Krylov::kAuto;
  double tolerance = 1e-8;  // on ||b - Ax||_2 / ||b||_2, the true residual
  int max_iterations = 1000;
  int restart = 50;  // GMRES(m)
  int idr_s = 4;     // IDR(s)
};

}  // namespace factord

#endif  // FACTORD_SOLVER_OPTIONS_H_
