// The identity preconditioner and the CSR operator on every backend.
#include "core/krylov/operator.h"

#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"
#include "tests/core/linalg/reference_device_kernels.h"

namespace factord {
namespace {

TEST(Operator, IdentityCopiesAndCsrMultiplies) {
  const CsrMatrix a = testing::DenseToCsr(2, {1, 2, 0, 3});
  const std::vector<double> x = {1, -1};
  auto device_kernels = std::make_shared<testing::ReferenceDeviceKernels>();
  testing::ScopedCudaBackend registered(device_kernels);
  auto device = CreateDeviceContext(Backend::kCuda, nullptr);
  ASSERT_TRUE(device.ok()) << device.status();
  for (Backend backend : {Backend::kReference, Backend::kCpu, Backend::kCuda}) {
    ExecContext ctx;
    ctx.backend = backend;
    ctx.device = device->get();
    std::vector<double> y(2), z(2);
    CsrOperator op(a);
    EXPECT_EQ(op.size(), 2);
    op.Apply(ctx, x, y);
    EXPECT_EQ(y, (std::vector<double>{-1, -3}));
    IdentityPreconditioner(2).Apply(ctx, x, z);
    EXPECT_EQ(z, x);
  }
  // Every kCuda call reached the registered backend.
  EXPECT_EQ(device_kernels->total_calls(), 2);
}

}  // namespace
}  // namespace factord
