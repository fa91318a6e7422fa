// A real matrix through the daemon: 494_bus (SuiteSparse, SPD, tests/data)
// with block_jacobi + CG reaches the default tolerance, and `deterministic`
// gives bitwise-identical solutions run to run.
#include <cstring>

#include "core/matrix/matrix_market.h"
#include "server/service_fixture.h"
#include "test_data.h"

namespace factord::server::testing {
namespace {

TEST_F(ServiceTest, BlockJacobiCgOn494BusIsDeterministic) {
  absl::StatusOr<CsrMatrix> a =
      ReadMatrixMarket(factord::testing::TestDataPath("494_bus.mtx"));
  ASSERT_TRUE(a.ok()) << a.status();
  v1::MatrixInfo info;
  grpc::Status s = UploadCsr("494_bus", *a, 100, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::FactorOptions options;
  options.set_deterministic(true);
  v1::FactorizeReply fr;
  s = Factorize("494_bus", v1::METHOD_BLOCK_JACOBI, &fr, options);
  // block_jacobi is a method of the core: any error, UNIMPLEMENTED
  // included, fails the test.
  ASSERT_TRUE(s.ok()) << "gRPC code " << s.error_code() << ": "
                      << s.error_message();
  EXPECT_EQ(fr.method(), v1::METHOD_BLOCK_JACOBI);

  v1::SolveOptions cg;
  cg.set_krylov(v1::KRYLOV_CG);
  const std::vector<double> ones(a->rows, 1.0);
  std::map<uint32_t, Solution> first, second;
  ASSERT_TRUE(Solve("494_bus", {ones, ones}, 200, &first, cg).ok());
  ASSERT_TRUE(Solve("494_bus", {ones}, 494, &second, cg).ok());
  EXPECT_EQ(first[0].report.status(), v1::SOLVE_STATUS_CONVERGED);
  EXPECT_LE(first[0].report.relative_residual(), 1e-8);
  EXPECT_GT(first[0].report.iterations(), 0);
  ASSERT_EQ(first[0].x.size(), ones.size());
  ASSERT_EQ(second[0].x.size(), ones.size());
  // Two solves in one stream (run concurrently) and one in another stream.
  EXPECT_EQ(std::memcmp(first[0].x.data(), first[1].x.data(),
                        ones.size() * sizeof(double)),
            0);
  EXPECT_EQ(std::memcmp(first[0].x.data(), second[0].x.data(),
                        ones.size() * sizeof(double)),
            0);
}

}  // namespace
}  // namespace factord::server::testing
