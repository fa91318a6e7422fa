// Backend::kCuda end to end without a GPU: the emulated CUDA backend
// (emulated_device_kernels.h: the .cu kernel sources under the CPU
// emulation, host reference code in place of cuSPARSE / cuBLAS) is
// registered through core's device seam, and whole solves run through the
// solver facade with a per-request device context: core -> registry ->
// device kernels -> results. The custom kernels are bitwise equal to the
// reference kernels and the host stand-ins for the vendor libraries are the
// reference kernels, so every solve must equal the kReference solve bit for
// bit (same iterations, same x). Call counts prove that the device path ran.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/base/device_context.h"
#include "core/emulation/cuda_emulation.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"
#include "test_data.h"
#include "tests/core/device/emulated_device_kernels.h"

namespace factord::emulation_testing {
namespace {

struct Outcome {
  absl::Status status;
  SolveReport report;
  std::vector<double> x;
};

std::shared_ptr<const CsrMatrix> Load(const std::string& path, bool spd) {
  absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(path);
  EXPECT_TRUE(a.ok()) << a.status();
  if (!a.ok()) return std::make_shared<CsrMatrix>();
  if (spd) a->structure = Structure::kSpdLower;
  return std::make_shared<const CsrMatrix>(*std::move(a));
}

Outcome FactorAndSolve(std::shared_ptr<const CsrMatrix> a,
                       const FactorOptions& options, Krylov krylov,
                       const ExecContext& ctx, int max_iterations = 1000) {
  Outcome out;
  auto analysis = Analyze(*a, options, ctx);
  if (!analysis.ok()) {
    out.status = analysis.status();
    return out;
  }
  auto f = Factorize(a, *analysis, options, ctx);
  if (!f.ok()) {
    out.status = f.status();
    return out;
  }
  SolveOptions solve;
  solve.krylov = krylov;
  solve.max_iterations = max_iterations;
  const std::vector<double> b(a->rows, 1.0);  // data README: b = ones
  out.x.assign(a->rows, 0.0);
  out.status = (*f)->Solve(b, out.x, solve, ctx, &out.report);
  return out;
}

class EmulatedCudaBackend : public ::testing::Test {
 protected:
  void SetUp() override {
    emulation::SetScheduleSeed(6);
    kernels_ = MakeEmulatedCudaKernels();
    ASSERT_TRUE(RegisterDeviceKernels(Backend::kCuda, kernels_).ok());
    auto device = CreateDeviceContext(Backend::kCuda, &budget_);
    ASSERT_TRUE(device.ok()) << device.status();
    device_ = *std::move(device);
  }
  void TearDown() override { UnregisterDeviceKernels(Backend::kCuda); }

  // Solves on the emulated device and on kReference and expects the same
  // bits (and convergence unless the iterations are capped, which keeps the
  // slowest emulated kernels within CI's time); returns the device run.
  Outcome ExpectSameAsReference(std::shared_ptr<const CsrMatrix> a,
                                const FactorOptions& options, Krylov krylov,
                                int max_iterations = 1000) {
    const ExecContext cuda{.backend = Backend::kCuda, .device = device_.get()};
    const ExecContext reference{.backend = Backend::kReference};
    Outcome on_device =
        FactorAndSolve(a, options, krylov, cuda, max_iterations);
    Outcome on_host =
        FactorAndSolve(a, options, krylov, reference, max_iterations);
    EXPECT_TRUE(on_device.status.ok()) << on_device.status;
    EXPECT_TRUE(on_host.status.ok()) << on_host.status;
    if (max_iterations == 1000) {
      EXPECT_EQ(on_device.report.status, SolveStatus::kConverged)
          << on_device.report.message;
      EXPECT_LE(on_device.report.relative_residual, 1e-8);
    } else {
      // Stopped by the cap (CG's residual is not monotone: no bound on it).
      EXPECT_EQ(on_device.report.status, SolveStatus::kNotConverged);
      EXPECT_EQ(on_device.report.iterations, max_iterations);
      EXPECT_TRUE(std::isfinite(on_device.report.relative_residual));
    }
    EXPECT_EQ(on_device.report.iterations, on_host.report.iterations);
    EXPECT_EQ(on_device.x, on_host.x) << "not bitwise equal to kReference";
    EXPECT_EQ(budget_.in_use(), 0);
    return on_device;
  }

