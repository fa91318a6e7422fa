// The level-scheduled block_ildlt solves (S1 §IV-C;
// core/block_ildlt/kernels/cuda/block_ildlt_solve_launch.cu) under the CPU
// emulation against the reference, bit for bit: the kernels on their own (y ->
// x against the per-block reference sweeps in block order) on the planted and
// real cases for several schedule seeds, and BlockIldltFactor::Apply on the
// emulated backend registered as kCuda against Apply on kReference.
#include <bit>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/base/device_context.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/block_ildlt/kernels/block_ildlt_device.h"
#include "core/block_ildlt/kernels/block_ildlt_solve.h"
#include "core/emulation/cuda_emulation.h"
#include "gtest/gtest.h"
#include "tests/core/block_ildlt/block_ildlt_cases.h"
#include "tests/core/block_ildlt/block_ildlt_emulated_run.h"
#include "tests/core/device/emulated_device_kernels.h"
#include "tests/core/linalg/reference_device_kernels.h"

namespace factord::emulation_testing {
namespace {

std::unique_ptr<BlockIldltFactor> ReferenceFactor(const BlockIldltCase& c) {
  ExecContext ctx;
  ctx.backend = Backend::kReference;
  auto f = BlockIldltFactor::Create(c.a, c.s, c.options, ctx);
  EXPECT_TRUE(f.ok()) << c.name << ": " << f.status();
  return f.ok() ? *std::move(f) : nullptr;
}

std::vector<double> RandomVector(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = uniform(rng);
  return v;
}

// Index of the first entry whose bits differ, -1 when none.
int64_t FirstBitDifference(const std::vector<double>& x,
                           const std::vector<double>& y) {
  if (x.size() != y.size()) return -2;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::bit_cast<uint64_t>(x[i]) != std::bit_cast<uint64_t>(y[i])) {
      return static_cast<int64_t>(i);
    }
  }
  return -1;
}

// The reference sweeps of Apply on kReference: block order forward, D^{-1},
// block order backward.
std::vector<double> ReferenceSweeps(const BlockIldltFactor& f,
                                    std::vector<double> y) {
  const kernels::BlockIldltSolveView view = kernels::SolveViewOf(f);
  const int64_t nb = f.structure().num_blocks();
  std::vector<double> w(y.size());
  for (int64_t i = 0; i < nb; ++i)
    kernels::BlockRowForward(view, i, y.data(), w.data());
  for (int64_t j = 0; j < nb; ++j)
    kernels::BlockDiagonalSolve(view, j, w.data());
  for (int64_t j = nb - 1; j >= 0; --j) {
    kernels::BlockColumnBackward(view, j, y.data(), w.data());
  }
  return y;
}

std::vector<BlockIldltCase> AllCases() {
  std::vector<BlockIldltCase> cases = PlantedBlockIldltCases();
  // The overflow case's factor holds Inf: its solve is NaN on both sides,
  // which proves nothing; leave it out.
  std::erase_if(cases, [](const BlockIldltCase& c) {
    return c.name == "overflow to Inf";
  });
  for (BlockIldltCase& c : RealBlockIldltCases()) cases.push_back(std::move(c));
  return cases;
}

TEST(BlockIldltSolveEmulated, SweepsEqualTheReferenceBitForBit) {
  const std::vector<BlockIldltCase> cases = AllCases();
  EXPECT_GE(cases.size(), 10u);
  for (const BlockIldltCase& c : cases) {
    auto f = ReferenceFactor(c);
    ASSERT_NE(f, nullptr);
    const std::vector<double> y = RandomVector(c.s->n, 42);
    const std::vector<double> want = ReferenceSweeps(*f, y);
    for (uint64_t seed : {uint64_t{1}, uint64_t{2}, uint64_t{1234567}}) {
      emulation::SetScheduleSeed(seed);
      std::vector<double> got = y;
      ASSERT_TRUE(EmulatedApplyBlockIldlt(*f, got).ok()) << c.name;
      EXPECT_EQ(FirstBitDifference(got, want), -1)
          << c.name << ", schedule seed " << seed;
    }
    // Not the identity: the sweeps changed y.
    EXPECT_NE(FirstBitDifference(want, y), -1) << c.name;
  }
}

// Apply on Backend::kCuda with the emulated backend: the solve entry point
// runs once per Apply, its bytes are drawn and given back, and z is
// kReference's bit for bit.
TEST(BlockIldltSolveEmulated, ApplyOnEmulatedCudaBackendEqualsReference) {
  emulation::SetScheduleSeed(4);
  auto kernels = MakeEmulatedCudaKernels();
  testing::ScopedCudaBackend backend(kernels);
  DeviceMemoryBudget budget(0);
  auto device = CreateDeviceContext(Backend::kCuda, &budget);
  ASSERT_TRUE(device.ok()) << device.status();
  ExecContext cuda;
  cuda.backend = Backend::kCuda;
  cuda.device = device->get();
  ExecContext reference;
  reference.backend = Backend::kReference;
  int calls = 0;
  for (const BlockIldltCase& c : AllCases()) {
    auto f = ReferenceFactor(c);
    ASSERT_NE(f, nullptr);
    const std::vector<double> r = RandomVector(c.s->n, 7);
    std::vector<double> want(c.s->n, -1.0), got(c.s->n, -2.0);
    f->Apply(reference, r, want);
    f->Apply(cuda, r, got);
    ++calls;
    ASSERT_TRUE(cuda.CheckCancelled().ok()) << c.name;
    EXPECT_EQ(kernels->calls("ApplyBlockIldlt"), calls) << c.name;
    EXPECT_EQ(FirstBitDifference(got, want), -1) << c.name;
    EXPECT_GE(budget.peak(), kernels::BlockIldltSolveDeviceBytes(*f));
    EXPECT_EQ(budget.in_use(), 0);
  }
}

// A failing device solve: z is NaN and the request carries the error.
TEST(BlockIldltSolveEmulated, FailedDeviceSolveIsRecordedAndNaN) {
  const BlockIldltCase c = PlantedBlockIldltCase("chain with dropping");
  auto f = ReferenceFactor(c);
  ASSERT_NE(f, nullptr);
  auto kernels = MakeEmulatedCudaKernels();
  testing::ScopedCudaBackend backend(kernels);
  kernels->FailFromCall(0, absl::InternalError("injected solve failure"));
  auto device = CreateDeviceContext(Backend::kCuda, nullptr);
  ASSERT_TRUE(device.ok());
  ExecContext ctx;
  ctx.backend = Backend::kCuda;
  ctx.device = device->get();
  const std::vector<double> r = RandomVector(c.s->n, 3);
  std::vector<double> z(c.s->n, 0.0);
  f->Apply(ctx, r, z);
  for (double v : z) EXPECT_TRUE(std::isnan(v));
  const absl::Status status = ctx.CheckCancelled();
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal) << status;
  EXPECT_NE(status.message().find("injected"), std::string::npos) << status;
}

}  // namespace
}  // namespace factord::emulation_testing
