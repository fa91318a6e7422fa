#include "client/ipm/remote_kkt_solver.h"

#include <algorithm>
#include <span>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace factord::ipm {
namespace {

// Doubles per request message as the client library chunks them
// (client/csr_chunks.h): the message limit less 192 bytes for tags, small
// fields and the id, 64 bytes of payload at least.
int64_t ValuesPerMessage(int64_t max_chunk_bytes, int64_t id_bytes) {
  const int64_t payload = std::max<int64_t>(
      64, std::max<int64_t>(max_chunk_bytes, 256) - 192 - id_bytes);
  return payload / 8;
}

// Serialized size of `count` doubles sent in messages of at most
// `per_message` values, each message adding `overhead` bytes (tags, length
// prefixes, small fields and gRPC's 5-byte frame header).
int64_t ChunkedBytes(int64_t count, int64_t per_message, int64_t overhead) {
  const int64_t messages =
      std::max<int64_t>(1, (count + per_message - 1) / per_message);
  return 8 * count + messages * overhead;
}

// Per right-hand-side chunk: the rhs_index/offset/last fields and their
// tags (6 + 11 + 2), the packed values' tag and length (6), the frame (5).
constexpr int64_t kRhsChunkOverhead = 30;
// Per values chunk of a Step: the oneof and packed-field tags and lengths
// (at most 12) and the frame (5).
constexpr int64_t kValuesChunkOverhead = 17;
// A Step header: the id, the method, factorization and solve options, the
// shifts and the counts, with their tags (a generous bound), and the frame.
constexpr int64_t kStepHeaderBytes = 160;

int64_t SolveRequestBytes(int64_t n, int64_t per_message) {
  return ChunkedBytes(n, per_message, kRhsChunkOverhead);
}

}  // namespace

RemoteKktSolver::RemoteKktSolver(client::Client* client,
                                 client::FactorizeOptions factorize,
                                 client::SolveOptions solve)
    : client_(client),
      factorize_(std::move(factorize)),
      solve_(std::move(solve)) {}

RemoteKktSolver::~RemoteKktSolver() {
  if (!id_.empty()) client_->Release(id_).IgnoreError();
}

absl::Status RemoteKktSolver::Upload(const SymmetricLowerCsr& kkt) {
  client::CsrArrays arrays;
  arrays.n = kkt.dim;
  arrays.structure = "symmetric_lower";
  arrays.row_ptr = kkt.row_start;
  arrays.col_idx =
      std::span<const int32_t>(kkt.col_index.data(), kkt.col_index.size());
  arrays.values = kkt.values;
  reuploads_seen_ = client_->reuploads();
  absl::StatusOr<client::MatrixInfo> info = client_->Upload(arrays);
  ++round_trips_;
  if (!info.ok()) return info.status();
  id_ = info->id;
  dim_ = kkt.dim;
  nnz_ = kkt.nnz();
  generation_ = info->generation;
  bytes_sent_ += info->bytes_received > 0 ? info->bytes_received
                                          : 20 * kkt.nnz() + 8 * (kkt.dim + 1);
  return absl::OkStatus();
}

absl::Status RemoteKktSolver::SetValues(const SymmetricLowerCsr& kkt) {
  if (id_.empty()) return Upload(kkt);
  if (kkt.dim != dim_ || kkt.nnz() != nnz_) {
    return absl::InvalidArgumentError(
        absl::StrCat("KKT pattern changed: dim ", kkt.dim, " nnz ", kkt.nnz(),
                     ", uploaded dim ", dim_, " nnz ", nnz_));
  }
  absl::StatusOr<client::MatrixInfo> info =
      client_->UpdateValues(id_, kkt.values, generation_);
  ++round_trips_;
  if (!info.ok()) return info.status();
  generation_ = info->generation;
  reuploads_seen_ = client_->reuploads();
  bytes_sent_ +=
      info->bytes_received > 0 ? info->bytes_received : 8 * kkt.nnz();
  return absl::OkStatus();
}

client::FactorizeOptions RemoteKktSolver::FactorizeOptionsFor(
    const DiagonalShift& shift) const {
  client::FactorizeOptions options = factorize_;
  options.shift_first = shift.shift_first;
  options.shift_rest = shift.shift_rest;
  options.shift_count = shift.shift_count;
  options.expected_generation = generation_;
  return options;
}

KktFactorReport RemoteKktSolver::ToReport(
    const client::FactorizeResult& result) {
  method_used_ = result.method;
  KktFactorReport report;
  report.ok = result.factor_status == "ok";
  report.inertia_known = result.inertia_reliable;
  report.positive = result.inertia.positive;
  report.negative = result.inertia.negative;
  report.zero = result.inertia.zero;
  report.analysis_reused = result.analysis_reused;
  report.factorize_s = result.timings.preprocess_s + result.timings.analyze_s +
                       result.timings.factorize_s;
  report.message = result.message;
  return report;
}

