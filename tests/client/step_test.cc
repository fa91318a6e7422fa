// The Step RPC (one interior-point iteration in one round trip) through the
// client library against a real in-process factord: it gives the same
// factorization and solutions as UpdateValues + Factorize + Solve, a
// retried Step is applied once, a per-entry diagonal shift equals the same
// scalar shift, and the pivot threshold is an option with a checked range.
#include <memory>
#include <string>
#include <vector>

#include "client/factord_client.h"
#include "client/matrix_arrays.h"
#include "client/status_details.h"
#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "server/config.h"
#include "server/server.h"
#include "server/service_fixture.h"
#include "test_data.h"

namespace factord::client {
namespace {

class StepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server::ServerConfig config;
    config.listen = "127.0.0.1:0";
    config.metrics_listen = "";
    config.threads = 1;
    config.workers = 2;
    absl::StatusOr<std::unique_ptr<server::Server>> s =
        server::Server::Start(config);
    ASSERT_TRUE(s.ok()) << s.status();
    server_ = *std::move(s);
    ConnectOptions options;
    options.max_chunk_bytes = 4096;  // many chunks of values and vectors
    options.rpc_timeout = absl::Seconds(120);
    absl::StatusOr<std::unique_ptr<Client>> c = Client::Connect(
        "127.0.0.1:" + std::to_string(server_->port()), options);
    ASSERT_TRUE(c.ok()) << c.status();
    client_ = *std::move(c);
    // Two iterations of one QP's KKT system: one pattern, new values.
    const std::string dir = "kkt/cvxqp1_s/2x2/";
    absl::StatusOr<CsrMatrix> k0 =
        ReadMatrixMarket(testing::TestDataPath(dir + "iter_0/K_0.mtx"));
    absl::StatusOr<CsrMatrix> k10 =
        ReadMatrixMarket(testing::TestDataPath(dir + "iter_10/K_10.mtx"));
    absl::StatusOr<std::vector<double>> b =
        ReadDenseVector(testing::TestDataPath(dir + "iter_10/rhs_10.rhs"));
    ASSERT_TRUE(k0.ok() && k10.ok() && b.ok());
    ASSERT_EQ(k0->col_idx, k10->col_idx);
    k0_ = *std::move(k0);
    k10_ = *std::move(k10);
    b_ = *std::move(b);
    ones_.assign(b_.size(), 1.0);
  }

  std::vector<std::span<const double>> Rhs() const { return {b_, ones_}; }

  static FactorizeOptions Ldlt() {
    FactorizeOptions o;
    o.method = "ldlt";
    o.deterministic = true;
    return o;
  }

  std::unique_ptr<server::Server> server_;
  std::unique_ptr<Client> client_;
  CsrMatrix k0_, k10_;
  std::vector<double> b_, ones_;
};

TEST_F(StepTest, OneRoundTripEqualsTheThreeCalls) {
  ASSERT_TRUE(client_->Upload(ArraysOf(k0_), "fused").ok());
  ASSERT_TRUE(client_->Upload(ArraysOf(k0_), "three").ok());
  ASSERT_TRUE(client_->Factorize("fused", Ldlt()).ok());  // the analysis

  StepOptions step;
  step.factorize = Ldlt();
  step.factorize.expected_generation = 1;
  absl::StatusOr<StepResult> fused =
      client_->Step("fused", k10_.values, Rhs(), step);
  ASSERT_TRUE(fused.ok()) << fused.status();
  EXPECT_EQ(fused->factorization.generation, 2u);
  EXPECT_TRUE(fused->factorization.analysis_reused);
  EXPECT_EQ(fused->factorization.method, "ldlt");

  ASSERT_TRUE(client_->UpdateValues("three", k10_.values).ok());
  absl::StatusOr<FactorizeResult> f = client_->Factorize("three", Ldlt());
  ASSERT_TRUE(f.ok()) << f.status();
  std::vector<std::span<const double>> rhs = Rhs();
  absl::StatusOr<std::vector<SolveResult>> x =
      client_->Solve("three", std::span<const std::span<const double>>(rhs));
  ASSERT_TRUE(x.ok()) << x.status();

  EXPECT_EQ(fused->factorization.inertia.positive, f->inertia.positive);
  EXPECT_EQ(fused->factorization.inertia.negative, f->inertia.negative);
  EXPECT_EQ(fused->factorization.inertia.zero, f->inertia.zero);
  EXPECT_EQ(fused->factorization.nnz_factor, f->nnz_factor);
  ASSERT_EQ(fused->solutions.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(fused->solutions[k].x, (*x)[k].x) << k;  // bit for bit
    EXPECT_EQ(fused->solutions[k].status, "converged");
    EXPECT_LT(fused->solutions[k].backward_error, 1e-12);
  }
}

