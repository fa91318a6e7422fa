#include "server/service/matrix_upload.h"

#include <limits>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "factord/matrix/validate.h"
#include "server/service/convert.h"

namespace factord::server {
namespace {

constexpr size_t kMaxIdLength = 256;

// Host bytes of a CSR matrix of this size.
int64_t CsrBytes(int64_t n, int64_t nnz) {
  return (n + 1) * static_cast<int64_t>(sizeof(int64_t)) +
         nnz * static_cast<int64_t>(sizeof(int32_t) + sizeof(double));
}

}  // namespace

std::string NewUuid() {
  static absl::Mutex mu(absl::kConstInit);
  static absl::BitGen* gen = new absl::BitGen();
  uint64_t hi, lo;
  {
    absl::MutexLock lock(&mu);
    hi = absl::Uniform<uint64_t>(*gen);
    lo = absl::Uniform<uint64_t>(*gen);
  }
  hi = (hi & ~uint64_t{0xF000}) | uint64_t{0x4000};            // version 4
  lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // variant 1
  return absl::StrFormat("%08x-%04x-%04x-%04x-%012x", hi >> 32,
                         (hi >> 16) & 0xFFFF, hi & 0xFFFF, lo >> 48,
                         lo & 0xFFFFFFFFFFFFull);
}

absl::Status MatrixUpload::Consume(const v1::UploadRequest& request) {
  switch (request.part_case()) {
    case v1::UploadRequest::kHeader:
      if (has_header_) {
        return absl::InvalidArgumentError("a second header in one upload");
      }
      return ConsumeHeader(request.header());
    case v1::UploadRequest::kCsr: {
      if (!has_header_) {
        return absl::InvalidArgumentError("a CSR chunk before the header");
      }
      if (format_ == Format::kCoo) {
        return absl::InvalidArgumentError("a CSR chunk in a COO upload");
      }
      format_ = Format::kCsr;
      if (!csr_.has_value()) {
        AssemblyLimits limits;
        limits.max_dimension = config_->max_n;
        limits.max_nnz = config_->max_nnz;
        absl::StatusOr<CsrBuilder> builder =
            CsrBuilder::Create(n_, n_, structure_, nnz_, limits);
        if (!builder.ok()) return builder.status();
        csr_.emplace(*std::move(builder));
      }
      const CsrChunkView chunk = ViewCsrChunk(request.csr());
      return csr_->Append(chunk.row_nnz, chunk.col_idx, chunk.values);
    }
    case v1::UploadRequest::kCoo: {
      if (!has_header_) {
        return absl::InvalidArgumentError("a COO chunk before the header");
      }
      if (format_ == Format::kCsr) {
        return absl::InvalidArgumentError("a COO chunk in a CSR upload");
      }
      format_ = Format::kCoo;
      const CooChunkView chunk = ViewCooChunk(request.coo());
      if (chunk.row_idx.size() != chunk.col_idx.size() ||
          chunk.row_idx.size() != chunk.values.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("COO chunk at entry ", coo_rows_.size(), " has ",
                         chunk.row_idx.size(), " rows, ", chunk.col_idx.size(),
                         " columns and ", chunk.values.size(), " values"));
      }
      const int64_t have = static_cast<int64_t>(coo_rows_.size());
      if (static_cast<int64_t>(chunk.row_idx.size()) > nnz_ - have) {
        return absl::InvalidArgumentError(absl::StrCat(
            "more entries than the declared nnz = ", nnz_, " (",
            have + static_cast<int64_t>(chunk.row_idx.size()), " so far)"));
      }
      coo_rows_.insert(coo_rows_.end(), chunk.row_idx.begin(),
                       chunk.row_idx.end());
      coo_cols_.insert(coo_cols_.end(), chunk.col_idx.begin(),
                       chunk.col_idx.end());
      coo_values_.insert(coo_values_.end(), chunk.values.begin(),
                         chunk.values.end());
      return absl::OkStatus();
    }
    default:
      return absl::InvalidArgumentError(
          "an UploadMatrix message with neither header nor chunk");
  }
}

