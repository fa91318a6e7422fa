// The state of one UploadMatrix stream: a header, then CSR or COO chunks,
// assembled into a CsrMatrix with core's CsrBuilder / AssembleFromCoo.
// Limits are checked on the header, before anything is reserved, and the
// partial matrix lives only in this object: a stream that fails or stops
// half way leaves nothing behind. The parts are taken as plain values
// (ConsumeHeader, ConsumeCsr, ConsumeCoo), so that the in-process solver
// uploads through the same checks without protobuf; Consume reads them
// from a wire message (matrix_upload_wire.cc, the daemon's only).
#ifndef FACTORD_SERVER_SERVICE_MATRIX_UPLOAD_H_
#define FACTORD_SERVER_SERVICE_MATRIX_UPLOAD_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/matrix/assemble.h"
#include "core/matrix/csr.h"
#include "server/config.h"

namespace factord::v1 {
class UploadRequest;  // wire type, read by Consume only
}  // namespace factord::v1

namespace factord::server {

// What an upload's header says.
struct UploadHeader {
  std::string id;
  int64_t n = 0;
  int64_t nnz = 0;
  Structure structure = Structure::kGeneral;
  bool replace = false;
};

// A chunk of CSR entries: the lengths of the rows it starts (a row's length
// comes with the chunk of its first entry), then column indices and values.
struct CsrChunkView {
  std::span<const int64_t> row_nnz;
  std::span<const int32_t> col_idx;
  std::span<const double> values;
};

// A chunk of COO entries, in any order.
struct CooChunkView {
  std::span<const int32_t> row_idx;
  std::span<const int32_t> col_idx;
  std::span<const double> values;
};

class MatrixUpload {
 public:
  // `config` (limits) is not owned and must outlive this object.
  explicit MatrixUpload(const ServerConfig* config) : config_(config) {}

  // One message of the stream. Errors: InvalidArgument (INVALID_REQUEST: no
  // or a bad ID, a chunk before the header, CSR mixed with COO;
  // INVALID_MATRIX: a bad entry, more entries than declared),
  // ResourceExhausted (MATRIX_TOO_LARGE: n or nnz over the server limits;
  // CACHE_BUDGET or TENANT_QUOTA: the bytes).
  absl::Status Consume(const v1::UploadRequest& request);

  // The same, by part: the header first, then chunks of one format.
  absl::Status ConsumeHeader(const UploadHeader& header);
  absl::Status ConsumeCsr(const CsrChunkView& chunk);
  absl::Status ConsumeCoo(const CooChunkView& chunk);

  // The assembled, validated matrix once the client half-closed; heavy
  // (sorting, validation), so call it on a worker. InvalidArgument when the
  // stream ended early.
  absl::StatusOr<CsrMatrix> Finish();

  // The matrix ID the client named (required).
  const std::string& id() const { return id_; }
  // Whether the header asked to replace a matrix held under the same ID.
  bool replace() const { return replace_; }
  bool has_header() const { return has_header_; }

 private:
  const ServerConfig* const config_;
  bool has_header_ = false;
  std::string id_;
  bool replace_ = false;
  int64_t n_ = 0;
  int64_t nnz_ = 0;
  Structure structure_ = Structure::kGeneral;
  enum class Format { kUnknown, kCsr, kCoo } format_ = Format::kUnknown;
  std::optional<CsrBuilder> csr_;
  std::vector<int32_t> coo_rows_, coo_cols_;
  std::vector<double> coo_values_;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_MATRIX_UPLOAD_H_
