// Transparent re-upload (ConnectOptions::reupload_on_not_found): the public
// Upload, UpdateValues, Factorize and Solve keep the client's copy current
// and, when the server answers NOT_FOUND, upload the copy again under the
// same ID and retry once. Generations: the server that lost the matrix
// cannot check the caller's expected generation, so the client checks it
// against the generation its copy was last reported at, and the retried
// call expects the generation the re-upload got.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "client/factord_client.h"
#include "client/grpc_status.h"
#include "client/retained_matrices.h"

namespace factord::client {

absl::StatusOr<MatrixInfo> Client::Upload(const CsrArrays& matrix,
                                          absl::string_view id,
                                          const UploadOptions& options) {
  const std::string name = id.empty() ? NewMatrixId() : std::string(id);
  absl::StatusOr<MatrixInfo> info = UploadRetried(matrix, name, options);
  if (info.ok() && options_.reupload_on_not_found) {
    retained_->Keep(info->id, matrix, info->generation);
  }
  return info;
}

absl::StatusOr<MatrixInfo> Client::UpdateValues(absl::string_view id,
                                                std::span<const double> values,
                                                uint64_t expected_generation) {
  absl::StatusOr<MatrixInfo> info =
      UpdateValuesRetried(id, values, expected_generation);
  if (!options_.reupload_on_not_found) return info;
  if (info.ok()) {
    retained_->SetValues(id, values, info->generation);
    return info;
  }
  if (!ShouldRestore(info.status())) return info;
  if (absl::Status s = CheckKeptGeneration(id, expected_generation); !s.ok()) {
    return absl::IsNotFound(s) ? info : s;
  }
  const std::optional<internal::RetainedMatrix> kept = retained_->Find(id);
  // Released meanwhile, or a wrong number of values: the server's verdict
  // stands.
  if (!kept || !retained_->SetValues(id, values, kept->generation)) {
    return info;
  }
  // The server lost the matrix: the upload of the new values is the update.
  return Restore(id, /*refactorize=*/false);
}

absl::StatusOr<FactorizeResult> Client::Factorize(
    absl::string_view id, const FactorizeOptions& options) {
  absl::StatusOr<FactorizeResult> result = FactorizeRetried(id, options);
  if (ShouldRestore(result.status())) {
    if (absl::Status s = CheckKeptGeneration(id, options.expected_generation);
        !s.ok()) {
      return absl::IsNotFound(s) ? result : s;
    }
    absl::StatusOr<MatrixInfo> restored = Restore(id, /*refactorize=*/false);
    if (!restored.ok()) return result;
    FactorizeOptions retry = options;
    if (retry.expected_generation != 0) {
      retry.expected_generation = restored->generation;
    }
    result = FactorizeRetried(id, retry);
  }
  if (result.ok() && options_.reupload_on_not_found) {
    retained_->SetFactorized(id, options, result->generation);
  }
  return result;
}

absl::StatusOr<std::vector<SolveResult>> Client::Solve(
    absl::string_view id, std::span<const std::span<const double>> rhs,
    const SolveOptions& options) {
  absl::StatusOr<std::vector<SolveResult>> results =
      SolveRetried(id, rhs, options);
  if (!ShouldRestore(results.status())) return results;
  if (absl::Status s = CheckKeptGeneration(id, options.expected_generation);
      !s.ok()) {
    return absl::IsNotFound(s) ? results : s;
  }
  absl::StatusOr<MatrixInfo> restored = Restore(id, /*refactorize=*/true);
  if (!restored.ok()) return results;
  SolveOptions retry = options;
  if (retry.expected_generation != 0) {
    retry.expected_generation = restored->generation;
  }
  return SolveRetried(id, rhs, retry);
}

absl::StatusOr<MatrixInfo> Client::Restore(absl::string_view id,
                                           bool refactorize) {
  const std::optional<internal::RetainedMatrix> kept = retained_->Find(id);
  if (!kept) {
    return internal::ClientError(
        absl::StatusCode::kNotFound, "NOT_FOUND",
        absl::StrCat("no copy of matrix '", id, "' kept by the client"));
  }
  retained_->CountReupload();
  absl::StatusOr<MatrixInfo> info =
      UploadRetried(kept->arrays(), id, UploadOptions{.replace = false});
  if (absl::IsAlreadyExists(info.status())) {
    // Another call of this client restored it first: adopt what it made.
    info = GetMatrix(id);
  }
  if (!info.ok()) return info;
  retained_->SetGeneration(id, info->generation);
  if (!refactorize || !kept->factorized || !kept->factorize) return info;
  FactorizeOptions again = *kept->factorize;
  again.expected_generation = info->generation;
  absl::StatusOr<FactorizeResult> factor = FactorizeRetried(id, again);
  if (!factor.ok()) return factor.status();
  retained_->SetFactorized(id, *kept->factorize, factor->generation);
  return info;
}

bool Client::ShouldRestore(const absl::Status& status) const {
  return options_.reupload_on_not_found && absl::IsNotFound(status);
}

absl::Status Client::CheckKeptGeneration(absl::string_view id,
                                         uint64_t expected_generation) const {
  const std::optional<internal::RetainedMatrix> kept = retained_->Find(id);
  if (!kept) {
    return absl::NotFoundError(
        absl::StrCat("no copy of matrix '", id, "' kept by the client"));
  }
  if (expected_generation == 0 || expected_generation == kept->generation) {
    return absl::OkStatus();
  }
  return internal::ClientError(
      absl::StatusCode::kAborted, "GENERATION_MISMATCH",
      absl::StrCat("matrix '", id, "' was at generation ", kept->generation,
                   " when the server lost it, not ", expected_generation),
      /*field=*/"",
      {{"expected", absl::StrCat(expected_generation)},
       {"current", absl::StrCat(kept->generation)}});
}

int64_t Client::reuploads() const { return retained_->reuploads(); }

}  // namespace factord::client
