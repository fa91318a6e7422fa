// The CUDA backend on a real device: device detection, stream creation and
// the block-Jacobi kernels compared with the reference. On a machine without
// a GPU the detection tests still run (they check that the absence is
// reported, not crashed on) and the kernel tests skip with the reason.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/cuda/block_jacobi/block_jacobi_kernels.h"
#include "kernels/cuda/device.h"
#include "tests/emulation/block_jacobi_cases.h"

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

}  // namespace
}  // namespace factord::emulation_testing
