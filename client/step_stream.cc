// One interior-point iteration in one round trip: StepUnary (one message
// each way) when the request fits in one chunk, else the Step stream: the
// header, the new values, the diagonal shift and the right-hand sides go out
// in chunks; the server answers once everything has arrived, so the replies
// are read after the writes (no reader thread needed).
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/channel.h"
#include "client/csr_chunks.h"
#include "client/factord_client.h"
#include "client/grpc_status.h"
#include "client/messages.h"
#include "client/retained_matrices.h"

namespace factord::client {
namespace {

namespace pb = ::factord::v1;

using Stream = grpc::ClientReaderWriter<pb::StepRequest, pb::StepReply>;

// Sends `values` as consecutive chunks of `per_chunk` doubles into the part
// `part` returns (values or diagonal) of each message. False when the
// stream broke.
template <typename Part>
bool SendValues(Stream& stream, std::span<const double> values,
                int64_t per_chunk, Part part) {
  const int64_t n = static_cast<int64_t>(values.size());
  for (int64_t offset = 0; offset < n; offset += per_chunk) {
    pb::StepRequest request;
    const int64_t take = std::min(per_chunk, n - offset);
    part(request)->mutable_values()->Add(values.data() + offset,
                                         values.data() + offset + take);
    if (!stream.Write(request)) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<StepResult> Client::Step(
    absl::string_view id, std::span<const double> values,
    std::span<const std::span<const double>> rhs, const StepOptions& options) {
  absl::StatusOr<StepResult> result = StepRetried(id, values, rhs, options);
  if (ShouldRestore(result.status())) {
    if (absl::Status s =
            CheckKeptGeneration(id, options.factorize.expected_generation);
        !s.ok()) {
      return absl::IsNotFound(s) ? result : s;
    }
    // The server lost the matrix: upload the copy (with the new values, if
    // any) and factorize and solve it, expecting the new upload's
    // generation.
    const std::optional<internal::RetainedMatrix> kept = retained_->Find(id);
    if (!kept || (!values.empty() &&
                  !retained_->SetValues(id, values, kept->generation))) {
      return result;
    }
    absl::StatusOr<MatrixInfo> restored = Restore(id, /*refactorize=*/false);
    if (!restored.ok()) return result;
    StepOptions retry = options;
    retry.factorize.expected_generation = restored->generation;
    result = StepRetried(id, {}, rhs, retry);
  } else if (result.ok() && options_.reupload_on_not_found && !values.empty()) {
    retained_->SetValues(id, values, result->factorization.generation);
  }
  if (result.ok() && options_.reupload_on_not_found) {
    retained_->SetFactorized(id, options.factorize,
                             result->factorization.generation);
  }
  return result;
}

absl::StatusOr<StepResult> Client::StepOnce(
    absl::string_view id, std::span<const double> values,
    std::span<const std::span<const double>> rhs, const StepOptions& options) {
  if (absl::Status s = internal::CheckMatrixId(id); !s.ok()) return s;
  absl::StatusOr<pb::FactorizeRequest> factorize =
      internal::ToFactorizeRequest(id, options.factorize);
  if (!factorize.ok()) return factorize.status();
  absl::StatusOr<pb::SolveOptions> solve = internal::ToProto(options.solve);
  if (!solve.ok()) return solve.status();
  if (rhs.size() > std::numeric_limits<uint32_t>::max()) {
    return internal::ClientError(absl::StatusCode::kInvalidArgument,
                                 "INVALID_REQUEST", "too many right-hand sides",
                                 "header.rhs_count");
  }

  pb::StepRequest first;
  pb::StepHeader* header = first.mutable_header();
  header->set_id(std::string(id));
  header->set_new_values(!values.empty());
  header->set_expected_generation(options.factorize.expected_generation);
  header->set_method(factorize->method());
  *header->mutable_options() = factorize->options();
  header->set_diagonal_shift(!options.diagonal_shift.empty());
  *header->mutable_solve_options() = *solve;
  header->set_rhs_count(static_cast<uint32_t>(rhs.size()));
  // One message each way when everything fits in one request chunk.
  int64_t doubles =
      static_cast<int64_t>(values.size() + options.diagonal_shift.size());
  for (std::span<const double> b : rhs) doubles += b.size();
  if (static_cast<int64_t>(header->ByteSizeLong()) + 64 +
          doubles * static_cast<int64_t>(sizeof(double)) <=
      options_.max_chunk_bytes) {
    return StepUnaryOnce(*header, values, options.diagonal_shift, rhs);
  }

  grpc::ClientContext context;
  internal::PrepareCall(*channel_, id, &context);
  std::unique_ptr<Stream> stream = channel_->stub->Step(&context);
  const int64_t per_chunk =
      internal::ValuesPerChunk(options_.max_chunk_bytes, 0);
  bool open = stream->Write(first);
  open = open && SendValues(*stream, values, per_chunk, [](pb::StepRequest& r) {
           return r.mutable_values();
         });
  open = open &&
         SendValues(*stream, options.diagonal_shift, per_chunk,
                    [](pb::StepRequest& r) { return r.mutable_diagonal(); });
  for (size_t k = 0; k < rhs.size() && open; ++k) {
    const int64_t n = static_cast<int64_t>(rhs[k].size());
    int64_t offset = 0;
    do {
      pb::StepRequest request;
      pb::RhsChunk* chunk = request.mutable_rhs();
      chunk->set_rhs_index(static_cast<uint32_t>(k));
      chunk->set_offset(offset);
      const int64_t take = std::min(per_chunk, n - offset);
      chunk->mutable_values()->Add(rhs[k].data() + offset,
                                   rhs[k].data() + offset + take);
      offset += take;
      chunk->set_last(offset == n);
      open = stream->Write(request);
    } while (open && offset < n);
  }
  if (open) stream->WritesDone();

  StepResult result;
  result.solutions.resize(rhs.size());
  for (size_t k = 0; k < rhs.size(); ++k) {
    result.solutions[k].x.resize(rhs[k].size());
  }
  std::vector<bool> done(rhs.size(), false);
  bool factorized = false;
  absl::Status reply_error;
  pb::StepReply reply;
  while (stream->Read(&reply)) {
    if (!reply_error.ok()) continue;  // drain
    if (reply.has_factorization()) {
      result.factorization = internal::FromProto(reply.factorization());
      factorized = true;
      continue;
    }
    const pb::SolveReply& chunk = reply.solution();
    const uint32_t k = chunk.rhs_index();
    if (!factorized || k >= rhs.size() || done[k] || chunk.offset() < 0 ||
        chunk.offset() + chunk.values_size() >
            static_cast<int64_t>(result.solutions[k].x.size())) {
      reply_error = internal::ClientError(
          absl::StatusCode::kInternal, "INTERNAL",
          absl::StrCat("malformed Step reply for right-hand side ", k,
                       " at offset ", chunk.offset()));
      context.TryCancel();
      continue;
    }
    SolveResult& r = result.solutions[k];
    std::copy(chunk.values().begin(), chunk.values().end(),
              r.x.begin() + chunk.offset());
    if (chunk.last()) {
      done[k] = true;
      internal::SetSolveReport(chunk, &r);
    }
  }
  absl::Status status = internal::FromGrpcStatus(stream->Finish());
  if (!reply_error.ok()) return reply_error;
  if (!status.ok()) return status;
  if (!factorized || std::find(done.begin(), done.end(), false) != done.end()) {
    return internal::ClientError(
        absl::StatusCode::kInternal, "INTERNAL",
        "the server ended the Step without every reply");
  }
  return result;
}

absl::StatusOr<StepResult> Client::StepUnaryOnce(
    const pb::StepHeader& header, std::span<const double> values,
    std::span<const double> diagonal,
    std::span<const std::span<const double>> rhs) {
  pb::StepUnaryRequest request;
  *request.mutable_header() = header;
  request.mutable_values()->Add(values.begin(), values.end());
  request.mutable_diagonal()->Add(diagonal.begin(), diagonal.end());
  for (std::span<const double> b : rhs) {
    request.mutable_rhs()->Add(b.begin(), b.end());
  }
  grpc::ClientContext context;
  internal::PrepareCall(*channel_, header.id(), &context);
  pb::StepUnaryReply reply;
  absl::Status status = internal::FromGrpcStatus(
      channel_->stub->StepUnary(&context, request, &reply));
  if (!status.ok()) return status;
  if (reply.solutions_size() != static_cast<int>(rhs.size())) {
    return internal::ClientError(
        absl::StatusCode::kInternal, "INTERNAL",
        absl::StrCat("the server answered the Step with ",
                     reply.solutions_size(), " solutions for ", rhs.size(),
                     " right-hand sides"));
  }
  StepResult result;
  result.factorization = internal::FromProto(reply.factorization());
  result.solutions.resize(rhs.size());
  for (size_t k = 0; k < rhs.size(); ++k) {
    const pb::SolveReply& solution = reply.solutions(static_cast<int>(k));
    if (solution.values_size() != static_cast<int>(rhs[k].size())) {
      return internal::ClientError(
          absl::StatusCode::kInternal, "INTERNAL",
          absl::StrCat("the server's solution ", k, " has ",
                       solution.values_size(), " entries, not ",
                       rhs[k].size()));
    }
    result.solutions[k].x.assign(solution.values().begin(),
                                 solution.values().end());
    internal::SetSolveReport(solution, &result.solutions[k]);
  }
  return result;
}

}  // namespace factord::client
