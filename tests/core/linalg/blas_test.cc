// The vector-kernel dispatch: every backend gives the same answers
// (kCuda runs the cpu kernels until the CUDA backend lands).
#include "src/linalg/blas.h"

#include <vector>

#include "gtest/gtest.h"

namespace factord::linalg {
namespace {

TEST(LinalgBlas, AllBackendsAgree) {
  const std::vector<double> x = {1, -2, 3, 4}, d = {2, 2, 0.5, 1};
  for (Backend backend : {Backend::kReference, Backend::kCpu, Backend::kCuda}) {
    ExecContext ctx;
    ctx.backend = backend;
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
}

}  // namespace
}  // namespace factord::linalg
