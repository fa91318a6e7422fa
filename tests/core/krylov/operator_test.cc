// The identity preconditioner and the CSR operator on every backend.
#include "factord/krylov/operator.h"

#include "gtest/gtest.h"
#include "tests/core/krylov/krylov_test_systems.h"

namespace factord {
namespace {

TEST(Operator, IdentityCopiesAndCsrMultiplies) {
  const CsrMatrix a = testing::DenseToCsr(2, {1, 2, 0, 3});
  const std::vector<double> x = {1, -1};
  for (Backend backend : {Backend::kReference, Backend::kCpu, Backend::kCuda}) {
    ExecContext ctx;
    ctx.backend = backend;
    std::vector<double> y(2), z(2);
    CsrOperator op(a);
    EXPECT_EQ(op.size(), 2);
    op.Apply(ctx, x, y);
    EXPECT_EQ(y, (std::vector<double>{-1, -3}));
    IdentityPreconditioner(2).Apply(ctx, x, z);
    EXPECT_EQ(z, x);
  }
}

}  // namespace
}  // namespace factord
