// The method families behind the facade (solver.cc). Each family lives in its
// own file and implements one Analyze/Factorize pair; solver.cc only picks.
#ifndef FACTORD_SOLVER_METHODS_H_
#define FACTORD_SOLVER_METHODS_H_

#include <memory>

#include "absl/status/statusor.h"
#include "core/solver/solver.h"

namespace factord::internal {

// none, jacobi, block_jacobi (S3): preconditioned Krylov methods.
// core/solver/iterative_method.cc
absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeIterative(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx);
absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeIterative(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx);

// ldlt and block_ildlt (S1, with S2 push-back pivoting).
// core/ldlt/ldlt_method.cc
absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeLdlt(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx);
absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeLdlt(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx);

// lu: UMFPACK. core/lu/lu_method.cc
absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeLu(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx);
absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeLu(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx);

// jacobi_ldlt (S2 Alg. 2): fixed-point block LDL^T sweeps.
// core/jacobi_ldlt/jacobi_ldlt_method.cc
absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeJacobiLdlt(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx);
absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeJacobiLdlt(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx);

// ic and ilu (S4): level-based IC(k)/ILU(k) with exact, Jacobi or
// block-Jacobi triangular solves. core/incomplete/incomplete_method.cc
absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeIncomplete(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx);
absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeIncomplete(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx);

}  // namespace factord::internal

#endif  // FACTORD_SOLVER_METHODS_H_
