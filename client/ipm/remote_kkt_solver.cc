#include "client/ipm/remote_kkt_solver.h"

#include <algorithm>
#include <span>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace factord::ipm {
namespace {

// Serialized size of the Solve request messages for one right-hand side of
// `n` values: per message the packed values (8 bytes each, tag and length)
// and the rhs_index/offset/last fields plus gRPC's 5-byte frame header.
int64_t SolveRequestBytes(int64_t n, int64_t max_chunk_bytes) {
  const int64_t per_chunk = std::max<int64_t>(1, (max_chunk_bytes - 64) / 8);
  const int64_t chunks = std::max<int64_t>(1, (n + per_chunk - 1) / per_chunk);
  return 8 * n + chunks * (6 + 6 + 11 + 2 + 5);
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

absl::Status RemoteKktSolver::SetValues(const SymmetricLowerCsr& kkt) {
  if (id_.empty()) {
    client::CsrArrays arrays;
    arrays.n = kkt.dim;
    arrays.structure = "symmetric_lower";
    arrays.row_ptr = kkt.row_start;
    arrays.col_idx =
        std::span<const int32_t>(kkt.col_index.data(), kkt.col_index.size());
    arrays.values = kkt.values;
    absl::StatusOr<client::MatrixInfo> info = client_->Upload(arrays);
    if (!info.ok()) return info.status();
    id_ = info->id;
    dim_ = kkt.dim;
    nnz_ = kkt.nnz();
    bytes_sent_ += info->bytes_received > 0
                       ? info->bytes_received
                       : 20 * kkt.nnz() + 8 * (kkt.dim + 1);
    return absl::OkStatus();
  }
  if (kkt.dim != dim_ || kkt.nnz() != nnz_) {
    return absl::InvalidArgumentError(
        absl::StrCat("KKT pattern changed: dim ", kkt.dim, " nnz ", kkt.nnz(),
                     ", uploaded dim ", dim_, " nnz ", nnz_));
  }
  absl::StatusOr<client::MatrixInfo> info =
      client_->UpdateValues(id_, kkt.values);
  if (!info.ok()) return info.status();
  bytes_sent_ +=
      info->bytes_received > 0 ? info->bytes_received : 8 * kkt.nnz();
  return absl::OkStatus();
}

absl::StatusOr<KktFactorReport> RemoteKktSolver::Factorize(
    const DiagonalShift& shift) {
  if (id_.empty()) return absl::FailedPreconditionError("no values set");
  client::FactorizeOptions options = factorize_;
  options.shift_first = shift.shift_first;
  options.shift_rest = shift.shift_rest;
  options.shift_count = shift.shift_count;
  absl::StatusOr<client::FactorizeResult> result =
      client_->Factorize(id_, options);
  if (!result.ok()) return result.status();
  method_used_ = result->method;
  KktFactorReport report;
  report.ok = result->factor_status == "ok";
  report.inertia_known = result->inertia_reliable;
  report.positive = result->inertia.positive;
  report.negative = result->inertia.negative;
  report.zero = result->inertia.zero;
  report.analysis_reused = result->analysis_reused;
  report.factorize_s = result->timings.preprocess_s +
                       result->timings.analyze_s + result->timings.factorize_s;
  report.message = result->message;
  return report;
}

absl::StatusOr<KktSolveReport> RemoteKktSolver::Solve(
    std::vector<std::vector<double>>& rhs) {
  if (id_.empty()) return absl::FailedPreconditionError("no values set");
  absl::StatusOr<std::vector<client::SolveResult>> results =
      client_->Solve(id_, rhs, solve_);
  if (!results.ok()) return results.status();
  if (results->size() != rhs.size()) {
    return absl::InternalError("solve returned a wrong number of results");
  }
  KktSolveReport report;
  for (size_t k = 0; k < rhs.size(); ++k) {
    bytes_sent_ += SolveRequestBytes(static_cast<int64_t>(rhs[k].size()),
                                     client_->options().max_chunk_bytes);
    client::SolveResult& r = (*results)[k];
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

}  // namespace factord::ipm
