// The iterative method family through the solver facade: tiny systems with
// known answers, the method/Krylov choices, analysis reuse, singular blocks,
// cancellation, and the foundation issue's acceptance numbers on real
// matrices (block_jacobi + CG on the SPD ones, GMRES(50) on the ReSolve
// symmetric and unsymmetric ones; tolerance 1e-8, 1000 iterations).
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "factord/matrix/matrix_market.h"
#include "factord/solver/residual.h"
#include "factord/solver/solver.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord {
namespace {

using ::factord::testing::TestDataPath;

struct Outcome {
  FactorReport factor;
  SolveReport solve;
  std::vector<double> x;
};

Outcome FactorAndSolve(std::shared_ptr<const CsrMatrix> a,
                       const std::vector<double>& b, Method method,
                       Krylov krylov, const ExecContext& ctx = {}) {
  FactorOptions factor_options;
  factor_options.method = method;
  auto analysis = Analyze(*a, factor_options, ctx);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  auto factorization = Factorize(a, *analysis, factor_options, ctx);
  EXPECT_TRUE(factorization.ok()) << factorization.status();
  Outcome out;
  out.factor = (*factorization)->report();
  SolveOptions solve_options;
  solve_options.krylov = krylov;
  out.x.assign(a->rows, 0.0);
  absl::Status s =
      (*factorization)->Solve(b, out.x, solve_options, ctx, &out.solve);
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

// Reads tests/data/<name>; a symmetric file is spd_lower when `spd`.
std::shared_ptr<const CsrMatrix> Load(const std::string& path, bool spd) {
  absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(path);
  EXPECT_TRUE(a.ok()) << a.status();
  if (!a.ok()) return std::make_shared<CsrMatrix>();
  if (spd && IsSymmetric(a->structure)) a->structure = Structure::kSpdLower;
  return std::make_shared<const CsrMatrix>(*std::move(a));
}

struct Acceptance {
  const char* matrix;
  const char* rhs;  // "" for all ones
  bool spd;
  Krylov krylov;
};

class AcceptanceTest : public ::testing::TestWithParam<Acceptance> {};

TEST_P(AcceptanceTest, BlockJacobiReachesTolerance) {
  const Acceptance& c = GetParam();
  auto a = Load(TestDataPath(c.matrix), c.spd);
  ASSERT_GT(a->rows, 0);
  std::vector<double> b(a->rows, 1.0);
  if (*c.rhs) {
    absl::StatusOr<std::vector<double>> read =
        ReadDenseVector(TestDataPath(c.rhs));
    ASSERT_TRUE(read.ok()) << read.status();
    b = *std::move(read);
    ASSERT_EQ(static_cast<int64_t>(b.size()), a->rows);
  }
  ExecContext ctx;
  ctx.threads = 2;
  Outcome out = FactorAndSolve(a, b, Method::kBlockJacobi, c.krylov, ctx);
  std::printf(
      "[ measured ] %s %s: %s, %d iterations, relres %.3e, "
      "blocks %lld, %s\n",
      c.matrix, std::string(KrylovName(c.krylov)).c_str(),
      std::string(SolveStatusName(out.solve.status)).c_str(),
      out.solve.iterations, out.solve.relative_residual,
      static_cast<long long>(out.factor.blocks), out.solve.message.c_str());
  EXPECT_EQ(out.solve.status, SolveStatus::kConverged) << out.solve.message;
  EXPECT_LE(out.solve.relative_residual, 1e-8);
  EXPECT_LE(out.solve.iterations, 1000);
  // The reported residual is the true one on the matrix as uploaded.
  EXPECT_DOUBLE_EQ(out.solve.relative_residual,
                   ComputeResidualNorms(*a, b, out.x).relative_residual);
}

INSTANTIATE_TEST_SUITE_P(
    Foundation, AcceptanceTest,
    ::testing::Values(Acceptance{"494_bus.mtx", "", true, Krylov::kCg},
                      Acceptance{"1138_bus.mtx", "", true, Krylov::kCg},
                      Acceptance{"bcsstk13.mtx", "", true, Krylov::kCg},
                      Acceptance{"resolve/A_spd01.mtx", "resolve/b_spd01.mtx",
                                 true, Krylov::kCg},
                      Acceptance{"resolve/A_symmetric01.mtx",
                                 "resolve/b_symmetric01.mtx", false,
                                 Krylov::kGmres},
                      Acceptance{"resolve/A_asymmetric01.mtx",
                                 "resolve/b_asymmetric01.mtx", false,
                                 Krylov::kGmres}),
    [](const auto& info) {
      std::string name = info.param.matrix;
      for (char& ch : name) {
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      }
      return name;
    });

}  // namespace
}  // namespace factord
