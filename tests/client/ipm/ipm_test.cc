// The IPM logic with the in-process dense KktSolver (LAPACK): tiny
// hand-made LPs/QPs with known optima, then small netlib LPs and
// Maros-Meszaros QPs against their published optima.
#include "client/ipm/ipm.h"

#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "client/ipm/dense_kkt_solver.h"
#include "client/ipm/mps_reader.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord::ipm {
namespace {

using test_support::DenseKktSolver;

double RelativeError(double value, double reference) {
  return std::abs(value - reference) / std::max(1.0, std::abs(reference));
}

IpmResult SolveText(const std::string& text, DenseKktSolver* kkt = nullptr) {
  absl::StatusOr<QpProblem> p = ParseMps(text);
  EXPECT_TRUE(p.ok()) << p.status();
  DenseKktSolver local;
  absl::StatusOr<IpmResult> r = SolveQp(*p, kkt ? *kkt : local, IpmOptions{});
  EXPECT_TRUE(r.ok()) << r.status();
  return *r;
}

TEST(IpmTest, BoxedLpWithFreeAndUpperOnlyColumns) {
  // max x + 2y - z  s.t. x + y <= 4, x - z = 1, 0 <= x <= 3, 0 <= y <= 2,
  // z free. With z = x - 1 the objective is 2y + 1, so y = 2 and the
  // optimum is 5 (x anywhere in [0, 2], z = x - 1).
  const std::string text =
      "NAME T\nOBJSENSE\n    MAX\nROWS\n N OBJ\n L C1\n E C2\nCOLUMNS\n"
      "    X OBJ 1 C1 1\n    X C2 1\n    Y OBJ 2 C1 1\n    Z OBJ -1 C2 -1\n"
      "RHS\n    RHS C1 4 C2 1\nBOUNDS\n UP BND X 3\n UP BND Y 2\n FR BND Z\n"
      "ENDATA\n";
  IpmResult r = SolveText(text);
  EXPECT_EQ(r.status, IpmStatus::kOptimal) << r.message;
  EXPECT_NEAR(r.objective, 5.0, 1e-7);
  EXPECT_NEAR(r.x[1], 2.0, 1e-6);
  EXPECT_NEAR(r.x[0] - r.x[2], 1.0, 1e-7);
}

TEST(IpmTest, RangedRowsFixedAndNegativeBounds) {
  // min x - y  s.t. -2 <= x + y <= 3 (range on an E row, R = -5 from 3),
  // x >= -1, y <= -0.5 (lower -inf by the UP rule), w fixed at 7 in the row.
  // x + y + w in [5, 10]  ->  x + y in [-2, 3].  min x - y: x = -1,
  // y = max(-2 - x, ...) -> y as large as allowed: y <= -0.5 and x + y <= 3:
  // y = -0.5. Objective -1 + 0.5 = -0.5.
  const std::string text =
      "NAME T\nROWS\n N OBJ\n E R\nCOLUMNS\n    X OBJ 1 R 1\n"
      "    Y OBJ -1 R 1\n    W R 1\nRHS\n    RHS R 10\nRANGES\n    RNG R -5\n"
      "BOUNDS\n LO BND X -1\n UP BND Y -0.5\n FX BND W 7\nENDATA\n";
  IpmResult r = SolveText(text);
  EXPECT_EQ(r.status, IpmStatus::kOptimal) << r.message;
  EXPECT_NEAR(r.objective, -0.5, 1e-7);
  EXPECT_NEAR(r.x[0], -1.0, 1e-6);
  EXPECT_NEAR(r.x[1], -0.5, 1e-6);
  EXPECT_EQ(r.x[2], 7.0);
}

TEST(IpmTest, ConvexQpWithOffDiagonalQ) {
  // min 1/2 (x^2 + 2xy + 2y^2) - x - y s.t. x + y >= 2... unconstrained
  // minimum at Q^{-1}(1,1) = (1, 0) violates x + y >= 2; on the line
  // y = 2 - x: f = 1/2 (x^2 + 2x(2-x) + 2(2-x)^2) - 2 = 1/2(x^2 - 4x + 8) - 2
  // minimized at x = 2, y = 0: f = 1/2 (4) - 2 = 0.
  const std::string text =
      "NAME Q\nROWS\n N OBJ\n G C\nCOLUMNS\n    X OBJ -1 C 1\n"
      "    Y OBJ -1 C 1\nRHS\n    RHS C 2\nBOUNDS\n FR BND X\n FR BND Y\n"
      "QUADOBJ\n    X X 1\n    X Y 1\n    Y Y 2\nENDATA\n";
  IpmResult r = SolveText(text);
  EXPECT_EQ(r.status, IpmStatus::kOptimal) << r.message;
  EXPECT_NEAR(r.objective, 0.0, 1e-7);
  EXPECT_NEAR(r.x[0], 2.0, 1e-5);
  EXPECT_NEAR(r.x[1], 0.0, 1e-5);
}

TEST(IpmTest, OneFactorizationAndTwoSolvesPerIteration) {
  absl::StatusOr<QpProblem> p =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(p.ok()) << p.status();
  DenseKktSolver kkt;
  int iterations = 0;
  int64_t max_bytes = 0;
  int64_t nnz = 0, dim = 0;
  absl::StatusOr<IpmResult> r =
      SolveQp(*p, kkt, IpmOptions{}, [&](const IterationLog& log) {
        if (log.iteration == 0) return;
        ++iterations;
        EXPECT_EQ(log.factorizations, 1);  // quasi-definite: no retries
        EXPECT_TRUE(log.analysis_reused);
        max_bytes = std::max(max_bytes, log.bytes_sent);
      });
  ASSERT_TRUE(r.ok()) << r.status();
  nnz = r->kkt_nnz, dim = r->kkt_dim;
  EXPECT_EQ(r->status, IpmStatus::kOptimal);
  EXPECT_EQ(kkt.set_values_calls, iterations + 1);
  EXPECT_EQ(kkt.factorizations, iterations + 1);
  // Values once, two right-hand sides: exactly 8 nnz + 16 dim here.
  EXPECT_EQ(max_bytes, 8 * nnz + 16 * dim);
}

// Records how the IPM drives the seam: per iteration one FactorizeAndSolve
// with new values and the predictor's right-hand side, then one Solve (the
// corrector), so that a remote solver needs two round trips.
class RecordingSolver : public DenseKktSolver {
 public:
  absl::StatusOr<KktStepReport> FactorizeAndSolve(
      const SymmetricLowerCsr* kkt, const DiagonalShift& shift,
      std::vector<std::vector<double>>& rhs) override {
    calls.push_back(kkt != nullptr ? 'V' : 'F');
    rhs_counts.push_back(static_cast<int>(rhs.size()));
    inside_step_ = true;  // the base solves through Solve below
    absl::StatusOr<KktStepReport> r =
        DenseKktSolver::FactorizeAndSolve(kkt, shift, rhs);
    inside_step_ = false;
    return r;
  }
  absl::StatusOr<KktSolveReport> Solve(
      std::vector<std::vector<double>>& rhs) override {
    if (!inside_step_) {
      calls.push_back('S');
      rhs_counts.push_back(static_cast<int>(rhs.size()));
    }
    return DenseKktSolver::Solve(rhs);
  }

