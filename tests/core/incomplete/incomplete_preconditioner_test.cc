// The ic/ilu preconditioner's triangular solves (S4 §2.1) on 494_bus with
// IC(0): more Jacobi or block-Jacobi sweeps bring M^{-1} r closer to the
// exact solves; block-Jacobi with blocks of 1 is scalar Jacobi; the
// reference and cpu backends agree bit for bit.
#include "core/incomplete/incomplete_preconditioner.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/incomplete/incomplete_numeric.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/methods.h"
#include "gtest/gtest.h"
#include "test_data.h"

namespace factord::internal {
namespace {

class IncompletePreconditionerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto a = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
    ASSERT_TRUE(a.ok()) << a.status();
    a_ = *std::move(a);
    FactorOptions o;
    o.method = Method::kIc;
    o.fill_level = 0;
    auto analysis = AnalyzeIncomplete(a_, o, ExecContext{});
    ASSERT_TRUE(analysis.ok()) << analysis.status();
    analysis_ = std::dynamic_pointer_cast<const IncompleteAnalysis>(*analysis);
    ASSERT_NE(analysis_, nullptr);
    const CsrMatrix permuted =
        PermuteSymmetric(ExpandSymmetric(a_), analysis_->perm());
    auto values = FactorIncompleteValues(analysis_->pattern(), permuted,
                                         /*ic=*/true, ExecContext{});
    ASSERT_TRUE(values.ok()) << values.status();
    lu_ = values->lu;
    r_.resize(a_.rows);
    for (int64_t i = 0; i < a_.rows; ++i) r_[i] = std::sin(0.7 * i) + 0.1;
    exact_ = Apply({TriangularSolve::kExact, 0, 12});
  }

  std::vector<double> Apply(const IncompleteSolveOptions& o,
                            const ExecContext& ctx = ExecContext{}) {
    auto m = IncompletePreconditioner::Create(analysis_, lu_, {}, o, ctx);
    EXPECT_TRUE(m.ok()) << m.status();
    std::vector<double> z(a_.rows, NAN);
    if (m.ok()) (*m)->Apply(ctx, r_, z);
    return z;
  }

  // ||z - exact|| / ||exact||.
  double Error(const std::vector<double>& z) const {
    double num = 0, den = 0;
    for (size_t i = 0; i < z.size(); ++i) {
      num += (z[i] - exact_[i]) * (z[i] - exact_[i]);
      den += exact_[i] * exact_[i];
    }
    return std::sqrt(num / den);
  }

  CsrMatrix a_;
  std::shared_ptr<const IncompleteAnalysis> analysis_;
  std::vector<double> lu_, r_, exact_;
};

TEST_F(IncompletePreconditionerTest, MoreSweepsComeCloserToExact) {
  for (TriangularSolve t :
       {TriangularSolve::kJacobi, TriangularSolve::kBlockJacobi}) {
    std::vector<double> errors;
    for (int sweeps : {0, 2, 5, 10, 20, 40}) {
      errors.push_back(Error(Apply({t, sweeps, 12})));
      RecordProperty(
          absl::StrCat(t == TriangularSolve::kJacobi ? "j" : "bj", sweeps),
          absl::StrCat(errors.back()));
    }
    for (size_t k = 1; k < errors.size(); ++k) {
      if (errors[k - 1] > 1e-13) {
        EXPECT_LT(errors[k], errors[k - 1]) << "step " << k;
      } else {  // already exact to rounding
        EXPECT_LE(errors[k], 1e-13) << "step " << k;
      }
    }
    EXPECT_LT(errors.back(), 1e-3 * errors.front());
  }
}

TEST_F(IncompletePreconditionerTest, BlocksOfOneAreScalarJacobi) {
  for (int sweeps : {0, 3}) {
    const std::vector<double> scalar =
        Apply({TriangularSolve::kJacobi, sweeps, 12});
    const std::vector<double> blocks_of_one =
        Apply({TriangularSolve::kBlockJacobi, sweeps, 1});
    double diff = 0, norm = 0;
    for (size_t i = 0; i < scalar.size(); ++i) {
      diff = std::max(diff, std::abs(scalar[i] - blocks_of_one[i]));
      norm = std::max(norm, std::abs(scalar[i]));
    }
    EXPECT_LE(diff, 1e-13 * norm) << sweeps;  // 1/d b vs b/d rounding only
  }
}

TEST_F(IncompletePreconditionerTest, BlockJacobiBeatsScalarAtEqualSweeps) {
  // Larger diagonal blocks capture more of each triangle (S4 §2.1); on
  // 494_bus after RCM the blocks of 12 hold a good part of the couplings.
  for (int sweeps : {1, 2, 5}) {
    EXPECT_LT(Error(Apply({TriangularSolve::kBlockJacobi, sweeps, 12})),
              Error(Apply({TriangularSolve::kJacobi, sweeps, 12})))
        << sweeps;
  }
}

TEST_F(IncompletePreconditionerTest, CpuEqualsReference) {
  ExecContext reference;
  reference.backend = Backend::kReference;
  for (TriangularSolve t : {TriangularSolve::kExact, TriangularSolve::kJacobi,
                            TriangularSolve::kBlockJacobi}) {
    const std::vector<double> ref = Apply({t, 4, 12}, reference);
    for (int threads : {1, 2}) {
      ExecContext cpu;
      cpu.threads = threads;
      EXPECT_EQ(Apply({t, 4, 12}, cpu), ref) << static_cast<int>(t);
    }
  }
}

TEST_F(IncompletePreconditionerTest, RefusesBadOptions) {
  auto m = IncompletePreconditioner::Create(
      analysis_, lu_, {}, {TriangularSolve::kBlockJacobi, 2, 33},
      ExecContext{});
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  m = IncompletePreconditioner::Create(
      analysis_, lu_, {}, {TriangularSolve::kJacobi, -1, 12}, ExecContext{});
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  m = IncompletePreconditioner::Create(
      analysis_, {1.0}, {}, {TriangularSolve::kExact, 0, 12}, ExecContext{});
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace factord::internal
