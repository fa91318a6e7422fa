// The SpMV dispatch: every backend computes the same product.
#include "core/linalg/spmv.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/core/linalg/reference_device_kernels.h"

namespace factord::linalg {
namespace {

TEST(LinalgSpmv, AllBackendsAgree) {
  CsrMatrix a;  // [[1, 2], [0, 3]]
  a.rows = a.cols = 2;
  a.row_ptr = {0, 2, 3};
  a.col_idx = {0, 1, 1};
  a.values = {1, 2, 3};
  const std::vector<double> x = {5, 7};
  auto device_kernels = std::make_shared<testing::ReferenceDeviceKernels>();
  testing::ScopedCudaBackend registered(device_kernels);
  auto device = CreateDeviceContext(Backend::kCuda, nullptr);
  ASSERT_TRUE(device.ok()) << device.status();
  for (Backend backend : {Backend::kReference, Backend::kCpu, Backend::kCuda}) {
    ExecContext ctx;
    ctx.backend = backend;
    ctx.device = device->get();
    std::vector<double> y(2);
    Spmv(ctx, a, x, y);
    EXPECT_EQ(y, (std::vector<double>{19, 21}));
  }
  // Every kCuda call reached the registered backend.
  EXPECT_EQ(device_kernels->total_calls(), 1);
}

}  // namespace
}  // namespace factord::linalg
