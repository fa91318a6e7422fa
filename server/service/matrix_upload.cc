#include "server/service/matrix_upload.h"

#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/matrix/validate.h"
#include "server/error_reason.h"
#include "server/service/cached_work.h"

namespace factord::server {
namespace {

// Host bytes of a CSR matrix of this size.
int64_t CsrBytes(int64_t n, int64_t nnz) {
  return (n + 1) * static_cast<int64_t>(sizeof(int64_t)) +
         nnz * static_cast<int64_t>(sizeof(int32_t) + sizeof(double));
}

// A refusal of the stream's shape (not of the matrix itself).
absl::Status OutOfOrder(absl::string_view message) {
  return InvalidRequest("", message);
}

absl::Status TooLarge(std::string message) {
  return WithReason(absl::ResourceExhaustedError(std::move(message)),
                    v1::MATRIX_TOO_LARGE);
}

absl::Status BadMatrix(std::string message) {
  return WithReason(absl::InvalidArgumentError(std::move(message)),
                    v1::INVALID_MATRIX);
}

}  // namespace

absl::Status MatrixUpload::ConsumeCsr(const CsrChunkView& chunk) {
  if (!has_header_) {
    return OutOfOrder("a CSR chunk before the header");
  }
  if (format_ == Format::kCoo) {
    return OutOfOrder("a CSR chunk in a COO upload");
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
  return csr_->Append(chunk.row_nnz, chunk.col_idx, chunk.values);
}

absl::Status MatrixUpload::ConsumeCoo(const CooChunkView& chunk) {
  if (!has_header_) {
    return OutOfOrder("a COO chunk before the header");
  }
  if (format_ == Format::kCsr) {
    return OutOfOrder("a COO chunk in a CSR upload");
  }
  format_ = Format::kCoo;
  if (chunk.row_idx.size() != chunk.col_idx.size() ||
      chunk.row_idx.size() != chunk.values.size()) {
    return BadMatrix(absl::StrCat("COO chunk at entry ", coo_rows_.size(),
                                  " has ", chunk.row_idx.size(), " rows, ",
                                  chunk.col_idx.size(), " columns and ",
                                  chunk.values.size(), " values"));
  }
  const int64_t have = static_cast<int64_t>(coo_rows_.size());
  if (static_cast<int64_t>(chunk.row_idx.size()) > nnz_ - have) {
    return BadMatrix(absl::StrCat(
        "more entries than the declared nnz = ", nnz_, " (",
        have + static_cast<int64_t>(chunk.row_idx.size()), " so far)"));
  }
  coo_rows_.insert(coo_rows_.end(), chunk.row_idx.begin(), chunk.row_idx.end());
  coo_cols_.insert(coo_cols_.end(), chunk.col_idx.begin(), chunk.col_idx.end());
  coo_values_.insert(coo_values_.end(), chunk.values.begin(),
                     chunk.values.end());
  return absl::OkStatus();
}

absl::Status MatrixUpload::ConsumeHeader(const UploadHeader& header) {
  if (has_header_) {
    return OutOfOrder("a second header in one upload");
  }
  if (absl::Status s = CheckMatrixId(header.id, "header.id"); !s.ok()) {
    return s;
  }
  if (header.n < 1) {
    return BadMatrix(absl::StrCat("n = ", header.n, ": a matrix needs n >= 1"));
  }
  if (header.nnz < 0) {
    return BadMatrix(absl::StrCat("nnz = ", header.nnz, " is negative"));
  }
  if (header.n > config_->max_n) {
    return TooLarge(
        absl::StrCat("n = ", header.n,
                     " exceeds the server limit max_n = ", config_->max_n));
  }
  if (header.n > std::numeric_limits<int32_t>::max()) {
    return TooLarge(absl::StrCat("n = ", header.n,
                                 " exceeds the 32-bit column index limit ",
                                 std::numeric_limits<int32_t>::max()));
  }
  if (header.nnz > config_->max_nnz) {
    return TooLarge(
        absl::StrCat("nnz = ", header.nnz,
                     " exceeds the server limit max_nnz = ", config_->max_nnz));
  }
  const int64_t bytes = CsrBytes(header.n, header.nnz);
  if (bytes > config_->cache_bytes) {
    return WithReason(
        absl::ResourceExhaustedError(absl::StrCat(
            "a matrix with n = ", header.n, " and nnz = ", header.nnz,
            " needs ", bytes, " bytes, over the cache budget cache_bytes = ",
            config_->cache_bytes)),
        v1::CACHE_BUDGET);
  }
  if (config_->tenant_cache_bytes > 0 && bytes > config_->tenant_cache_bytes) {
    return WithReason(
        absl::ResourceExhaustedError(absl::StrCat(
            "a matrix with n = ", header.n, " and nnz = ", header.nnz,
            " needs ", bytes, " bytes, over the per-tenant quota ",
            "tenant_cache_bytes = ", config_->tenant_cache_bytes)),
        v1::TENANT_QUOTA);
  }
  has_header_ = true;
  id_ = header.id;
  replace_ = header.replace;
  n_ = header.n;
  nnz_ = header.nnz;
  structure_ = header.structure;
  return absl::OkStatus();
}

absl::StatusOr<CsrMatrix> MatrixUpload::Finish() {
  if (!has_header_) {
    return OutOfOrder("the upload ended before its header");
  }
  absl::StatusOr<CsrMatrix> matrix;
  if (format_ == Format::kCoo) {
    const int64_t have = static_cast<int64_t>(coo_rows_.size());
    if (have != nnz_) {
      return BadMatrix(absl::StrCat("the upload ended after ", have,
                                    " of nnz = ", nnz_, " entries"));
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
    return BadMatrix(absl::StrCat(
        "the upload ended after its header: no entries of nnz = ", nnz_));
  }
  if (!matrix.ok()) return matrix.status();
  if (absl::Status s = ValidateCsr(*matrix); !s.ok()) return s;
  return matrix;
}

}  // namespace factord::server
