// Placeholder until the method family lands: every call is Unimplemented.
#include "src/solver/methods.h"

namespace factord::internal {

absl::StatusOr<std::shared_ptr<const Analysis>> AnalyzeLdlt(
    const CsrMatrix&, const FactorOptions& options, const ExecContext&) {
  return absl::UnimplementedError("method not implemented yet");
}

absl::StatusOr<std::shared_ptr<const Factorization>> FactorizeLdlt(
    std::shared_ptr<const CsrMatrix>, std::shared_ptr<const Analysis>,
    const FactorOptions&, const ExecContext&) {
  return absl::UnimplementedError("method not implemented yet");
}

}  // namespace factord::internal
