// The vector-kernel dispatch: every backend gives the same answers (kCuda
// through a registered host-run device backend,
// tests/core/linalg/reference_device_kernels.h).
#include "core/linalg/blas.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/core/linalg/reference_device_kernels.h"

namespace factord::linalg {
namespace {

TEST(LinalgBlas, AllBackendsAgree) {
  const std::vector<double> x = {1, -2, 3, 4}, d = {2, 2, 0.5, 1};
  auto device_kernels = std::make_shared<testing::ReferenceDeviceKernels>();
  testing::ScopedCudaBackend registered(device_kernels);
  auto device = CreateDeviceContext(Backend::kCuda, nullptr);
  ASSERT_TRUE(device.ok()) << device.status();
  for (Backend backend : {Backend::kReference, Backend::kCpu, Backend::kCuda}) {
    ExecContext ctx;
    ctx.backend = backend;
    ctx.device = device->get();
    ctx.threads = 2;
    EXPECT_EQ(Dot(ctx, x, x), 30.0);
    EXPECT_DOUBLE_EQ(Norm2(ctx, x), std::sqrt(30.0));
    EXPECT_EQ(NormInf(ctx, x), 4.0);
    std::vector<double> y = {1, 1, 1, 1};
    Axpy(ctx, 2.0, x, y);
    EXPECT_EQ(y, (std::vector<double>{3, -3, 7, 9}));
    Axpby(ctx, 1.0, x, -1.0, y);
    EXPECT_EQ(y, (std::vector<double>{-2, 1, -4, -5}));
    Scale(ctx, -1.0, y);
    EXPECT_EQ(y, (std::vector<double>{2, -1, 4, 5}));
    Copy(ctx, x, y);
    EXPECT_EQ(y, x);
    PointwiseProduct(ctx, d, x, y);
    EXPECT_EQ(y, (std::vector<double>{2, -4, 1.5, 4}));
  }
  // Every kCuda call reached the registered backend (NormInf runs on the
  // host by design).
  EXPECT_EQ(device_kernels->total_calls(), 7);
}

}  // namespace
}  // namespace factord::linalg
