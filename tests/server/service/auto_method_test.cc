// `auto` through the wire: the daemon passes the room in its cache to the
// core's ChooseMethod, which picks ldlt when ldlt's expected bytes fit and
// block_ildlt when they do not. The budgets are derived from the core's own
// estimates, so the test checks the rule, not a byte count.
#include <cstdint>

#include "core/solver/solver.h"
#include "tests/server/service_fixture.h"

namespace factord::server {
namespace {

// The 5-point Laplacian of a g x g grid, lower triangle: ldlt fills in
// (nested dissection), block_ildlt keeps fill_level 1.
CsrMatrix Laplacian2d(int g) {
  CsrMatrix a;
  a.rows = a.cols = int64_t{g} * g;
  a.structure = Structure::kSpdLower;
  a.row_ptr.push_back(0);
  for (int i = 0; i < g; ++i) {
    for (int j = 0; j < g; ++j) {
      const int k = i * g + j;
      if (i > 0) a.col_idx.push_back(k - g), a.values.push_back(-1.0);
      if (j > 0) a.col_idx.push_back(k - 1), a.values.push_back(-1.0);
      a.col_idx.push_back(k);
      a.values.push_back(4.0);
      a.row_ptr.push_back(a.nnz());
    }
  }
  return a;
}

// What the cache must hold to factorize `a` with `method`.
int64_t ExpectedBytesWith(const CsrMatrix& a, Method method) {
  FactorOptions options;
  options.method = method;
  absl::StatusOr<std::shared_ptr<const Analysis>> analysis =
      Analyze(a, options, ExecContext{});
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  return analysis.ok() ? ExpectedFactorBytes(a, **analysis) : 0;
}

class AutoMethodTest : public testing::ServiceTest {
 protected:
  // The method `auto` resolves to with a cache of `cache_bytes`.
  v1::Method AutoWithCache(const CsrMatrix& a, int64_t cache_bytes) {
    ServerConfig config = testing::TestConfig();
    config.cache_bytes = cache_bytes;
    StartServer(config);
    v1::MatrixInfo info;
    grpc::Status up = UploadCsr("a", a, 64, &info);
    EXPECT_TRUE(up.ok()) << up.error_message();
    v1::FactorizeReply reply;
    grpc::Status f = Factorize("a", v1::METHOD_AUTO, &reply);
    EXPECT_TRUE(f.ok()) << f.error_message();
    return reply.method();
  }
};

TEST_F(AutoMethodTest, LdltWhenItFitsBlockIldltWhenItDoesNot) {
  const CsrMatrix a = Laplacian2d(40);
  const int64_t ldlt = ExpectedBytesWith(a, Method::kLdlt);
  const int64_t block_ildlt = ExpectedBytesWith(a, Method::kBlockIldlt);
  ASSERT_LT(block_ildlt, ldlt) << "the fallback needs a smaller factor";
  EXPECT_EQ(AutoWithCache(a, ldlt), v1::METHOD_LDLT);
  EXPECT_EQ(AutoWithCache(a, ldlt - 1), v1::METHOD_BLOCK_ILDLT);
}

TEST_F(AutoMethodTest, UnsymmetricIsLuOrIluWhateverTheRoom) {
  const CsrMatrix a = testing::Tridiagonal(50);
  const v1::Method expected = LuAvailable() ? v1::METHOD_LU : v1::METHOD_ILU;
  EXPECT_EQ(AutoWithCache(a, int64_t{256} << 20), expected);
}

}  // namespace
}  // namespace factord::server
