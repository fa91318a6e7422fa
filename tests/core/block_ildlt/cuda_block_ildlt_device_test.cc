// The block_ildlt numeric and solve kernels (S1 §IV-B, §IV-C) on a real
// device, through the host wrappers (kernels/cuda/factor/
// block_ildlt_kernels.h), against the serial reference on the cases of the
// emulated tests. The kernel sources are built with -fmad=false and compute
// every value in the reference's order, so the device factor and solves
// must equal the reference's bit for bit, as they do under the emulation.
// Skips with the reason when there is no device.
#include <bit>
#include <random>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "core/block_ildlt/kernels/block_ildlt_solve.h"
#include "core/block_ildlt/kernels/cuda/block_ildlt_kernels.h"
#include "core/kernels/cuda/device.h"
#include "gtest/gtest.h"
#include "tests/core/block_ildlt/block_ildlt_cases.h"

namespace factord::emulation_testing {
namespace {

namespace cuda = kernels::cuda;

std::vector<BlockIldltCase> AllCases() {
  std::vector<BlockIldltCase> cases = PlantedBlockIldltCases();
  for (BlockIldltCase& c : RealBlockIldltCases()) cases.push_back(std::move(c));
  return cases;
}

TEST(CudaBlockIldlt, DeviceFactorMatchesReferenceBitForBit) {
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  if (devices.count == 0) {
    GTEST_SKIP() << "no CUDA device: " << devices.reason;
  }
  auto stream = cuda::CudaStream::Create(0);
  ASSERT_TRUE(stream.ok()) << stream.status();
  for (const BlockIldltCase& c : AllCases()) {
    const BlockIldltRun want = ReferenceBlockIldlt(c);
    BlockIldltRun got;
    kernels::BlockIldltNumericParams params;
    ASSERT_TRUE(PrepareBlockIldltRun(c, &got, &params)) << got.error;
    const absl::Status status = cuda::FactorBlockIldlt(
        **stream, *c.s, params,
        {got.values, got.kept, got.pivot_order, got.pivot_size, got.d_diag,
         got.d_off, got.counts, got.column_status},
        [] { return absl::OkStatus(); });
    ASSERT_TRUE(status.ok()) << c.name << ": " << status;
    SumBlockIldltCounts(*c.s, &got);
    EXPECT_EQ(FirstDifference(got, want, *c.s), "") << c.name;
  }
}

TEST(CudaBlockIldlt, DeviceSolvesMatchReferenceBitForBit) {
  const cuda::CudaDevices devices = cuda::DetectCudaDevices();
  if (devices.count == 0) {
    GTEST_SKIP() << "no CUDA device: " << devices.reason;
  }
  auto stream = cuda::CudaStream::Create(0);
  ASSERT_TRUE(stream.ok()) << stream.status();
  ExecContext reference;
  reference.backend = Backend::kReference;
  for (const BlockIldltCase& c : AllCases()) {
    if (c.name == "overflow to Inf") continue;
    auto f = BlockIldltFactor::Create(c.a, c.s, c.options, reference);
    ASSERT_TRUE(f.ok()) << c.name << ": " << f.status();
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> y(c.s->n);
    for (double& v : y) v = uniform(rng);
    // The reference sweeps in block order (Apply on kReference).
    std::vector<double> want = y, w(c.s->n);
    const kernels::BlockIldltSolveView view = kernels::SolveViewOf(**f);
    const int64_t nb = c.s->num_blocks();
    for (int64_t i = 0; i < nb; ++i) {
      kernels::BlockRowForward(view, i, want.data(), w.data());
    }
    for (int64_t j = 0; j < nb; ++j) {
      kernels::BlockDiagonalSolve(view, j, w.data());
    }
    for (int64_t j = nb - 1; j >= 0; --j) {
      kernels::BlockColumnBackward(view, j, want.data(), w.data());
    }
    std::vector<double> got = y;
    const absl::Status status = cuda::ApplyBlockIldlt(**stream, **f, got);
    ASSERT_TRUE(status.ok()) << c.name << ": " << status;
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(std::bit_cast<uint64_t>(got[i]),
                std::bit_cast<uint64_t>(want[i]))
          << c.name << ": entry " << i;
    }
  }
}

}  // namespace
}  // namespace factord::emulation_testing
