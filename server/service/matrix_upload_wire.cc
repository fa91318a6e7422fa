// MatrixUpload::Consume: one UploadMatrix message read into the plain parts
// that MatrixUpload takes (matrix_upload.h). The daemon's only: the
// in-process solver hands the parts over directly.
#include "absl/strings/str_cat.h"
#include "factord/v1/solver.pb.h"
#include "server/error_reason.h"
#include "server/service/cached_work.h"
#include "server/service/convert.h"
#include "server/service/matrix_upload.h"

namespace factord::server {

absl::Status MatrixUpload::Consume(const v1::UploadRequest& request) {
  switch (request.part_case()) {
    case v1::UploadRequest::kHeader: {
      const v1::MatrixHeader& h = request.header();
      if (has_header_) {
        return InvalidRequest("", "a second header in one upload");
      }
      if (absl::Status s = CheckMatrixId(h.id(), "header.id"); !s.ok()) {
        return s;
      }
      absl::StatusOr<Structure> structure = StructureFromProto(h.structure());
      if (!structure.ok()) return structure.status();
      return ConsumeHeader(
          UploadHeader{h.id(), h.n(), h.nnz(), *structure, h.replace()});
    }
    case v1::UploadRequest::kCsr:
      return ConsumeCsr(ViewCsrChunk(request.csr()));
    case v1::UploadRequest::kCoo:
      return ConsumeCoo(ViewCooChunk(request.coo()));
    default:
      return InvalidRequest(
          "", "an UploadMatrix message with neither header nor chunk");
  }
}

}  // namespace factord::server
