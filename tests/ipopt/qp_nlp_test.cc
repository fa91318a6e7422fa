#include "ipopt/qp_nlp.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "client/ipm/mps_reader.h"
#include "nlp_checks.h"
#include "test_data.h"

namespace factord::ipopt {
namespace {

// 1/2 (2 x0^2 + 2 x0 x1 + 4 x1^2) + x0 - x1 + 3, one row x0 + x1 in [1, 2].
ipm::QpProblem SmallQp(bool maximize) {
  ipm::QpProblem qp;
  qp.maximize = maximize;
  qp.row_names = {"r"};
  qp.col_names = {"x0", "x1"};
  qp.c = {1.0, -1.0};
  qp.objective_constant = 3.0;
  qp.a = {1, 2, {0, 1, 2}, {0, 0}, {1.0, 1.0}};
  qp.q = {2, 2, {0, 2, 3}, {0, 1, 1}, {2.0, 1.0, 4.0}};
  qp.row_lower = {1.0};
  qp.row_upper = {2.0};
  const double inf = std::numeric_limits<double>::infinity();
  qp.col_lower = {-inf, 0.0};
  qp.col_upper = {inf, 5.0};
  qp.is_integer = {false, false};
  return qp;
}

TEST(QpNlp, ObjectiveAndDerivatives) {
  QpNlp nlp(SmallQp(false), "small");
  const std::vector<double> x = {0.5, -2.0};
  // 1/2 (0.5 - 2 + 16) + 0.5 + 2 + 3
  EXPECT_DOUBLE_EQ(nlp.Objective(x.data()), 0.5 * 14.5 + 5.5);
  testing::ExpectPatternsWellFormed(nlp);
  testing::ExpectDerivativesMatch(nlp, x, 0.8, {1.7});
}

TEST(QpNlp, MaximizationIsPosedAsMinimizingTheNegative) {
  QpNlp nlp(SmallQp(true), "small_max");
  const std::vector<double> x = {1.0, 1.0};
  const double f = nlp.Objective(x.data());
  EXPECT_DOUBLE_EQ(f, -(0.5 * 8.0 + 3.0));
  EXPECT_DOUBLE_EQ(nlp.SourceObjective(f), 7.0);
  testing::ExpectDerivativesMatch(nlp, x, 1.0, {0.0});
}

TEST(QpNlp, StartIsZeroProjectedOntoTheBounds) {
  ipm::QpProblem qp = SmallQp(false);
  qp.col_lower[1] = 0.5;
  QpNlp nlp(std::move(qp), "shifted");
  EXPECT_EQ(nlp.StartingPoint(), (std::vector<double>{0.0, 0.5}));
}

TEST(QpNlp, BundledQpHasTheReadersSizesAndPatterns) {
  absl::StatusOr<ipm::QpProblem> qp =
      ipm::ReadMpsFile(factord::testing::TestDataPath("qp/QPTEST.SIF"));
  ASSERT_TRUE(qp.ok()) << qp.status();
  const int n = qp->num_cols(), m = qp->num_rows();
  const int64_t a_nnz = qp->a.nnz(), q_nnz = qp->q.nnz();
  QpNlp nlp(*std::move(qp), "QPTEST");
  EXPECT_EQ(nlp.num_variables(), n);
  EXPECT_EQ(nlp.num_constraints(), m);
  EXPECT_EQ(nlp.JacobianPattern().nnz(), a_nnz);
  EXPECT_EQ(nlp.HessianPattern().nnz(), q_nnz);
  testing::ExpectPatternsWellFormed(nlp);
  testing::ExpectDerivativesMatch(nlp, std::vector<double>(n, 0.3), 1.0,
                                  std::vector<double>(m, -0.5));
}

}  // namespace
}  // namespace factord::ipopt