  std::string calls;  // V: with values, F: without, S: a separate Solve
  std::vector<int> rhs_counts;

 private:
  bool inside_step_ = false;
};

TEST(IpmTest, IterationIsOneFactorizeAndSolveThenOneSolve) {
  absl::StatusOr<QpProblem> p =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(p.ok()) << p.status();
  RecordingSolver kkt;
  absl::StatusOr<IpmResult> r = SolveQp(*p, kkt, IpmOptions{});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->status, IpmStatus::kOptimal);
  ASSERT_GT(r->iterations, 2);
  // Starting point: values with both right-hand sides (b, c); then per
  // iteration: values with the predictor, the corrector alone.
  std::string expected = "V";
  std::vector<int> counts = {2};
  for (int k = 0; k < r->iterations; ++k) {
    expected += "VS";
    counts.push_back(1);
    counts.push_back(1);
  }
  EXPECT_EQ(kkt.calls, expected);
  EXPECT_EQ(kkt.rhs_counts, counts);
}

// Raises the shifts: a solver that reports a wrong inertia until the shift
// is at least 1e-6 must see Factorize called again without SetValues.
class StubbornSolver : public DenseKktSolver {
 public:
  absl::StatusOr<KktFactorReport> Factorize(
      const DiagonalShift& shift) override {
    absl::StatusOr<KktFactorReport> r = DenseKktSolver::Factorize(shift);
    if (r.ok() && shift.shift_rest < 0.9e-6) r->negative -= 1, r->zero += 1;
    ++calls;
    return r;
  }
  int calls = 0;
};

