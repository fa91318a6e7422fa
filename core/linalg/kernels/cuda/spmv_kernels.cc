#include "core/linalg/kernels/cuda/spmv_kernels.h"

#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/kernels/cuda/status_macros.h"
#include "core/kernels/cuda/vendor_status.h"

namespace factord::kernels::cuda {
namespace {

constexpr cusparseSpMVAlg_t kAlgorithm = CUSPARSE_SPMV_CSR_ALG2;

// The dense vector descriptors of one product, destroyed on scope exit.
struct VectorPair {
  cusparseConstDnVecDescr_t x = nullptr;
  cusparseDnVecDescr_t y = nullptr;
  ~VectorPair() {
    if (x != nullptr) cusparseDestroyDnVec(x);
    if (y != nullptr) cusparseDestroyDnVec(y);
  }
  absl::Status Create(int64_t cols, const double* x_data, int64_t rows,
                      double* y_data) {
    FACTORD_CUSPARSE_RETURN_IF_ERROR(
        cusparseCreateConstDnVec(&x, cols, x_data, CUDA_R_64F));
    FACTORD_CUSPARSE_RETURN_IF_ERROR(
        cusparseCreateDnVec(&y, rows, y_data, CUDA_R_64F));
    return absl::OkStatus();
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<DeviceSpmv>> DeviceSpmv::Create(
    CudaStream& stream, const CsrMatrix& a) {
  if (a.structure != Structure::kGeneral) {
    return absl::InvalidArgumentError(
        absl::StrCat("DeviceSpmv: the matrix must be general (expanded), not ",
                     StructureName(a.structure)));
  }
  if (static_cast<int64_t>(a.row_ptr.size()) != a.rows + 1) {
    return absl::InvalidArgumentError("DeviceSpmv: row_ptr size != rows + 1");
  }
  std::unique_ptr<DeviceSpmv> spmv(new DeviceSpmv(stream));
  spmv->rows_ = a.rows;
  spmv->cols_ = a.cols;
  spmv->nnz_ = a.nnz();
  FACTORD_CUSPARSE_RETURN_IF_ERROR(cusparseCreate(&spmv->handle_));
  FACTORD_CUSPARSE_RETURN_IF_ERROR(
      cusparseSetStream(spmv->handle_, stream.get()));
  if (a.nnz() == 0) return spmv;  // y = 0 (Apply), no descriptor needed
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      values, UploadArray(std::span<const double>(a.values), stream));
  spmv->values_ = std::move(values);
  const bool narrow = a.nnz() < std::numeric_limits<int32_t>::max();
  // Host copies in the other width live until the stream has run the copy.
  std::vector<int32_t> row_ptr32;
  std::vector<int64_t> col_idx64;
  const void* row_ptr = nullptr;
  const void* col_idx = nullptr;
  if (narrow) {
    row_ptr32.assign(a.row_ptr.begin(), a.row_ptr.end());
    FACTORD_CUDA_ASSIGN_OR_RETURN(
        rows32, UploadArray(std::span<const int32_t>(row_ptr32), stream));
    FACTORD_CUDA_ASSIGN_OR_RETURN(
        cols32, UploadArray(std::span<const int32_t>(a.col_idx), stream));
    spmv->row_ptr32_ = std::move(rows32);
    spmv->col_idx32_ = std::move(cols32);
    row_ptr = spmv->row_ptr32_.data();
    col_idx = spmv->col_idx32_.data();
  } else {
    col_idx64.assign(a.col_idx.begin(), a.col_idx.end());
    FACTORD_CUDA_ASSIGN_OR_RETURN(
        rows64, UploadArray(std::span<const int64_t>(a.row_ptr), stream));
    FACTORD_CUDA_ASSIGN_OR_RETURN(
        cols64, UploadArray(std::span<const int64_t>(col_idx64), stream));
    spmv->row_ptr64_ = std::move(rows64);
    spmv->col_idx64_ = std::move(cols64);
    row_ptr = spmv->row_ptr64_.data();
    col_idx = spmv->col_idx64_.data();
  }
  const cusparseIndexType_t index_type =
      narrow ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  FACTORD_CUSPARSE_RETURN_IF_ERROR(
      cusparseCreateConstCsr(&spmv->matrix_, a.rows, a.cols, a.nnz(), row_ptr,
                             col_idx, spmv->values_.data(), index_type,
                             index_type, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  // The workspace size needs vector descriptors; any valid pointers do.
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      probe, DeviceArray<double>::Allocate(a.rows > a.cols ? a.rows : a.cols));
  VectorPair vectors;
  FACTORD_CUDA_RETURN_IF_NOT_OK(
      vectors.Create(a.cols, probe.data(), a.rows, probe.data()));
  const double one = 1.0, zero = 0.0;
  size_t workspace_bytes = 0;
  FACTORD_CUSPARSE_RETURN_IF_ERROR(cusparseSpMV_bufferSize(
      spmv->handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, spmv->matrix_,
      vectors.x, &zero, vectors.y, CUDA_R_64F, kAlgorithm, &workspace_bytes));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      workspace,
      DeviceArray<char>::Allocate(static_cast<int64_t>(workspace_bytes)));
  spmv->workspace_ = std::move(workspace);
  // The host copies above must outlive their asynchronous uploads.
  FACTORD_CUDA_RETURN_IF_NOT_OK(stream.Synchronize());
  return spmv;
}

DeviceSpmv::~DeviceSpmv() {
  if (matrix_ != nullptr) cusparseDestroySpMat(matrix_);
  if (handle_ != nullptr) cusparseDestroy(handle_);
}

absl::Status DeviceSpmv::Apply(const double* x, double* y) {
  if (rows_ == 0) return absl::OkStatus();
  if (nnz_ == 0) {  // every row empty
    FACTORD_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(
        y, 0, static_cast<size_t>(rows_) * sizeof(double), stream_.get()));
    return absl::OkStatus();
  }
  VectorPair vectors;
  FACTORD_CUDA_RETURN_IF_NOT_OK(vectors.Create(cols_, x, rows_, y));
  const double one = 1.0, zero = 0.0;  // beta = 0: the old y is ignored
  FACTORD_CUSPARSE_RETURN_IF_ERROR(cusparseSpMV(
      handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix_, vectors.x,
      &zero, vectors.y, CUDA_R_64F, kAlgorithm, workspace_.data()));
  return absl::OkStatus();
}

int64_t DeviceSpmv::device_bytes() const {
  return row_ptr32_.bytes() + col_idx32_.bytes() + row_ptr64_.bytes() +
         col_idx64_.bytes() + values_.bytes() + workspace_.bytes();
}

absl::Status Spmv(CudaStream& stream, const CsrMatrix& a,
                  std::span<const double> x, std::span<double> y) {
  if (static_cast<int64_t>(x.size()) != a.cols ||
      static_cast<int64_t>(y.size()) != a.rows) {
    return absl::InvalidArgumentError("Spmv: vector sizes do not match A");
  }
  FACTORD_CUDA_ASSIGN_OR_RETURN(spmv, DeviceSpmv::Create(stream, a));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_x, UploadArray(x, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      device_y, DeviceArray<double>::Allocate(static_cast<int64_t>(y.size())));
  FACTORD_CUDA_RETURN_IF_NOT_OK(spmv->Apply(device_x.data(), device_y.data()));
  FACTORD_CUDA_RETURN_IF_NOT_OK(device_y.CopyToHost(y, stream));
  return stream.Synchronize();
}

}  // namespace factord::kernels::cuda
