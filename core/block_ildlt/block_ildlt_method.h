// Method block_ildlt (S1): the block incomplete LDL^T as a preconditioner of
// SQMR. Reached through AnalyzeLdlt/FactorizeLdlt (ldlt_method.cc routes
// Method::kBlockIldlt here).
#ifndef FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_METHOD_H_
#define FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_METHOD_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/solver/solver.h"

namespace factord::internal {

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeBlockIldlt(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx);

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeBlockIldlt(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx);

// A factor in block_ildlt's layout as the preconditioner of a Krylov method
// (SQMR for krylov auto) on the matrix as uploaded plus `shift` (the
// factorization's FactorOptions::ShiftVector, empty for none: the system
// the factor was computed for); `full` is that matrix with its symmetric
// half expanded. The factorization of block_ildlt and of jacobi_ldlt, whose
// sweeps produce the same layout; `method` names it in error messages.
std::shared_ptr<const Factorization> MakeBlockPreconditionerFactorization(
    Method method, std::shared_ptr<const CsrMatrix> uploaded,
    std::vector<double> shift, CsrMatrix full,
    std::unique_ptr<BlockIldltFactor> factor, FactorReport report);

}  // namespace factord::internal

#endif  // FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_METHOD_H_
