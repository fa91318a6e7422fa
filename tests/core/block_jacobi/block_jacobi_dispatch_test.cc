// The block-Jacobi dispatch: extraction, inversion and application agree
// on every backend for a 2 + 1 blocking.
#include "core/block_jacobi/block_jacobi_dispatch.h"

#include <vector>

#include "core/block_jacobi/block_jacobi.h"
#include "gtest/gtest.h"
#include "tests/core/linalg/reference_device_kernels.h"

namespace factord::linalg {
namespace {

TEST(LinalgBlockJacobi, AllBackendsAgree) {
  CsrMatrix a;  // [[2, 1, 1], [1, 2, 0], [1, 0, 4]], blocks {0, 1}, {2}
  a.rows = a.cols = 3;
  a.row_ptr = {0, 3, 5, 7};
  a.col_idx = {0, 1, 2, 0, 1, 0, 2};
  a.values = {2, 1, 1, 1, 2, 1, 4};
  const BlockJacobiBlocking b = *MakeBlockJacobiBlocking({0, 1, 2}, {0, 2, 3});
  const BlockLayout layout{b.block_ptr, b.block_rows, b.block_of_row,
                           b.local_index, b.value_ptr};
  const std::vector<double> r = {3, 3, 8};
  auto device_kernels = std::make_shared<testing::ReferenceDeviceKernels>();
  testing::ScopedCudaBackend registered(device_kernels);
  auto device = CreateDeviceContext(Backend::kCuda, nullptr);
  ASSERT_TRUE(device.ok()) << device.status();
  for (Backend backend : {Backend::kReference, Backend::kCpu, Backend::kCuda}) {
    ExecContext ctx;
    ctx.backend = backend;
    ctx.device = device->get();
    std::vector<double> blocks(5), inverses(5), z(3);
    std::vector<uint8_t> status(2);
    ExtractDiagonalBlocks(ctx, a, layout, blocks);
    EXPECT_EQ(blocks, (std::vector<double>{2, 1, 1, 2, 4}));
    InvertDiagonalBlocks(ctx, layout, blocks, inverses, status);
    EXPECT_EQ(status, (std::vector<uint8_t>{0, 0}));
    ApplyBlockDiagonal(ctx, layout, inverses, r, z);
    EXPECT_NEAR(z[0], 1.0, 1e-15);
    EXPECT_NEAR(z[1], 1.0, 1e-15);
    EXPECT_EQ(z[2], 2.0);
  }
  // Every kCuda call reached the registered backend.
  EXPECT_EQ(device_kernels->total_calls(), 3);
}

}  // namespace
}  // namespace factord::linalg