absl::Status MatrixUpload::ConsumeHeader(const v1::MatrixHeader& header) {
  if (header.id().size() > kMaxIdLength) {
    return absl::InvalidArgumentError(absl::StrCat(
        "matrix id of ", header.id().size(), " bytes, over ", kMaxIdLength));
  }
  absl::StatusOr<Structure> structure = StructureFromProto(header.structure());
  if (!structure.ok()) return structure.status();
  if (header.n() < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("n = ", header.n(), ": a matrix needs n >= 1"));
  }
  if (header.nnz() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("nnz = ", header.nnz(), " is negative"));
  }
  if (header.n() > config_->max_n) {
    return absl::ResourceExhaustedError(
        absl::StrCat("n = ", header.n(),
                     " exceeds the server limit max_n = ", config_->max_n));
  }
  if (header.n() > std::numeric_limits<int32_t>::max()) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "n = ", header.n(), " exceeds the 32-bit column index limit ",
        std::numeric_limits<int32_t>::max()));
  }
  if (header.nnz() > config_->max_nnz) {
    return absl::ResourceExhaustedError(
        absl::StrCat("nnz = ", header.nnz(),
                     " exceeds the server limit max_nnz = ", config_->max_nnz));
  }
  const int64_t bytes = CsrBytes(header.n(), header.nnz());
  if (bytes > config_->cache_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "a matrix with n = ", header.n(), " and nnz = ", header.nnz(),
        " needs ", bytes,
        " bytes, over the cache budget cache_bytes = ", config_->cache_bytes));
  }
  if (config_->tenant_cache_bytes > 0 && bytes > config_->tenant_cache_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "a matrix with n = ", header.n(), " and nnz = ", header.nnz(),
        " needs ", bytes, " bytes, over the per-tenant quota ",
        "tenant_cache_bytes = ", config_->tenant_cache_bytes));
  }
  has_header_ = true;
  id_ = header.id().empty() ? NewUuid() : header.id();
  n_ = header.n();
  nnz_ = header.nnz();
  structure_ = *structure;
  return absl::OkStatus();
}

absl::StatusOr<CsrMatrix> MatrixUpload::Finish() {
  if (!has_header_) {
    return absl::InvalidArgumentError("the upload ended before its header");
  }
  absl::StatusOr<CsrMatrix> matrix;
  if (format_ == Format::kCoo) {
    const int64_t have = static_cast<int64_t>(coo_rows_.size());
    if (have != nnz_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the upload ended after ", have, " of nnz = ", nnz_, " entries"));
    }
    AssemblyLimits limits;
    limits.max_dimension = config_->max_n;
    limits.max_nnz = config_->max_nnz;
    matrix = AssembleFromCoo(n_, n_, structure_, coo_rows_, coo_cols_,
                             coo_values_, limits);
    coo_rows_ = {};
    coo_cols_ = {};
    coo_values_ = {};
  } else if (format_ == Format::kCsr) {
    matrix = csr_->Finish();
    csr_.reset();
  } else if (nnz_ == 0) {
    // An all-zero pattern: legal (if useless) and needs no chunk.
    absl::StatusOr<CsrBuilder> builder =
        CsrBuilder::Create(n_, n_, structure_, 0);
    if (!builder.ok()) return builder.status();
    std::vector<int64_t> zeros(n_, 0);
    if (absl::Status s = builder->Append(zeros, {}, {}); !s.ok()) return s;
    matrix = builder->Finish();
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "the upload ended after its header: no entries of nnz = ", nnz_));
  }
  if (!matrix.ok()) return matrix.status();
  if (absl::Status s = ValidateCsr(*matrix); !s.ok()) return s;
  return matrix;
}

}  // namespace factord::server
