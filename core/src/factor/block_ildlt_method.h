// Method block_ildlt (S1): the block incomplete LDL^T as a preconditioner of
// SQMR. Reached through AnalyzeLdlt/FactorizeLdlt (ldlt_method.cc routes
// Method::kBlockIldlt here).
#ifndef FACTORD_SRC_FACTOR_BLOCK_ILDLT_METHOD_H_
#define FACTORD_SRC_FACTOR_BLOCK_ILDLT_METHOD_H_

#include <memory>

#include "absl/status/statusor.h"
#include "factord/solver/solver.h"

namespace factord::internal {

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeBlockIldlt(
    const CsrMatrix& a, const FactorOptions& options, const ExecContext& ctx);

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeBlockIldlt(
    std::shared_ptr<const CsrMatrix> a,
    std::shared_ptr<const Analysis> analysis, const FactorOptions& options,
    const ExecContext& ctx);

}  // namespace factord::internal

#endif  // FACTORD_SRC_FACTOR_BLOCK_ILDLT_METHOD_H_
