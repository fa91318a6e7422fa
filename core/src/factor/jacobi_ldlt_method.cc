// jacobi_ldlt (S2 Alg. 2): placeholder until the fixed-point sweeps land.
#include "absl/status/status.h"
#include "src/solver/methods.h"

namespace factord::internal {

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeJacobiLdlt(
    const CsrMatrix&, const FactorOptions&, const ExecContext&) {
  return absl::UnimplementedError("method 'jacobi_ldlt' is not implemented yet");
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeJacobiLdlt(
    std::shared_ptr<const CsrMatrix>, std::shared_ptr<const Analysis>,
    const FactorOptions&, const ExecContext&) {
  return absl::UnimplementedError("method 'jacobi_ldlt' is not implemented yet");
}

}  // namespace factord::internal
