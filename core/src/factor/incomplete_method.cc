// ic and ilu (S4): placeholder until the level-based factorizations land.
#include "absl/status/status.h"
#include "src/solver/methods.h"

namespace factord::internal {

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeIncomplete(
    const CsrMatrix&, const FactorOptions&, const ExecContext&) {
  return absl::UnimplementedError("method ic/ilu is not implemented yet");
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeIncomplete(
    std::shared_ptr<const CsrMatrix>, std::shared_ptr<const Analysis>,
    const FactorOptions&, const ExecContext&) {
  return absl::UnimplementedError("method ic/ilu is not implemented yet");
}

}  // namespace factord::internal