TEST_F(StepTest, OneMessageEachWayEqualsTheStream) {
  // The fixture's client sends 4 KiB chunks, so its Steps stream; a client
  // whose chunk holds the whole request uses StepUnary.
  ConnectOptions options;
  options.rpc_timeout = absl::Seconds(120);
  absl::StatusOr<std::unique_ptr<Client>> unary =
      Client::Connect("127.0.0.1:" + std::to_string(server_->port()), options);
  ASSERT_TRUE(unary.ok()) << unary.status();
  ASSERT_TRUE(client_->Upload(ArraysOf(k0_), "streamed").ok());
  ASSERT_TRUE((*unary)->Upload(ArraysOf(k0_), "unary").ok());
  StepOptions step;
  step.factorize = Ldlt();
  step.factorize.expected_generation = 1;
  step.factorize.shift_rest = 1e-8;
  const std::vector<double> d(k10_.rows, 1e-6);
  step.diagonal_shift = d;
  // The daemon logs each request's RPC before it answers.
  ::testing::internal::CaptureStderr();
  absl::StatusOr<StepResult> a =
      client_->Step("streamed", k10_.values, Rhs(), step);
  absl::StatusOr<StepResult> b =
      (*unary)->Step("unary", k10_.values, Rhs(), step);
  const std::string log = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_NE(log.find("rpc=Step matrix=streamed"), std::string::npos) << log;
  EXPECT_NE(log.find("rpc=StepUnary matrix=unary"), std::string::npos) << log;
  EXPECT_EQ(b->factorization.generation, 2u);
  EXPECT_EQ(a->factorization.inertia.negative,
            b->factorization.inertia.negative);
  ASSERT_EQ(b->solutions.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(a->solutions[k].x, b->solutions[k].x) << k;
    EXPECT_EQ(a->solutions[k].status, b->solutions[k].status) << k;
  }
  // A retried unary Step is refused like a streamed one.
  absl::StatusOr<StepResult> again =
      (*unary)->Step("unary", k10_.values, Rhs(), step);
  EXPECT_EQ(ErrorReason(again.status()), "GENERATION_MISMATCH");
  // And its bad input names the problem.
  const std::vector<double> short_d(k10_.rows - 1, 1e-6);
  step.diagonal_shift = short_d;
  step.factorize.expected_generation = 2;
  absl::StatusOr<StepResult> bad = (*unary)->Step("unary", {}, Rhs(), step);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorReason(bad.status()), "INVALID_MATRIX");
}

// A Step that only factorizes (PARDISO's phase 22 does): no right-hand
// sides, on a system large enough for the side-by-side solves.
TEST_F(StepTest, FactorizeOnlyStepOnALargeSystem) {
  const int64_t n = 6000;
  const CsrMatrix a = server::testing::Tridiagonal(n, /*lower=*/true);
  ConnectOptions options;
  options.rpc_timeout = absl::Seconds(120);
  absl::StatusOr<std::unique_ptr<Client>> unary =
      Client::Connect("127.0.0.1:" + std::to_string(server_->port()), options);
  ASSERT_TRUE(unary.ok()) << unary.status();
  for (Client* c : {client_.get(), unary->get()}) {  // streamed, then unary
    const std::string id = c == client_.get() ? "streamed" : "unary";
    ASSERT_TRUE(c->Upload(ArraysOf(a), id).ok());
    StepOptions step;
    step.factorize = Ldlt();
    absl::StatusOr<StepResult> r = c->Step(id, a.values, {}, step);
    ASSERT_TRUE(r.ok()) << id << ": " << r.status();
    EXPECT_EQ(r->factorization.inertia.positive, n) << id;
    EXPECT_TRUE(r->solutions.empty()) << id;
  }
}

