// The trisolve sweep kernels (S4 eqs. 2, 4-5) on a real device, through the
// host wrapper (core/trisolve/kernels/cuda/trisolve_kernels.h), against the
// reference on the cases of the emulated test. The kernel source is built
// with -fmad=false and sums each row in the reference's order, so the device
// iterates must equal the reference's bit for bit, as they do under the
// emulation. Skips with the reason when there is no device.
#include <cstdint>
#include <span>
#include <vector>

#include "core/kernels/cuda/device.h"
#include "core/trisolve/kernels/cuda/trisolve_kernels.h"
#include "gtest/gtest.h"
#include "tests/core/trisolve/trisolve_cases.h"

namespace factord::emulation_testing {
namespace {

namespace cuda = kernels::cuda;

constexpr int kSweeps = 5;

TEST(CudaTrisolve, DeviceSweepsMatchReferenceBitForBit) {
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  if (devices.count == 0) {
    GTEST_SKIP() << "no CUDA device: " << devices.reason;
  }
  auto stream_or = cuda::CudaStream::Create(0);
  ASSERT_TRUE(stream_or.ok()) << stream_or.status();
  cuda::CudaStream& stream = **stream_or;
  for (const TrisolveCase& c :
       {MakePlantedCase(), MakeZeroPivotCase(), Make494BusIc0Case()}) {
    ASSERT_FALSE(c.name.empty()) << "a case could not be built";
    for (Triangle triangle : {Triangle::kLower, Triangle::kUpper}) {
      SCOPED_TRACE(c.name +
                   (triangle == Triangle::kLower ? " lower" : " upper"));
      // The wrapper returns the last iterate only: compare it with the
      // reference chain's last iterate, and the last status.
      const SweepRun want = ReferenceJacobi(c, triangle, kSweeps);
      SweepRun got;
      got.iterates.assign(kSweeps, {});
      got.iterates.back().resize(c.n());
      got.status.resize(c.n());
      ASSERT_TRUE(cuda::JacobiSweeps(stream, c.View(), triangle, c.b, c.x0,
                                     kSweeps, got.iterates.back(), got.status)
                      .ok());
      SweepRun want_last = want;
      for (int k = 0; k + 1 < kSweeps; ++k) want_last.iterates[k].clear();
      EXPECT_EQ(FirstDifference(got, want_last), "");

      std::vector<uint8_t> inverse_status;
      const std::vector<double> inverses =
          ReferenceInverses(c, triangle, &inverse_status);
      const SweepRun block_want =
          ReferenceBlockJacobi(c, triangle, inverses, kSweeps);
      SweepRun block_got;
      block_got.iterates.assign(kSweeps, {});
      block_got.iterates.back().resize(c.n());
      block_got.status.resize(c.blocking.num_blocks());
      ASSERT_TRUE(cuda::BlockJacobiSweeps(stream, c.View(), triangle,
                                          c.Blocks(), inverses, c.b, c.x0,
                                          kSweeps, block_got.iterates.back(),
                                          block_got.status)
                      .ok());
      SweepRun block_want_last = block_want;
      for (int k = 0; k + 1 < kSweeps; ++k) {
        block_want_last.iterates[k].clear();
      }
      EXPECT_EQ(FirstDifference(block_got, block_want_last), "");
    }
  }
}

// Sizes are checked before anything is copied (a stream needs a device, so
// this skips without one too).
TEST(CudaTrisolve, WrongSizesAreInvalidArgument) {
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  if (devices.count == 0) {
    GTEST_SKIP() << "no CUDA device: " << devices.reason;
  }
  auto stream_or = cuda::CudaStream::Create(0);
  ASSERT_TRUE(stream_or.ok()) << stream_or.status();
  const TrisolveCase c = MakeZeroPivotCase();
  std::vector<double> x(c.n() - 1);
  const absl::Status status =
      cuda::JacobiSweeps(**stream_or, c.View(), Triangle::kLower, c.b, c.x0, 1,
                         x, std::span<uint8_t>());
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
}

}  // namespace
}  // namespace factord::emulation_testing
