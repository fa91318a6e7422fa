// The client's copies for re-upload (see retained_matrices.h).
#include "client/retained_matrices.h"

#include <utility>

namespace factord::client::internal {

void RetainedMatrices::Keep(absl::string_view id, const CsrArrays& matrix,
                            uint64_t generation) {
  auto pattern = std::make_shared<RetainedPattern>();
  pattern->n = matrix.n;
  pattern->structure = matrix.structure;
  pattern->row_ptr.assign(matrix.row_ptr.begin(), matrix.row_ptr.end());
  pattern->col_idx.assign(matrix.col_idx.begin(), matrix.col_idx.end());
  RetainedMatrix kept;
  kept.pattern = std::move(pattern);
  kept.values = std::make_shared<const std::vector<double>>(
      matrix.values.begin(), matrix.values.end());
  kept.generation = generation;
  std::lock_guard lock(mu_);
  matrices_.insert_or_assign(std::string(id), std::move(kept));
}

bool RetainedMatrices::SetValues(absl::string_view id,
                                 std::span<const double> values,
                                 uint64_t generation) {
  std::lock_guard lock(mu_);
  auto it = matrices_.find(std::string(id));
  if (it == matrices_.end() || static_cast<int64_t>(values.size()) !=
                                   it->second.pattern->row_ptr.back()) {
    return false;
  }
  it->second.values =
      std::make_shared<const std::vector<double>>(values.begin(), values.end());
  it->second.generation = generation;
  it->second.factorized = false;
  return true;
}

void RetainedMatrices::SetGeneration(absl::string_view id,
                                     uint64_t generation) {
  std::lock_guard lock(mu_);
  auto it = matrices_.find(std::string(id));
  if (it != matrices_.end()) it->second.generation = generation;
}

void RetainedMatrices::SetFactorized(absl::string_view id,
                                     const FactorizeOptions& options,
                                     uint64_t generation) {
  std::lock_guard lock(mu_);
  auto it = matrices_.find(std::string(id));
  if (it == matrices_.end()) return;
  it->second.factorize = options;
  it->second.factorized =
      generation == 0 || generation == it->second.generation;
}

std::optional<RetainedMatrix> RetainedMatrices::Find(
    absl::string_view id) const {
  std::lock_guard lock(mu_);
  auto it = matrices_.find(std::string(id));
  if (it == matrices_.end()) return std::nullopt;
  return it->second;
}

void RetainedMatrices::Forget(absl::string_view id) {
  std::lock_guard lock(mu_);
  matrices_.erase(std::string(id));
}

void RetainedMatrices::CountReupload() {
  std::lock_guard lock(mu_);
  ++reuploads_;
}

int64_t RetainedMatrices::reuploads() const {
  std::lock_guard lock(mu_);
  return reuploads_;
}

}  // namespace factord::client::internal
