// The CUDA backend on a real device: device detection, stream creation and
// the block-Jacobi kernels compared with the reference. On a machine without
// a GPU the detection tests still run (they check that the absence is
// reported, not crashed on) and the kernel tests skip with the reason.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/block_jacobi/kernels/cuda/block_jacobi_kernels.h"
#include "core/dense/kernels/cuda/batched_dense_kernels.h"
#include "core/dense/kernels/cuda/dense_ldlt_launch.h"
#include "core/kernels/cuda/device.h"
#include "gtest/gtest.h"
#include "tests/core/block_jacobi/block_jacobi_cases.h"
#include "tests/core/dense/dense_batched_cases.h"
#include "tests/core/dense/dense_ldlt_cases.h"

namespace factord::emulation_testing {
namespace {

namespace cuda = kernels::cuda;

TEST(CudaDevice, DetectionReportsTheDevicesOrWhyThereAreNone) {
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  EXPECT_GE(devices.count, 0);
  if (devices.count == 0) {
    EXPECT_FALSE(devices.reason.empty());
    std::printf("no CUDA device: %s\n", devices.reason.c_str());
  } else {
    EXPECT_FALSE(devices.first_device_name.empty());
    std::printf("CUDA devices: %d, first %s\n", devices.count,
                devices.first_device_name.c_str());
  }
}

TEST(CudaDevice, StreamCreationFailsWithAStatusWithoutADevice) {
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  auto stream = cuda::CudaStream::Create(0);
  if (devices.count > 0) {
    ASSERT_TRUE(stream.ok()) << stream.status();
    EXPECT_TRUE((*stream)->Synchronize().ok());
  } else {
    ASSERT_FALSE(stream.ok());
    EXPECT_NE(stream.status().message().find("CUDA error"),
              absl::string_view::npos)
        << stream.status();
  }
}

TEST(CudaBlockJacobi, DeviceKernelsMatchReference) {
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  if (devices.count == 0) {
    GTEST_SKIP() << "no CUDA device: " << devices.reason;
  }
  auto stream_or = cuda::CudaStream::Create(0);
  ASSERT_TRUE(stream_or.ok()) << stream_or.status();
  cuda::CudaStream& stream = **stream_or;
  for (const BlockJacobiCase& c :
       {MakePlantedEdgeCases(), MakeRandomCase(200, 5)}) {
    SCOPED_TRACE(c.name);
    const kernels::BlockLayout layout = c.Layout();
    const ExecContext ctx{.backend = Backend::kReference};
    const size_t size = c.value_ptr.back();
    std::vector<double> blocks(size), blocks_gpu(size);
    std::vector<double> inverses(size), inverses_gpu(size);
    std::vector<uint8_t> status(layout.num_blocks());
    std::vector<uint8_t> status_gpu(status.size());
    kernels::reference::ExtractDiagonalBlocks(ctx, c.a, layout, blocks);
    kernels::reference::InvertDiagonalBlocks(ctx, layout, blocks, inverses,
                                             status);
    ASSERT_TRUE(
        cuda::ExtractDiagonalBlocks(stream, c.a, layout, blocks_gpu).ok());
    ASSERT_TRUE(cuda::InvertDiagonalBlocks(stream, layout, blocks, inverses_gpu,
                                           status_gpu)
                    .ok());
    EXPECT_EQ(blocks_gpu, blocks);
    EXPECT_EQ(status_gpu, status);
    // FMA contraction on the device changes the last bits.
    for (size_t k = 0; k < size; ++k) {
      EXPECT_NEAR(inverses_gpu[k], inverses[k],
                  1e-10 * std::max(1.0, std::fabs(inverses[k])))
          << "entry " << k;
    }
    std::vector<double> r(c.a.rows, 1.0), z(c.a.rows), z_gpu(c.a.rows);
    kernels::reference::ApplyBlockDiagonal(ctx, layout, inverses, r, z);
    ASSERT_TRUE(
        cuda::ApplyBlockDiagonal(stream, layout, inverses, r, z_gpu).ok());
    for (int64_t i = 0; i < c.a.rows; ++i) {
      EXPECT_NEAR(z_gpu[i], z[i], 1e-10 * std::max(1.0, std::fabs(z[i])));
    }
  }
}

// The batched dense LDL^T kernel on the device against DensePartialLdlt. On
// a GPU, FMA contraction changes the last bits, so the pivot decisions of
// the planted blocks (far from the thresholds) must agree and the values
// only closely.
TEST(CudaDenseLdlt, DeviceKernelMatchesReference) {
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  if (devices.count == 0) {
    GTEST_SKIP() << "no CUDA device: " << devices.reason;
  }
  auto stream_or = cuda::CudaStream::Create(0);
  ASSERT_TRUE(stream_or.ok()) << stream_or.status();
  cuda::CudaStream& stream = **stream_or;
  const LdltBatch batch = PlantedBatch();
  DenseLdltParams params;  // Bunch-Kaufman, u = 0.01
  const LdltOutputs want = RunReference(batch, params);
  LdltOutputs got = Sentinel(batch);
  auto value_ptr =
      cuda::UploadArray(std::span<const int64_t>(batch.value_ptr), stream);
  auto pivot_ptr =
      cuda::UploadArray(std::span<const int64_t>(batch.pivot_ptr), stream);
  auto values = cuda::UploadArray(std::span<const double>(got.values), stream);
  auto order = cuda::UploadArray(std::span<const int>(got.order), stream);
  auto size = cuda::UploadArray(std::span<const int>(got.size), stream);
  auto d_diag = cuda::UploadArray(std::span<const double>(got.d_diag), stream);
  auto d_off = cuda::UploadArray(std::span<const double>(got.d_off), stream);
  auto counts =
      cuda::UploadArray(std::span<const DenseLdltCounts>(got.counts), stream);
  ASSERT_TRUE(value_ptr.ok() && pivot_ptr.ok() && values.ok() && order.ok() &&
              size.ok() && d_diag.ok() && d_off.ok() && counts.ok());
  cuda::DeviceDenseLdltBatch device;
  device.num_blocks = batch.num_blocks();
  device.value_ptr = value_ptr->data();
  device.pivot_ptr = pivot_ptr->data();
  ASSERT_EQ(cuda::LaunchDenseLdltBatch(
                device, params, values->data(), order->data(), size->data(),
                d_diag->data(), d_off->data(), counts->data(), stream.get()),
            cudaSuccess);
  ASSERT_TRUE(values->CopyToHost(std::span<double>(got.values), stream).ok());
  ASSERT_TRUE(order->CopyToHost(std::span<int>(got.order), stream).ok());
  ASSERT_TRUE(size->CopyToHost(std::span<int>(got.size), stream).ok());
  ASSERT_TRUE(d_diag->CopyToHost(std::span<double>(got.d_diag), stream).ok());
  ASSERT_TRUE(
      counts->CopyToHost(std::span<DenseLdltCounts>(got.counts), stream).ok());
  ASSERT_TRUE(stream.Synchronize().ok());
  EXPECT_EQ(got.order, want.order);
  EXPECT_EQ(got.size, want.size);
  for (size_t b = 0; b < want.counts.size(); ++b) {
    EXPECT_EQ(got.counts[b].eliminated, want.counts[b].eliminated) << b;
    EXPECT_EQ(got.counts[b].two_by_two, want.counts[b].two_by_two) << b;
  }
  for (size_t k = 0; k < want.values.size(); ++k) {
    if (!std::isfinite(want.values[k])) continue;
    EXPECT_NEAR(got.values[k], want.values[k],
                1e-9 * std::max(1.0, std::fabs(want.values[k])))
        << "entry " << k;
  }
}

// The batched dense LU / LL^T / LDL^T kernel (S2 §IV) on the device, through
// the host wrapper, against reference::FactorDenseBatch for every kind x
// pivoting. FMA contraction changes the last bits, so statuses, pivot
// sizes and permutations must agree (the planted and random blocks are not
// near a pivoting tie that rounding could flip), values only closely.
TEST(CudaBatchedDense, DeviceKernelMatchesReference) {
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  if (devices.count == 0) {
    GTEST_SKIP() << "no CUDA device: " << devices.reason;
  }
  auto stream_or = cuda::CudaStream::Create(0);
  ASSERT_TRUE(stream_or.ok()) << stream_or.status();
  for (const NamedDenseParams& np : AllDenseParams()) {
    SCOPED_TRACE(np.name);
    DenseBlocks input = RandomDenseBlocks(np.params.kind, 40, 11);
    const DenseBlocks planted = PlantedDenseBlocks();
    for (int64_t b = 0; b < planted.num_blocks(); ++b) {
      const int64_t m = planted.size[b];
      const auto first = planted.values.begin() + planted.value_offset[b];
      input.Add(static_cast<int>(m), std::vector<double>(first, first + m * m));
    }
    const DenseBlocks want = RunReference(input, np.params);
    DenseBlocks got = input;
    const absl::Status status =
        cuda::FactorDenseBatch(**stream_or, np.params, got.View());
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_EQ(got.status, want.status);
    EXPECT_EQ(got.step, want.step);
    EXPECT_EQ(got.row_perm, want.row_perm);
    EXPECT_EQ(got.col_perm, want.col_perm);
    EXPECT_EQ(got.pivot_size, want.pivot_size);
    for (size_t k = 0; k < want.values.size(); ++k) {
      if (!std::isfinite(want.values[k])) continue;
      EXPECT_NEAR(got.values[k], want.values[k],
                  1e-9 * std::max(1.0, std::fabs(want.values[k])))
          << "entry " << k;
    }
  }
}

}  // namespace
}  // namespace factord::emulation_testing