TEST(IpmTest, WrongInertiaRaisesShiftsWithoutResendingValues) {
  absl::StatusOr<QpProblem> p =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(p.ok()) << p.status();
  StubbornSolver kkt;
  double max_shift = 0;
  int iterations = 0;
  absl::StatusOr<IpmResult> r =
      SolveQp(*p, kkt, IpmOptions{}, [&](const IterationLog& log) {
        max_shift = std::max(max_shift, log.shift);
        EXPECT_GE(log.shift, 0.9e-6);
        ++iterations;
      });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GE(max_shift, 0.9e-6);
  EXPECT_GT(kkt.calls, kkt.set_values_calls);  // refactorized in place
  EXPECT_EQ(kkt.set_values_calls, iterations);
  // Shifts up to 1e-5 only perturb the Newton steps; the IPM still converges.
  EXPECT_EQ(r->status, IpmStatus::kOptimal) << r->message;
  EXPECT_LT(RelativeError(r->objective, -4.6475314286E+02), 1e-6);
}

// Without shifts (method lu takes none) the regularization goes into the
// values: a solver that reports a singular factor while the (2,2) diagonal is
// below 1e-6 must receive new values with a larger regularization.
class SingularUntilRegularized : public DenseKktSolver {
 public:
  absl::Status SetValues(const SymmetricLowerCsr& kkt) override {
    last_diagonal_ = kkt.values.back();  // the last row ends in its diagonal
    return DenseKktSolver::SetValues(kkt);
  }
  absl::StatusOr<KktFactorReport> Factorize(
      const DiagonalShift& shift) override {
    EXPECT_EQ(shift.shift_first, 0.0);
    EXPECT_EQ(shift.shift_rest, 0.0);
    absl::StatusOr<KktFactorReport> r = DenseKktSolver::Factorize(shift);
    if (r.ok()) r->ok = last_diagonal_ >= 0.9e-6, r->inertia_known = false;
    return r;
  }

 private:
  double last_diagonal_ = 0;
};

TEST(IpmTest, WithoutShiftsRegularizationIsResentInValues) {
  absl::StatusOr<QpProblem> p =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(p.ok()) << p.status();
  SingularUntilRegularized kkt;
  IpmOptions options;
  options.regularization_in_shifts = false;
  int iterations = 0;
  absl::StatusOr<IpmResult> r =
      SolveQp(*p, kkt, options, [&](const IterationLog& log) {
        ++iterations;
        EXPECT_GE(log.shift, 0.9e-6);
      });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(kkt.set_values_calls, iterations);  // values re-sent on retries
  EXPECT_EQ(r->status, IpmStatus::kOptimal) << r->message;
  EXPECT_LT(RelativeError(r->objective, -4.6475314286E+02), 1e-6);
}

std::map<std::string, double> Optima(const std::string& set) {
  std::map<std::string, double> optima;
  std::ifstream table(testing::TestDataPath(set + "/optimal.tsv"));
  std::string line;
  std::getline(table, line);
  while (std::getline(table, line)) {
    const std::string name = line.substr(0, line.find('\t'));
    optima[name] = std::stod(line.substr(line.rfind('\t') + 1));
  }
  return optima;
}

TEST(IpmTest, SmallNetlibLpsReachPublishedOptima) {
  std::map<std::string, double> optima = Optima("lp");
  for (const char* name : {"afiro", "sc50a", "sc50b", "blend", "kb2",
                           "adlittle", "share2b", "recipe"}) {
    absl::StatusOr<QpProblem> p = ReadMpsFile(
        testing::TestDataPath(std::string("lp/") + name + ".mps.gz"));
    ASSERT_TRUE(p.ok()) << p.status();
    ASSERT_EQ(optima.count(name), 1u) << name << " has no published optimum";
    DenseKktSolver kkt;
    absl::StatusOr<IpmResult> r = SolveQp(*p, kkt, IpmOptions{});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->status, IpmStatus::kOptimal) << name << " " << r->message;
    EXPECT_LT(RelativeError(r->objective, optima[name]), 1e-6)
        << name << " " << r->objective << " vs " << optima[name];
    // The objective is recomputed from the recovered original columns.
    EXPECT_NEAR(p->Objective(r->x), r->objective,
                1e-9 * std::max(1.0, std::abs(r->objective)));
  }
}

