// Method lu exists only in builds with UMFPACK (FACTORD_WITH_UMFPACK, a
// GPL-2+ library). Either way a user gets a working answer: lu itself, or a
// FailedPrecondition that names the build option, with `auto` choosing ilu
// for unsymmetric matrices. The sanitizer builds run without UMFPACK, the
// normal build with it, so CI checks both branches.
#include <memory>

#include "core/matrix/csr.h"
#include "core/solver/solver.h"
#include "gtest/gtest.h"

namespace factord {
namespace {

// [[4, 1], [0, 3]]: unsymmetric, general storage.
CsrMatrix Unsymmetric() {
  CsrMatrix a;
  a.rows = a.cols = 2;
  a.structure = Structure::kGeneral;
  a.row_ptr = {0, 2, 3};
  a.col_idx = {0, 1, 1};
  a.values = {4, 1, 3};
  return a;
}

TEST(LuAvailability, LuOrAClearRefusalAndAutoStillSolves) {
  const CsrMatrix a = Unsymmetric();
  FactorOptions lu;
  lu.method = Method::kLu;
  absl::StatusOr<std::shared_ptr<const Analysis>> analysis =
      Analyze(a, lu, ExecContext{});
  if (LuAvailable()) {
    EXPECT_TRUE(analysis.ok()) << analysis.status();
    EXPECT_EQ(ResolveMethod(a, Method::kAuto), Method::kLu);
  } else {
    ASSERT_EQ(analysis.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_NE(analysis.status().message().find("FACTORD_WITH_UMFPACK"),
              absl::string_view::npos)
        << analysis.status();
    EXPECT_EQ(ResolveMethod(a, Method::kAuto), Method::kIlu);
  }
  // Whatever auto picks solves the system: x = (1, 1) for b = (5, 3).
  FactorOptions automatic;
  automatic.method = ResolveMethod(a, Method::kAuto);
  auto shared = std::make_shared<const CsrMatrix>(a);
  absl::StatusOr<std::shared_ptr<const Analysis>> chosen =
      Analyze(a, automatic, ExecContext{});
  ASSERT_TRUE(chosen.ok()) << chosen.status();
  absl::StatusOr<std::shared_ptr<const Factorization>> f =
      Factorize(shared, *chosen, automatic, ExecContext{});
  ASSERT_TRUE(f.ok()) << f.status();
  std::vector<double> b = {5, 3}, x(2, 0.0);
  SolveReport report;
  ASSERT_TRUE((*f)->Solve(b, x, SolveOptions{}, ExecContext{}, &report).ok());
  EXPECT_NEAR(x[0], 1.0, 1e-8);
  EXPECT_NEAR(x[1], 1.0, 1e-8);
}

}  // namespace
}  // namespace factord
