// The client-streaming RPCs: UploadMatrix (a header, then CSR chunks) and
// UpdateValues (value chunks), each message under the chunk budget
// (csr_chunks.h).
#include <algorithm>
#include <string>

#include "client/channel.h"
#include "client/csr_chunks.h"
#include "client/enum_names.h"
#include "client/factord_client.h"
#include "client/grpc_status.h"
#include "client/messages.h"

namespace factord::client {
namespace {

namespace pb = ::factord::v1;

}  // namespace

absl::StatusOr<MatrixInfo> Client::UploadOnce(const CsrArrays& matrix,
                                              absl::string_view id,
                                              const UploadOptions& options) {
  if (absl::Status s = internal::CheckMatrixId(id, "header.id"); !s.ok()) {
    return s;
  }
  if (absl::Status s = internal::CheckCsrArrays(matrix); !s.ok()) return s;
  absl::StatusOr<pb::Structure> structure =
      internal::ParseEnum<pb::Structure>(matrix.structure, "header.structure");
  if (!structure.ok()) return structure.status();

  grpc::ClientContext context;
  internal::PrepareCall(*channel_, id, &context);
  pb::MatrixInfo reply;
  std::unique_ptr<grpc::ClientWriter<pb::UploadRequest>> writer =
      channel_->stub->UploadMatrix(&context, &reply);

  pb::UploadRequest request;
  pb::MatrixHeader* header = request.mutable_header();
  header->set_id(std::string(id));
  header->set_n(matrix.n);
  header->set_nnz(matrix.row_ptr[matrix.n]);
  header->set_structure(*structure);
  header->set_replace(options.replace);
  bool open = writer->Write(request);

  const int64_t budget = internal::PayloadBytes(options_.max_chunk_bytes);
  internal::CsrCursor cursor;
  while (open && !internal::CsrDone(matrix, cursor)) {
    request.Clear();
    internal::FillCsrChunk(matrix, budget, &cursor, request.mutable_csr());
    open = writer->Write(request);
  }
  if (open) writer->WritesDone();
  if (absl::Status s = internal::FromGrpcStatus(writer->Finish()); !s.ok()) {
    return s;
  }
  return internal::FromProto(reply);
}

absl::StatusOr<MatrixInfo> Client::UpdateValuesOnce(
    absl::string_view id, std::span<const double> values,
    uint64_t expected_generation) {
  if (absl::Status s = internal::CheckMatrixId(id); !s.ok()) return s;
  grpc::ClientContext context;
  internal::PrepareCall(*channel_, id, &context);
  pb::MatrixInfo reply;
  std::unique_ptr<grpc::ClientWriter<pb::UpdateValuesRequest>> writer =
      channel_->stub->UpdateValues(&context, &reply);
  const int64_t per_chunk =
      internal::ValuesPerChunk(options_.max_chunk_bytes, id.size());
  const int64_t total = static_cast<int64_t>(values.size());
  int64_t offset = 0;
  bool open = true;
  do {  // at least one message: it names the matrix
    pb::UpdateValuesRequest request;
    if (offset == 0) {
      request.set_id(std::string(id));
      request.set_expected_generation(expected_generation);
    }
    const int64_t take = std::min(per_chunk, total - offset);
    request.mutable_values()->Add(values.data() + offset,
                                  values.data() + offset + take);
    offset += take;
    open = writer->Write(request);
  } while (open && offset < total);
  if (open) writer->WritesDone();
  if (absl::Status s = internal::FromGrpcStatus(writer->Finish()); !s.ok()) {
    return s;
  }
  return internal::FromProto(reply);
}

}  // namespace factord::client