TEST(IpmTest, SmallMarosMeszarosQpsReachPublishedOptima) {
  std::map<std::string, double> optima = Optima("qp");
  for (const char* name : {"HS21", "HS35", "HS51", "HS53", "GENHS28", "QAFIRO",
                           "QPTEST", "TAME", "DUALC1", "LOTSCHD"}) {
    absl::StatusOr<QpProblem> p =
        ReadMpsFile(testing::TestDataPath(std::string("qp/") + name + ".SIF"));
    ASSERT_TRUE(p.ok()) << p.status();
    ASSERT_EQ(optima.count(name), 1u) << name << " has no published optimum";
    DenseKktSolver kkt;
    absl::StatusOr<IpmResult> r = SolveQp(*p, kkt, IpmOptions{});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->status, IpmStatus::kOptimal) << name << " " << r->message;
    EXPECT_LT(RelativeError(r->objective, optima[name]), 1e-6)
        << name << " " << r->objective << " vs " << optima[name];
  }
}

TEST(IpmTest, InfeasibleBoundsAreAnError) {
  absl::StatusOr<QpProblem> p = ParseMps(
      "NAME\nROWS\n N OBJ\nCOLUMNS\n    X OBJ 1\nBOUNDS\n LO B X 2\n"
      " UP B X 1\nENDATA\n");
  ASSERT_TRUE(p.ok());
  DenseKktSolver kkt;
  EXPECT_EQ(SolveQp(*p, kkt, IpmOptions{}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(IpmTest, InfeasibleAndUnboundedLpsAreFlagged) {
  // x + y <= -1 with x, y >= 0: infeasible.
  IpmResult infeasible = SolveText(
      "NAME INF\nROWS\n N OBJ\n L R1\nCOLUMNS\n    X OBJ 1 R1 1\n"
      "    Y OBJ 1 R1 1\nRHS\n    RHS R1 -1\nENDATA\n");
  EXPECT_EQ(infeasible.status, IpmStatus::kInfeasibleOrUnbounded);
  EXPECT_LT(infeasible.iterations, 50);
  // min -x + y with x + y >= 1, x, y >= 0: unbounded.
  IpmResult unbounded = SolveText(
      "NAME UNB\nROWS\n N OBJ\n G R1\nCOLUMNS\n    X OBJ -1 R1 1\n"
      "    Y OBJ 1 R1 1\nRHS\n    RHS R1 1\nENDATA\n");
  EXPECT_EQ(unbounded.status, IpmStatus::kInfeasibleOrUnbounded);
  EXPECT_LT(unbounded.iterations, 50);
}

TEST(IpmTest, ProblemsWithoutRowsOrWithAllColumnsFixed) {
  // No rows: min x with x >= 0 (KKT of dimension 1, m = 0).
  IpmResult no_rows =
      SolveText("NAME\nROWS\n N OBJ\nCOLUMNS\n    X OBJ 1\nENDATA\n");
  EXPECT_EQ(no_rows.status, IpmStatus::kOptimal) << no_rows.message;
  EXPECT_NEAR(no_rows.objective, 0.0, 1e-7);
  // Every column fixed: nothing to factorize.
  DenseKktSolver kkt;
  IpmResult fixed = SolveText(
      "NAME\nROWS\n N OBJ\n E R\nCOLUMNS\n    X OBJ 2 R 1\nRHS\n"
      "    RHS R 3\nBOUNDS\n FX B X 3\nENDATA\n",
      &kkt);
  EXPECT_EQ(fixed.status, IpmStatus::kOptimal);
  EXPECT_EQ(fixed.objective, 6.0);
  EXPECT_EQ(kkt.factorizations, 0);
  IpmResult violated = SolveText(
      "NAME\nROWS\n N OBJ\n E R\nCOLUMNS\n    X OBJ 2 R 1\nRHS\n"
      "    RHS R 4\nBOUNDS\n FX B X 3\nENDATA\n");
  EXPECT_EQ(violated.status, IpmStatus::kInfeasibleOrUnbounded);
}

TEST(IpmTest, MaxIterationsIsReported) {
  absl::StatusOr<QpProblem> p =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(p.ok()) << p.status();
  DenseKktSolver kkt;
  IpmOptions options;
  options.max_iterations = 2;
  absl::StatusOr<IpmResult> r = SolveQp(*p, kkt, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, IpmStatus::kMaxIterations);
  EXPECT_EQ(r->iterations, 2);
}

}  // namespace
}  // namespace factord::ipm
