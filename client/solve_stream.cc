// The bidirectional Solve stream: right-hand sides go out in chunks while
// the solutions come back on a reader thread, so that neither side's
// flow-control window can stall the other.
#include <algorithm>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/channel.h"
#include "client/csr_chunks.h"
#include "client/factord_client.h"
#include "client/grpc_status.h"
#include "client/messages.h"

namespace factord::client {
namespace {

namespace pb = ::factord::v1;

}  // namespace

absl::StatusOr<std::vector<SolveResult>> Client::Solve(
    absl::string_view id, const std::vector<std::vector<double>>& rhs,
    const SolveOptions& options) {
  std::vector<std::span<const double>> views(rhs.begin(), rhs.end());
  return Solve(id, std::span<const std::span<const double>>(views), options);
}

absl::StatusOr<std::vector<SolveResult>> Client::SolveOnce(
    absl::string_view id, std::span<const std::span<const double>> rhs,
    const SolveOptions& options) {
  if (absl::Status s = internal::CheckMatrixId(id); !s.ok()) return s;
  absl::StatusOr<pb::SolveOptions> wire_options = internal::ToProto(options);
  if (!wire_options.ok()) return wire_options.status();
  if (rhs.size() > std::numeric_limits<uint32_t>::max()) {
    return internal::ClientError(absl::StatusCode::kInvalidArgument,
                                 "INVALID_REQUEST", "too many right-hand sides",
                                 "rhs_index");
  }
  std::vector<SolveResult> results(rhs.size());
  if (rhs.empty()) return results;
  for (size_t k = 0; k < rhs.size(); ++k) results[k].x.resize(rhs[k].size());

  grpc::ClientContext context;
  internal::PrepareCall(*channel_, id, &context);
  std::unique_ptr<grpc::ClientReaderWriter<pb::SolveRequest, pb::SolveReply>>
      stream = channel_->stub->Solve(&context);

  std::vector<bool> done(rhs.size(), false);
  absl::Status reply_error;
  std::thread reader([&] {
    pb::SolveReply reply;
    while (stream->Read(&reply)) {
      if (!reply_error.ok()) continue;  // drain
      const uint32_t k = reply.rhs_index();
      if (k >= results.size() || done[k] || reply.offset() < 0 ||
          reply.offset() + reply.values_size() >
              static_cast<int64_t>(results[k].x.size())) {
        reply_error = internal::ClientError(
            absl::StatusCode::kInternal, "INTERNAL",
            absl::StrCat("malformed solution chunk for right-hand side ", k,
                         " at offset ", reply.offset()));
        context.TryCancel();
        continue;
      }
      SolveResult& r = results[k];
      std::copy(reply.values().begin(), reply.values().end(),
                r.x.begin() + reply.offset());
      if (reply.last()) {
        done[k] = true;
        internal::SetSolveReport(reply, &r);
      }
    }
  });

  const int64_t per_chunk =
      internal::ValuesPerChunk(options_.max_chunk_bytes, id.size());
  bool open = true;
  bool first = true;
  for (size_t k = 0; k < rhs.size() && open; ++k) {
    const int64_t n = static_cast<int64_t>(rhs[k].size());
    int64_t offset = 0;
    do {
      pb::SolveRequest request;
      if (first) {  // the first message names the matrix and the options
        request.set_id(std::string(id));
        *request.mutable_options() = *wire_options;
        request.set_expected_generation(options.expected_generation);
        first = false;
      }
      request.set_rhs_index(static_cast<uint32_t>(k));
      request.set_offset(offset);
      const int64_t take = std::min(per_chunk, n - offset);
      request.mutable_values()->Add(rhs[k].data() + offset,
                                    rhs[k].data() + offset + take);
      offset += take;
      request.set_last(offset == n);
      open = stream->Write(request);
    } while (open && offset < n);
  }
  if (open) stream->WritesDone();
  reader.join();
  absl::Status status = internal::FromGrpcStatus(stream->Finish());
  if (!reply_error.ok()) return reply_error;
  if (!status.ok()) return status;
  for (size_t k = 0; k < done.size(); ++k) {
    if (!done[k]) {
      return internal::ClientError(
          absl::StatusCode::kInternal, "INTERNAL",
          absl::StrCat("the server ended the solve without a result for "
                       "right-hand side ",
                       k));
    }
  }
  return results;
}

}  // namespace factord::client
