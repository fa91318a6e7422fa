// Backend::kCuda through core's dispatch seam without a GPU: without a
// registered backend every kCuda path is FAILED_PRECONDITION (never a silent
// run on the CPU); with a registered backend (the host-run
// ReferenceDeviceKernels) the facade's solves reach it and match
// kReference bit for bit; a device failure and an exhausted device budget
// come back as the request's Status, not as a result.
#include "core/base/device_context.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/linalg/spmv.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/solver.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_data.h"
#include "tests/core/linalg/reference_device_kernels.h"

namespace factord {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<const CsrMatrix> Load494Bus() {
  absl::StatusOr<CsrMatrix> a =
      ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  EXPECT_TRUE(a.ok()) << a.status();
  if (!a.ok()) return std::make_shared<CsrMatrix>();
  a->structure = Structure::kSpdLower;
  return std::make_shared<const CsrMatrix>(*std::move(a));
}

struct Outcome {
  absl::Status status;
  SolveReport report;
  std::vector<double> x;
};

// Analyze, factorize and solve with `method` (block_jacobi + CG, or ic with
// Jacobi triangular sweeps + CG) on `ctx`.
Outcome Solve(std::shared_ptr<const CsrMatrix> a, Method method,
              const ExecContext& ctx) {
  FactorOptions options;
  options.method = method;
  if (method == Method::kIc) {
    options.trisolve = TriangularSolve::kJacobi;
    options.trisolve_sweeps = 3;
  }
  Outcome run;
  auto analysis = Analyze(*a, options, ctx);
  if (!analysis.ok()) {
    run.status = analysis.status();
    return run;
  }
  auto f = Factorize(a, *analysis, options, ctx);
  if (!f.ok()) {
    run.status = f.status();
    return run;
  }
  SolveOptions solve;
  solve.krylov = Krylov::kCg;
  std::vector<double> b(a->rows);
  for (int64_t i = 0; i < a->rows; ++i) b[i] = 1.0 + (i % 7);
  run.x.assign(a->rows, 0.0);
  run.status = (*f)->Solve(b, run.x, solve, ctx, &run.report);
  return run;
}

TEST(DeviceContext, CudaWithoutARegisteredBackendIsFailedPrecondition) {
  UnregisterDeviceKernels(Backend::kCuda);
  EXPECT_FALSE(DeviceBackendRegistered(Backend::kCuda));
  EXPECT_EQ(ProbeDevices(Backend::kCuda).count, 0);
  EXPECT_EQ(ProbeDevices(Backend::kCuda).reason,
            "no cuda backend in this build");

  auto device = CreateDeviceContext(Backend::kCuda, nullptr);
  EXPECT_EQ(device.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(device.status().message()),
              HasSubstr("backend cuda: no device kernels are registered"));

  ExecContext ctx{.backend = Backend::kCuda};
  EXPECT_EQ(ctx.CheckCancelled().code(), absl::StatusCode::kFailedPrecondition);
  // A kernel called anyway does not run on the CPU: its output is NaN.
  CsrMatrix a;
  a.rows = a.cols = 1;
  a.row_ptr = {0, 1};
  a.col_idx = {0};
  a.values = {2};
  std::vector<double> x = {3}, y = {0};
  linalg::Spmv(ctx, a, x, y);
  EXPECT_TRUE(std::isnan(y[0]));

  // Through the facade: the request fails with the reason.
  for (Method method : {Method::kBlockJacobi, Method::kIc}) {
    Outcome run = Solve(Load494Bus(), method, ctx);
    EXPECT_EQ(run.status.code(), absl::StatusCode::kFailedPrecondition)
        << MethodName(method) << ": " << run.status;
    EXPECT_THAT(std::string(run.status.message()), HasSubstr("backend cuda"));
  }
  // Host backends are unaffected.
  EXPECT_TRUE(ExecContext{.backend = Backend::kCpu}.CheckCancelled().ok());
}

TEST(DeviceContext, RegisteredBackendRunsTheFacadeSolvesBitwiseAsReference) {
  auto kernels = std::make_shared<testing::ReferenceDeviceKernels>();
  testing::ScopedCudaBackend registered(kernels);
  ASSERT_TRUE(DeviceBackendRegistered(Backend::kCuda));
  EXPECT_EQ(ProbeDevices(Backend::kCuda).count, 1);
  DeviceMemoryBudget budget(0);  // no limit, but counted
  auto device = CreateDeviceContext(Backend::kCuda, &budget);
  ASSERT_TRUE(device.ok()) << device.status();
  const ExecContext cuda{.backend = Backend::kCuda, .device = device->get()};
  const ExecContext reference{.backend = Backend::kReference};
  auto a = Load494Bus();
  for (Method method : {Method::kBlockJacobi, Method::kIc}) {
    const int calls_before = kernels->total_calls();
    Outcome on_device = Solve(a, method, cuda);
    Outcome on_host = Solve(a, method, reference);
    ASSERT_TRUE(on_device.status.ok()) << on_device.status;
    ASSERT_TRUE(on_host.status.ok()) << on_host.status;
    EXPECT_EQ(on_device.report.status, SolveStatus::kConverged);
    EXPECT_EQ(on_device.report.iterations, on_host.report.iterations);
    EXPECT_EQ(on_device.x, on_host.x) << MethodName(method);
    EXPECT_GT(kernels->total_calls() - calls_before,
              on_device.report.iterations);
  }
  EXPECT_GT(kernels->calls("Spmv"), 0);
  EXPECT_GT(kernels->calls("ApplyBlockDiagonal"), 0);
  EXPECT_GT(kernels->calls("InvertDiagonalBlocks"), 0);
  EXPECT_GT(kernels->calls("JacobiSweep"), 0);
  EXPECT_GT(kernels->calls("Dot"), 0);
  EXPECT_EQ(budget.in_use(), 0);  // every call released its bytes
  EXPECT_GE(budget.peak(), static_cast<int64_t>(a->values.size() * 8));
}

TEST(DeviceContext, DeviceFailureIsTheRequestsStatus) {
  auto kernels = std::make_shared<testing::ReferenceDeviceKernels>();
  testing::ScopedCudaBackend registered(kernels);
  auto a = Load494Bus();
  // Fail during the factorization (call 0) and during the Krylov loop.
  for (int fail_from : {0, 60}) {
    kernels->FailFromCall(
        kernels->total_calls() + fail_from,
        absl::InternalError("an illegal memory access was encountered"));
    auto device = CreateDeviceContext(Backend::kCuda, nullptr);
    ASSERT_TRUE(device.ok());
    Outcome run = Solve(a, Method::kBlockJacobi,
                        {.backend = Backend::kCuda, .device = device->get()});
    EXPECT_EQ(run.status.code(), absl::StatusCode::kInternal) << run.status;
    EXPECT_THAT(std::string(run.status.message()),
                HasSubstr("reference-device "));
    EXPECT_THAT(std::string(run.status.message()),
                HasSubstr("illegal memory access"));
    kernels->FailFromCall(-1, absl::OkStatus());
  }
  kernels->FailStreams(absl::UnavailableError("no CUDA-capable device"));
  auto device = CreateDeviceContext(Backend::kCuda, nullptr);
  EXPECT_EQ(device.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(device.status().message()),
              HasSubstr("cannot create a stream: no CUDA-capable device"));
}

TEST(DeviceContext, OverTheDeviceBudgetIsResourceExhausted) {
  auto kernels = std::make_shared<testing::ReferenceDeviceKernels>();
  testing::ScopedCudaBackend registered(kernels);
  auto a = Load494Bus();
  // Smaller than the expanded matrix that SpMV puts on the device.
  DeviceMemoryBudget budget(4096);
  auto device = CreateDeviceContext(Backend::kCuda, &budget);
  ASSERT_TRUE(device.ok());
  Outcome run = Solve(a, Method::kBlockJacobi,
                      {.backend = Backend::kCuda, .device = device->get()});
  EXPECT_EQ(run.status.code(), absl::StatusCode::kResourceExhausted)
      << run.status;
  EXPECT_THAT(std::string(run.status.message()),
              HasSubstr("over the device budget device_cache_bytes = 4096"));
  EXPECT_EQ(budget.in_use(), 0);

  DeviceMemoryBudget shared(100);
  ASSERT_TRUE(shared.Reserve(60, "first").ok());
  absl::Status second = shared.Reserve(50, "second");
  EXPECT_EQ(second.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(second.message()),
              HasSubstr("second needs 50 device bytes, 60 are in use"));
  shared.Release(60);
  EXPECT_TRUE(shared.Reserve(100, "all").ok());
  EXPECT_EQ(shared.peak(), 100);
}

}  // namespace
}  // namespace factord