TEST_F(StepTest, ARetriedStepIsAppliedOnce) {
  ASSERT_TRUE(client_->Upload(ArraysOf(k0_), "m").ok());
  StepOptions step;
  step.factorize = Ldlt();
  step.factorize.expected_generation = 1;
  ASSERT_TRUE(client_->Step("m", k10_.values, Rhs(), step).ok());
  // The same Step again, as a client whose reply was lost would send it.
  absl::StatusOr<StepResult> again =
      client_->Step("m", k10_.values, Rhs(), step);
  EXPECT_EQ(again.status().code(), absl::StatusCode::kAborted);
  EXPECT_EQ(ErrorReason(again.status()), "GENERATION_MISMATCH");
  absl::StatusOr<MatrixInfo> info = client_->GetMatrix("m");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->generation, 2u);
  // Without new values a Step refactorizes and solves what is held.
  step.factorize.expected_generation = 2;
  absl::StatusOr<StepResult> same = client_->Step("m", {}, Rhs(), step);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(same->factorization.generation, 2u);
}

TEST_F(StepTest, DiagonalShiftVectorEqualsTheScalarShift) {
  ASSERT_TRUE(client_->Upload(ArraysOf(k0_), "m").ok());
  StepOptions scalar;
  scalar.factorize = Ldlt();
  scalar.factorize.shift_rest = 1e-4;
  absl::StatusOr<StepResult> a = client_->Step("m", k10_.values, Rhs(), scalar);
  ASSERT_TRUE(a.ok()) << a.status();
  const std::vector<double> d(k10_.rows, 1e-4);
  StepOptions vector;
  vector.factorize = Ldlt();
  vector.diagonal_shift = d;
  absl::StatusOr<StepResult> b = client_->Step("m", {}, Rhs(), vector);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(a->factorization.inertia.negative,
            b->factorization.inertia.negative);
  EXPECT_EQ(a->solutions[0].x, b->solutions[0].x);

  const std::vector<double> short_d(k10_.rows - 1, 1e-4);
  vector.diagonal_shift = short_d;
  absl::StatusOr<StepResult> bad = client_->Step("m", {}, Rhs(), vector);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorReason(bad.status()), "INVALID_MATRIX");
}

TEST_F(StepTest, PivotThresholdIsAnOptionWithACheckedRange) {
  ASSERT_TRUE(client_->Upload(ArraysOf(k10_), "m").ok());
  FactorizeOptions strict = Ldlt();
  strict.pivot_threshold = 0.5;
  absl::StatusOr<FactorizeResult> f = client_->Factorize("m", strict);
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<FactorizeResult> loose = client_->Factorize("m", Ldlt());
  ASSERT_TRUE(loose.ok());
  // Same inertia; the stricter test takes more 2x2 pivots and delays more
  // (on this system: 154 and 12 against 100 and 5 at the default 0.01).
  EXPECT_EQ(f->inertia.negative, loose->inertia.negative);
  EXPECT_GT(f->two_by_two_pivots, loose->two_by_two_pivots);
  EXPECT_GT(f->delayed_pivots, loose->delayed_pivots);
  strict.pivot_threshold = 0.7;
  absl::StatusOr<FactorizeResult> bad = client_->Factorize("m", strict);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorReason(bad.status()), "INVALID_OPTION");
  std::vector<std::pair<std::string, std::string>> fields =
      FieldViolations(bad.status());
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].first, "options.pivot_threshold");
}

}  // namespace
}  // namespace factord::client
