// The numerical engine's facade: analyze -> factorize -> solve.
//
// Each stage is a separate object so that the server can cache it: an
// Analysis depends only on the pattern and the options (shared by pattern hash
// across matrix IDs and reused unchanged after new values), a Factorization on
// the values too. Both are immutable once built, so solves in flight can keep
// a factorization alive (shared_ptr) while a refactorization builds the next.
#ifndef FACTORD_SOLVER_SOLVER_H_
#define FACTORD_SOLVER_SOLVER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "core/base/exec_context.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"
#include "core/solver/report.h"

namespace factord {

// Pattern-dependent work: orderings, blocking, symbolic structure.
class Analysis {
 public:
  virtual ~Analysis() = default;
  virtual Method method() const = 0;
  virtual int64_t bytes() const = 0;
  // Bytes the numeric factorization is expected to need, known before any
  // numeric work so that a cache can refuse with RESOURCE_EXHAUSTED.
  virtual int64_t factor_bytes_estimate() const = 0;
  double analyze_s = 0;
};

// Value-dependent work, ready to solve.
class Factorization {
 public:
  virtual ~Factorization() = default;
  virtual const FactorReport& report() const = 0;
  virtual int64_t bytes() const = 0;
  // Solves A x = b for the matrix that was factorized. b and x have n
  // entries; x is the initial guess on entry (zero it for x0 = 0). The
  // residual norms in `report` are recomputed from the true residual.
  virtual absl::Status Solve(std::span<const double> b, std::span<double> x,
                             const SolveOptions& options,
                             const ExecContext& ctx,
                             SolveReport* report) const = 0;

  // Solves A X = B for nrhs right-hand sides. b and x are n x nrhs,
  // column-major (column k starts at k * n); x holds the initial guesses
  // as in Solve. `reports` gets one SolveReport per column: its norms,
  // status and iterations are the column's own, as Solve reports them.
  // This default calls Solve column by column, so the timings are the
  // column's own. A method that solves the columns together (ldlt) reports
  // the timings of the whole call in every column: solve_s the wall time,
  // substitution_s the first substitution of all columns, refinement_s the
  // refinement steps of all columns (taken together).
  virtual absl::Status SolveMany(std::span<const double> b, std::span<double> x,
                                 int nrhs, const SolveOptions& options,
                                 const ExecContext& ctx,
                                 std::vector<SolveReport>* reports) const {
    if (nrhs < 0 || b.size() != x.size() ||
        (nrhs == 0 ? !b.empty() : b.size() % static_cast<size_t>(nrhs) != 0)) {
      return absl::InvalidArgumentError(
          "b and x need n x nrhs entries each (column-major)");
    }
    reports->assign(nrhs, SolveReport{});
    const size_t n = nrhs > 0 ? b.size() / nrhs : 0;
    for (int k = 0; k < nrhs; ++k) {
      absl::Status s = Solve(b.subspan(k * n, n), x.subspan(k * n, n), options,
                             ctx, &(*reports)[k]);
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  }
};

// Whether this build has method lu (UMFPACK; FACTORD_WITH_UMFPACK). Without
// it, lu is FailedPrecondition naming the build option and `auto` picks ilu
// for unsymmetric matrices.
bool LuAvailable();

// What `auto` means, decided here only (core/solver/method_choice.cc):
// an unsymmetric matrix gets lu (ilu + GMRES without UMFPACK), a symmetric
// one ldlt, and ldlt falls back to block_ildlt when the matrix, ldlt's
// analysis and its factor estimate (ExpectedFactorBytes) exceed the memory
// budget. A method other than kAuto is kept as asked.

// The choice by matrix class alone (no memory budget: ldlt for a symmetric
// matrix). ChooseMethod applies the budget on top.
Method ResolveMethod(const CsrMatrix& a, Method requested);

// Bytes a factorization of `a` is expected to hold with its matrix and
// analysis, before any numeric work: a.bytes() + analysis.bytes() +
// analysis.factor_bytes_estimate().
int64_t ExpectedFactorBytes(const CsrMatrix& a, const Analysis& analysis);

struct MethodChoice {
  Method method = Method::kAuto;             // resolved
  std::shared_ptr<const Analysis> analysis;  // for `method`, from `analyze`
};

// Analyzes `a` for options whose method is resolved; the caller can look
// an analysis up in a cache before computing it.
using AnalyzeFunction =
    absl::FunctionRef<absl::StatusOr<std::shared_ptr<const Analysis>>(
        const FactorOptions& resolved)>;

// Resolves options.method for `a` and returns the analysis of the method
// chosen. One analysis, except for `auto` falling back from ldlt to
// block_ildlt: ldlt's analysis is what gives the estimate, and block_ildlt's
// block structure (its own ordering and blocking) is not derived from it,
// so that path analyzes twice. Errors are those of `analyze`.
absl::StatusOr<MethodChoice> ChooseMethod(const CsrMatrix& a,
                                          const FactorOptions& options,
                                          int64_t memory_budget_bytes,
                                          AnalyzeFunction analyze);
// The same with the core's Analyze.
absl::StatusOr<MethodChoice> ChooseMethod(const CsrMatrix& a,
                                          const FactorOptions& options,
                                          int64_t memory_budget_bytes,
                                          const ExecContext& ctx);

// Symbolic analysis of `a` for options.method (not kAuto: resolve it
// first). The options are checked first (ValidateFactorOptions).
absl::StatusOr<std::shared_ptr<const Analysis>> Analyze(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx);

// Numeric factorization of `a` with an analysis made for the same pattern
// and options. `a` is shared so that the factorization can compute true
// residuals on the matrix as uploaded plus the options' shifts, the system
// it solves. The options are checked first
// (ValidateFactorOptions, and diagonal_shift against the matrix).
absl::StatusOr<std::shared_ptr<const Factorization>> Factorize(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx);

}  // namespace factord

#endif  // FACTORD_SOLVER_SOLVER_H_
