// RunIpopt with Ipopt's own MUMPS (no daemon): the factord side of the same
// runs is in compare_solvers.py (ipopt.* ctest entries).
#include "ipopt/ipopt_run.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "client/ipm/mps_reader.h"
#include "ipopt/nonconvex_chain.h"
#include "ipopt/poisson_control.h"
#include "ipopt/qp_nlp.h"
#include "test_data.h"

namespace factord::ipopt {
namespace {

TEST(RunIpopt, SolvesABundledQpToItsPublishedOptimum) {
  absl::StatusOr<ipm::QpProblem> qp =
      ipm::ReadMpsFile(factord::testing::TestDataPath("qp/HS21.SIF"));
  ASSERT_TRUE(qp.ok()) << qp.status();
  absl::StatusOr<IpoptOutcome> outcome =
      RunIpopt(QpNlp(*std::move(qp), "HS21"), IpoptSettings{});
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(Solved(outcome->status)) << outcome->status_name;
  EXPECT_NEAR(outcome->objective, -99.96, 1e-6);
  EXPECT_GT(outcome->iterations, 0);
  EXPECT_EQ(outcome->regularized_iterations, 0);  // a convex QP
}

TEST(RunIpopt, NonconvexChainNeedsInertiaCorrectionAndConverges) {
  absl::StatusOr<IpoptOutcome> outcome =
      RunIpopt(NonconvexChain(8), IpoptSettings{});
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(outcome->status_name, "Solve_Succeeded");
  EXPECT_GT(outcome->regularized_iterations, 0);
  EXPECT_GT(outcome->max_regularization, 0.0);
  EXPECT_LT(outcome->regularized_iterations, outcome->iterations);
}

TEST(RunIpopt, ExtraOptionsReachIpopt) {
  IpoptSettings settings;
  settings.options = {{"max_iter", "3"}};
  absl::StatusOr<IpoptOutcome> outcome = RunIpopt(NonconvexChain(8), settings);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(outcome->status_name, "Maximum_Iterations_Exceeded");
  EXPECT_EQ(outcome->iterations, 3);
  EXPECT_FALSE(Solved(outcome->status));
}

TEST(RunIpopt, UnknownLinearSolverIsRefused) {
  IpoptSettings settings;
  settings.linear_solver = "no_such_solver";
  EXPECT_FALSE(RunIpopt(NonconvexChain(8), settings).ok());
}

TEST(RunIpopt, HoldWaitsForTheFileToGo) {
  const std::string hold = (std::filesystem::temp_directory_path() /
                            ("factord-ipopt-hold-" + std::to_string(getpid())))
                               .string();
  IpoptSettings settings;
  settings.hold_at_iteration = 2;
  settings.hold_file = hold;
  std::thread releaser([&] {
    while (!std::filesystem::exists(hold)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::filesystem::remove(hold);
  });
  absl::StatusOr<IpoptOutcome> outcome = RunIpopt(PoissonControl(6), settings);
  releaser.join();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(Solved(outcome->status));
  EXPECT_GE(outcome->solve_seconds, 0.2);
}

TEST(StatusName, NamesIpoptsCodes) {
  EXPECT_EQ(StatusName(0), "Solve_Succeeded");
  EXPECT_EQ(StatusName(-3), "Error_In_Step_Computation");
  EXPECT_EQ(StatusName(12345), "Status_12345");
}

}  // namespace
}  // namespace factord::ipopt