absl::StatusOr<KktFactorReport> RemoteKktSolver::Factorize(
    const DiagonalShift& shift) {
  if (id_.empty()) return absl::FailedPreconditionError("no values set");
  absl::StatusOr<client::FactorizeResult> result =
      client_->Factorize(id_, FactorizeOptionsFor(shift));
  ++round_trips_;
  if (!result.ok()) return result.status();
  generation_ = result->generation;
  reuploads_seen_ = client_->reuploads();
  return ToReport(*result);
}

absl::StatusOr<KktSolveReport> RemoteKktSolver::TakeSolutions(
    std::vector<client::SolveResult>& results,
    std::vector<std::vector<double>>& rhs) {
  if (results.size() != rhs.size()) {
    return absl::InternalError("solve returned a wrong number of results");
  }
  KktSolveReport report;
  for (size_t k = 0; k < rhs.size(); ++k) {
    client::SolveResult& r = results[k];
    if (r.x.size() != rhs[k].size()) {
      return absl::InternalError(
          absl::StrCat("solution of size ", r.x.size(), ", expected ",
                       rhs[k].size(), " (", r.status, ": ", r.message, ")"));
    }
    rhs[k] = std::move(r.x);
    report.solve_s += r.timings.solve_s;
    report.max_relative_residual =
        std::max(report.max_relative_residual, r.relative_residual);
  }
  return report;
}

absl::StatusOr<KktSolveReport> RemoteKktSolver::Solve(
    std::vector<std::vector<double>>& rhs) {
  if (id_.empty()) return absl::FailedPreconditionError("no values set");
  client::SolveOptions options = solve_;
  options.expected_generation = generation_;  // the factorization's values
  absl::StatusOr<std::vector<client::SolveResult>> results =
      client_->Solve(id_, rhs, options);
  ++round_trips_;
  if (!results.ok()) return results.status();
  const int64_t per_message = ValuesPerMessage(
      client_->options().max_chunk_bytes, static_cast<int64_t>(id_.size()));
  for (const std::vector<double>& b : rhs) {
    bytes_sent_ +=
        SolveRequestBytes(static_cast<int64_t>(b.size()), per_message);
  }
  if (absl::Status s = RefreshGenerationAfterReupload(); !s.ok()) return s;
  return TakeSolutions(*results, rhs);
}

absl::StatusOr<KktStepReport> RemoteKktSolver::FactorizeAndSolve(
    const SymmetricLowerCsr* kkt, const DiagonalShift& shift,
    std::vector<std::vector<double>>& rhs) {
  std::span<const double> values;
  if (id_.empty()) {
    if (kkt == nullptr) return absl::FailedPreconditionError("no values set");
    // The pattern travels once, in the upload; the Step then factorizes the
    // uploaded values.
    if (absl::Status s = Upload(*kkt); !s.ok()) return s;
  } else if (kkt != nullptr) {
    if (kkt->dim != dim_ || kkt->nnz() != nnz_) {
      return absl::InvalidArgumentError(
          absl::StrCat("KKT pattern changed: dim ", kkt->dim, " nnz ",
                       kkt->nnz(), ", uploaded dim ", dim_, " nnz ", nnz_));
    }
    values = kkt->values;
  }
  client::StepOptions options;
  // Values are applied only onto the generation last seen, so a retried
  // Step cannot apply them twice.
  options.factorize = FactorizeOptionsFor(shift);
  options.solve = solve_;
  std::vector<std::span<const double>> views(rhs.begin(), rhs.end());
  absl::StatusOr<client::StepResult> result =
      client_->Step(id_, values, views, options);
  ++round_trips_;
  if (!result.ok()) return result.status();
  const int64_t per_message =
      ValuesPerMessage(client_->options().max_chunk_bytes, /*id_bytes=*/0);
  bytes_sent_ += kStepHeaderBytes + static_cast<int64_t>(id_.size());
  if (!values.empty()) {
    bytes_sent_ += ChunkedBytes(static_cast<int64_t>(values.size()),
                                per_message, kValuesChunkOverhead);
  }
  for (const std::vector<double>& b : rhs) {
    bytes_sent_ +=
        SolveRequestBytes(static_cast<int64_t>(b.size()), per_message);
  }
  generation_ = result->factorization.generation;
  reuploads_seen_ = client_->reuploads();
  KktStepReport report;
  report.factor = ToReport(result->factorization);
  absl::StatusOr<KktSolveReport> solved = TakeSolutions(result->solutions, rhs);
  if (!solved.ok()) return solved.status();
  report.solve = *solved;
  return report;
}

absl::Status RemoteKktSolver::RefreshGenerationAfterReupload() {
  if (client_->reuploads() == reuploads_seen_) return absl::OkStatus();
  reuploads_seen_ = client_->reuploads();
  absl::StatusOr<client::MatrixInfo> info = client_->GetMatrix(id_);
  ++round_trips_;
  if (!info.ok()) return info.status();
  generation_ = info->generation;
  return absl::OkStatus();
}

}  // namespace factord::ipm