  std::shared_ptr<testing::ReferenceDeviceKernels> kernels_;
  DeviceMemoryBudget budget_{0};
  std::unique_ptr<DeviceContext> device_;
};

TEST_F(EmulatedCudaBackend, BlockJacobiCgOn1138BusEqualsReference) {
  auto a = Load(testing::TestDataPath("1138_bus.mtx"), true);
  FactorOptions options;
  options.method = Method::kBlockJacobi;
  Outcome run = ExpectSameAsReference(a, options, Krylov::kCg);
  EXPECT_EQ(kernels_->calls("ExtractDiagonalBlocks"), 1);
  EXPECT_EQ(kernels_->calls("InvertDiagonalBlocks"), 1);
  // One preconditioner application per CG iteration, plus the start.
  EXPECT_GE(kernels_->calls("ApplyBlockDiagonal"), run.report.iterations);
  EXPECT_GE(kernels_->calls("Spmv"), run.report.iterations);
  EXPECT_GT(budget_.peak(), 0);
}

TEST_F(EmulatedCudaBackend, IcWithJacobiSweepsOn1138BusEqualsReference) {
  auto a = Load(testing::TestDataPath("1138_bus.mtx"), true);
  FactorOptions options;
  options.method = Method::kIc;
  options.trisolve = TriangularSolve::kJacobi;
  options.trisolve_sweeps = 4;
  Outcome run = ExpectSameAsReference(a, options, Krylov::kCg);
  // Two triangles, four sweeps each, per preconditioner application.
  EXPECT_GE(kernels_->calls("JacobiSweep"), 8 * run.report.iterations);
  EXPECT_EQ(kernels_->calls("BlockJacobiSweep"), 0);
}

TEST_F(EmulatedCudaBackend, IcWithBlockJacobiSweepsOn494BusEqualsReference) {
  auto a = Load(testing::TestDataPath("494_bus.mtx"), true);
  FactorOptions options;
  options.method = Method::kIc;
  options.trisolve = TriangularSolve::kBlockJacobi;
  options.trisolve_sweeps = 3;
  // A warp per block under fibers is the slowest emulated kernel: 10 CG
  // iterations (uncapped, the solve converges, bitwise equal too, in about
  // 5 minutes; bitwise equality is the point).
  Outcome run = ExpectSameAsReference(a, options, Krylov::kCg, 10);
  EXPECT_EQ(kernels_->calls("InvertDiagonalBlocks"), 2);  // L and U blocks
  EXPECT_GE(kernels_->calls("BlockJacobiSweep"), 6 * run.report.iterations);
}

TEST_F(EmulatedCudaBackend, JacobiLdltOn494BusEqualsReference) {
  auto a = Load(testing::TestDataPath("494_bus.mtx"), false);
  FactorOptions options;
  options.method = Method::kJacobiLdlt;
  ExpectSameAsReference(a, options, Krylov::kAuto);
  // The S2 fixed-point sweeps factor their diagonal blocks in batches.
  EXPECT_GT(kernels_->calls("FactorDenseBatch"), 0);
}

TEST_F(EmulatedCudaBackend, BlockIldltSqmrOn494BusEqualsReference) {
  auto a = Load(testing::TestDataPath("494_bus.mtx"), false);
  FactorOptions options;
  options.method = Method::kBlockIldlt;
  Outcome run = ExpectSameAsReference(a, options, Krylov::kAuto);
  // S1 §IV-B numeric phase once, S1 §IV-C solves once per application.
  EXPECT_EQ(kernels_->calls("FactorBlockIldlt"), 1);
  EXPECT_GE(kernels_->calls("ApplyBlockIldlt"), run.report.iterations);
  EXPECT_GT(run.report.iterations, 0);
}

TEST_F(EmulatedCudaBackend, LaunchFailureIsTheRequestsStatus) {
  auto a = Load(testing::TestDataPath("494_bus.mtx"), true);
  FactorOptions options;
  options.method = Method::kBlockJacobi;
  kernels_->FailFromCall(
      5, absl::InternalError("unspecified launch failure (719)"));
  const ExecContext cuda{.backend = Backend::kCuda, .device = device_.get()};
  Outcome run = FactorAndSolve(a, options, Krylov::kCg, cuda);
  EXPECT_EQ(run.status.code(), absl::StatusCode::kInternal) << run.status;
  EXPECT_NE(run.status.message().find("emulated cuda"), absl::string_view::npos)
      << run.status;
}

}  // namespace
}  // namespace factord::emulation_testing
