// The vendor-library kernels of the CUDA backend on a real device: cuSPARSE
// SpMV (core/linalg/kernels/cuda/spmv_kernels.h) and the cuBLAS vector kernels
// (core/linalg/kernels/cuda/blas_kernels.h) against the reference kernels on
// the same inputs. Vendor calls are not emulated: without a GPU every test here
// skips with the reason. Sums run in the library's order, so the results
// agree to rounding; SpMV with CUSPARSE_SPMV_CSR_ALG2 must repeat bit for
// bit.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/kernels/cuda/device.h"
#include "core/linalg/kernels/blas_kernels.h"
#include "core/linalg/kernels/cuda/blas_kernels.h"
#include "core/linalg/kernels/cuda/spmv_kernels.h"
#include "core/linalg/kernels/spmv_kernels.h"
#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord::emulation_testing {
namespace {

namespace cuda = kernels::cuda;

// The stream of the first device, or a skip with the reason.
#define FACTORD_STREAM_OR_SKIP(stream)                          \
  const cuda::CudaDevices devices_ = cuda::DetectCudaDevices(); \
  if (devices_.count == 0) {                                    \
    GTEST_SKIP() << "no CUDA device: " << devices_.reason;      \
  }                                                             \
  auto stream##_or = cuda::CudaStream::Create(0);               \
  ASSERT_TRUE(stream##_or.ok()) << stream##_or.status();        \
  cuda::CudaStream& stream = **stream##_or

ExecContext Reference() {
  ExecContext ctx;
  ctx.backend = Backend::kReference;
  return ctx;
}

std::vector<double> RandomVector(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = value(rng);
  return v;
}

// A 5 x 4 general matrix with empty rows 0 and 3 and an explicit zero.
CsrMatrix SmallMatrixWithEmptyRows() {
  CsrMatrix a;
  a.rows = 5;
  a.cols = 4;
  a.row_ptr = {0, 0, 2, 5, 5, 6};
  a.col_idx = {0, 3, 1, 2, 3, 2};
  a.values = {1.5, -2.0, 0.0, 4.0, 1e-300, -7.0};
  return a;
}

void ExpectSpmvMatchesReference(cuda::CudaStream& stream, const CsrMatrix& a,
                                const std::string& name) {
  SCOPED_TRACE(name);
  const std::vector<double> x = RandomVector(a.cols, 3);
  std::vector<double> want(a.rows), got(a.rows, 99.0), again(a.rows);
  kernels::reference::Spmv(Reference(), a, x, want);
  const absl::Status status = cuda::Spmv(stream, a, x, got);
  ASSERT_TRUE(status.ok()) << status;
  for (int64_t i = 0; i < a.rows; ++i) {
    double row_scale = 0;  // sum |a_ij x_j|: the rounding scale of row i
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      row_scale += std::fabs(a.values[k] * x[a.col_idx[k]]);
    }
    EXPECT_NEAR(got[i], want[i], 1e-14 * row_scale + 1e-300) << "row " << i;
  }
  ASSERT_TRUE(cuda::Spmv(stream, a, x, again).ok());
  EXPECT_EQ(again, got) << "CUSPARSE_SPMV_CSR_ALG2 must be deterministic";
}

TEST(CudaSpmv, CusparseMatchesReference) {
  FACTORD_STREAM_OR_SKIP(stream);
  ExpectSpmvMatchesReference(stream, SmallMatrixWithEmptyRows(), "empty rows");
  for (const char* name : {"494_bus.mtx", "west0479.mtx", "bcsstk13.mtx"}) {
    auto a = ReadMatrixMarket(testing::TestDataPath(name));
    ASSERT_TRUE(a.ok()) << a.status();
    ExpectSpmvMatchesReference(stream, ExpandSymmetric(*a), name);
  }
}

TEST(CudaSpmv, RejectsSymmetricStorageAndWrongSizes) {
  FACTORD_STREAM_OR_SKIP(stream);
  auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_NE(a->structure, Structure::kGeneral);
  std::vector<double> x(a->cols, 1.0), y(a->rows);
  EXPECT_EQ(cuda::Spmv(stream, *a, x, y).code(),
            absl::StatusCode::kInvalidArgument);
  const CsrMatrix general = ExpandSymmetric(*a);
  std::vector<double> short_y(a->rows - 1);
  EXPECT_EQ(cuda::Spmv(stream, general, x, short_y).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CudaBlas, CublasMatchesReference) {
  FACTORD_STREAM_OR_SKIP(stream);
  for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{1000}, int64_t{100003}}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<double> x = RandomVector(n, 5), y = RandomVector(n, 6);
    double abs_dot = 0;
    for (int64_t i = 0; i < n; ++i) abs_dot += std::fabs(x[i] * y[i]);
    auto dot = cuda::Dot(stream, x, y);
    ASSERT_TRUE(dot.ok()) << dot.status();
    EXPECT_NEAR(*dot, kernels::reference::Dot(Reference(), x, y),
                1e-14 * abs_dot + 1e-300);
    auto norm = cuda::Norm2(stream, x);
    ASSERT_TRUE(norm.ok()) << norm.status();
    const double want_norm = kernels::reference::Norm2(Reference(), x);
    EXPECT_NEAR(*norm, want_norm, 1e-14 * want_norm + 1e-300);
    std::vector<double> want_y = y, got_y = y;
    kernels::reference::Axpy(Reference(), -0.75, x, want_y);
    ASSERT_TRUE(cuda::Axpy(stream, -0.75, x, got_y).ok());
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_NEAR(got_y[i], want_y[i], 1e-15 * (1 + std::fabs(want_y[i])));
    }
  }
}

TEST(CudaBlas, DeviceOperationsFollowTheReferenceContract) {
  FACTORD_STREAM_OR_SKIP(stream);
  const int64_t n = 4097;
  const std::vector<double> x = RandomVector(n, 7), d = RandomVector(n, 8);
  std::vector<double> nan_y(n, std::numeric_limits<double>::quiet_NaN());
  auto blas = cuda::DeviceBlas::Create(stream);
  ASSERT_TRUE(blas.ok()) << blas.status();
  auto device_x = cuda::UploadArray(std::span<const double>(x), stream);
  auto device_d = cuda::UploadArray(std::span<const double>(d), stream);
  auto device_y = cuda::UploadArray(std::span<const double>(nan_y), stream);
  ASSERT_TRUE(device_x.ok() && device_d.ok() && device_y.ok());
  // beta == 0 ignores the old y, even NaN.
  ASSERT_TRUE(
      (*blas)->Axpby(n, 2.0, device_x->data(), 0.0, device_y->data()).ok());
  std::vector<double> got(n), want = nan_y;
  kernels::reference::Axpby(Reference(), 2.0, x, 0.0, want);
  ASSERT_TRUE(device_y->CopyToHost(std::span<double>(got), stream).ok());
  ASSERT_TRUE(stream.Synchronize().ok());
  EXPECT_EQ(got, want);  // 2 x is exact
  ASSERT_TRUE((*blas)
                  ->PointwiseProduct(n, device_d->data(), device_x->data(),
                                     device_y->data())
                  .ok());
  kernels::reference::PointwiseProduct(Reference(), d, x, want);
  ASSERT_TRUE(device_y->CopyToHost(std::span<double>(got), stream).ok());
  ASSERT_TRUE(stream.Synchronize().ok());
  EXPECT_EQ(got, want);  // one rounding per entry, as the reference
}

}  // namespace
}  // namespace factord::emulation_testing
