// RemoteKktSolver and factord-ipm's IPM end to end through an in-process
// factord daemon on loopback: the remote solver against the dense LAPACK
// one on the same KKT system (the three-call path and the fused Step), then
// small netlib LPs against their published optima, checking that every
// iteration after the first takes two round trips (a Step with the values
// and the predictor, a Solve for the corrector), reuses the analysis and
// sends at most the per-iteration byte budget 1.1 (8 nnz + 16 dim) + 4 KiB
// (the values once and two right-hand sides, with room for message
// overhead; 1.1 (8 dim) more per refactorization forced by the inertia,
// which re-sends the predictor's right-hand side); a Step that would apply
// values onto a generation other than the one the solver saw is refused; a
// daemon restart in the middle of a run costs a re-upload, not the run.
#include "client/ipm/remote_kkt_solver.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "client/factord_client.h"
#include "client/ipm/dense_kkt_solver.h"
#include "client/ipm/ipm.h"
#include "client/ipm/kkt_matrix.h"
#include "client/ipm/mps_reader.h"
#include "client/ipm/standard_form.h"
#include "client/status_details.h"
#include "gtest/gtest.h"
#include "server/server.h"
#include "test_data.h"

namespace factord::ipm {
namespace {

std::unique_ptr<server::Server> StartOn(int port) {
  server::ServerConfig config;
  config.listen = "127.0.0.1:" + std::to_string(port);
  config.metrics_listen = "";
  config.threads = 2;
  absl::StatusOr<std::unique_ptr<server::Server>> s =
      server::Server::Start(config);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

class RemoteKktSolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartOn(0);
    ASSERT_NE(server_, nullptr);
    port_ = server_->port();
    client_ = Connect(client::ConnectOptions{});
    ASSERT_NE(client_, nullptr);
  }

  std::unique_ptr<client::Client> Connect(
      const client::ConnectOptions& options) {
    absl::StatusOr<std::unique_ptr<client::Client>> c =
        client::Client::Connect("127.0.0.1:" + std::to_string(port_), options);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

  // Stops the daemon (its matrices are gone) and starts a new one on the
  // same port; waits until `client`'s channel reaches it.
  void Restart(client::Client& client) {
    server_->Shutdown(absl::Seconds(5));
    server_ = StartOn(port_);
    ASSERT_NE(server_, nullptr);
    const absl::Time deadline = absl::Now() + absl::Seconds(30);
    while (!client.Info().ok() && absl::Now() < deadline) {
      absl::SleepFor(absl::Milliseconds(50));
    }
    ASSERT_TRUE(client.Info().ok()) << "the restarted daemon is unreachable";
  }

  void TearDown() override {
    client_.reset();
    if (server_) server_->Shutdown(absl::Seconds(5));
  }

  std::unique_ptr<RemoteKktSolver> Remote(const std::string& method,
                                          client::Client* client = nullptr) {
    client::FactorizeOptions factorize;
    factorize.method = method;
    client::SolveOptions solve;
    solve.krylov = "none";
    return std::make_unique<RemoteKktSolver>(
        client != nullptr ? client : client_.get(), factorize, solve);
  }

  std::unique_ptr<server::Server> server_;
  int port_ = 0;
  std::unique_ptr<client::Client> client_;
};

std::map<std::string, double> LpOptima() {
  std::map<std::string, double> optima;
  std::ifstream table(testing::TestDataPath("lp/optimal.tsv"));
  EXPECT_TRUE(table) << testing::TestDataPath("lp/optimal.tsv");
  std::string line;
  std::getline(table, line);
  while (std::getline(table, line)) {
    optima[line.substr(0, line.find('\t'))] =
        std::stod(line.substr(line.rfind('\t') + 1));
  }
  return optima;
}

double MaxRelativeDifference(const std::vector<double>& x,
                             const std::vector<double>& reference) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < reference.size(); ++i) {
    diff = std::max(diff, std::abs(x[i] - reference[i]));
    norm = std::max(norm, std::abs(reference[i]));
  }
  return norm > 0 ? diff / norm : diff;
}

TEST_F(RemoteKktSolverTest, MatchesDenseSolverOnAfiroKkt) {
  absl::StatusOr<QpProblem> p =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<StandardForm> form = BuildStandardForm(*p);
  ASSERT_TRUE(form.ok());
  KktMatrix matrix(*form);
  std::vector<double> d(form->num_vars, 1.0);
  matrix.Fill(d, 1e-9, 1e-9);
  std::unique_ptr<RemoteKktSolver> remote = Remote("ldlt");
  test_support::DenseKktSolver dense;
  for (int round = 0; round < 2; ++round) {
    for (double& v : d) v = round == 0 ? 1.0 : 0.5 + v * v;
    matrix.Fill(d, 1e-9, 1e-9);
    ASSERT_TRUE(remote->SetValues(matrix.matrix()).ok());
    ASSERT_TRUE(dense.SetValues(matrix.matrix()).ok());
    const DiagonalShift shift{-1e-8, 1e-8, form->num_vars};
    absl::StatusOr<KktFactorReport> fr = remote->Factorize(shift);
    ASSERT_TRUE(fr.ok()) << fr.status();
    ASSERT_TRUE(dense.Factorize(shift).ok());
    EXPECT_TRUE(fr->ok) << fr->message;
    EXPECT_EQ(fr->analysis_reused, round > 0);
    if (fr->inertia_known) {
      EXPECT_EQ(fr->positive, form->num_rows);
      EXPECT_EQ(fr->negative, form->num_vars);
      EXPECT_EQ(fr->zero, 0);
    }
    std::mt19937 rng(7 + round);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<std::vector<double>> b(
        2, std::vector<double>(matrix.matrix().dim));
    for (auto& v : b) {
      for (double& x : v) x = u(rng);
    }
    std::vector<std::vector<double>> x_remote = b, x_dense = b;
    ASSERT_TRUE(remote->Solve(x_remote).ok());
    ASSERT_TRUE(dense.Solve(x_dense).ok());
    for (int k = 0; k < 2; ++k) {
      double diff = 0, norm = 0;
      for (size_t i = 0; i < b[k].size(); ++i) {
        diff = std::max(diff, std::abs(x_remote[k][i] - x_dense[k][i]));
        norm = std::max(norm, std::abs(x_dense[k][i]));
      }
      EXPECT_LT(diff, 1e-6 * norm) << "round " << round << " rhs " << k;
    }
  }
}

TEST_F(RemoteKktSolverTest, SmallNetlibLpsEndToEnd) {
  std::map<std::string, double> optima = LpOptima();
  for (const char* name : {"afiro", "sc50a", "sc50b", "blend", "adlittle"}) {
    absl::StatusOr<QpProblem> p = ReadMpsFile(
        testing::TestDataPath(std::string("lp/") + name + ".mps.gz"));
    ASSERT_TRUE(p.ok()) << p.status();
    ASSERT_EQ(optima.count(name), 1u) << name << " has no published optimum";
    std::unique_ptr<RemoteKktSolver> kkt = Remote("ldlt");
    int64_t max_bytes = 0;
    double max_bytes_per_budget = 0;  // with refactorizations allowed for
    std::vector<std::pair<int64_t, int>> spent;  // bytes, factorizations
    bool reused = true;
    absl::StatusOr<IpmResult> r =
        SolveQp(*p, *kkt, IpmOptions{}, [&](const IterationLog& log) {
          if (log.iteration == 0) return;
          max_bytes = std::max(max_bytes, log.bytes_sent);
          spent.emplace_back(log.bytes_sent, log.factorizations);
          reused = reused && log.analysis_reused;
          // A Step per factorization (one unless the inertia was wrong),
          // then the corrector's Solve.
          EXPECT_EQ(log.round_trips, log.factorizations + 1)
              << name << " iteration " << log.iteration;
        });
    ASSERT_TRUE(r.ok()) << name << " " << r.status();
    EXPECT_EQ(r->status, IpmStatus::kOptimal) << name << " " << r->message;
    const double relative = std::abs(r->objective - optima[name]) /
                            std::max(1.0, std::abs(optima[name]));
    EXPECT_LT(relative, 1e-6) << name << " " << r->objective;
    EXPECT_TRUE(reused) << name;
    const double budget = 1.1 * (8.0 * r->kkt_nnz + 16.0 * r->kkt_dim) + 4096;
    // A refactorization with raised shifts re-sends the predictor's
    // right-hand side (8 dim bytes) instead of costing a round trip.
    for (const auto& [bytes, factorizations] : spent) {
      max_bytes_per_budget = std::max(
          max_bytes_per_budget,
          bytes / (budget + 1.1 * 8.0 * r->kkt_dim * (factorizations - 1)));
    }
    EXPECT_LE(max_bytes_per_budget, 1.0) << name;
    EXPECT_GT(max_bytes, 8 * r->kkt_nnz) << name;  // values really travel
    // Generation 1 from the upload, then one per iteration's new values.
    EXPECT_EQ(kkt->generation(), 1u + r->iterations) << name;
  }
}

TEST_F(RemoteKktSolverTest, FusedStepMatchesDenseSolverOnAfiroKkt) {
  absl::StatusOr<QpProblem> p =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<StandardForm> form = BuildStandardForm(*p);
  ASSERT_TRUE(form.ok());
  KktMatrix matrix(*form);
  std::vector<double> d(form->num_vars, 1.0);
  std::unique_ptr<RemoteKktSolver> remote = Remote("ldlt");
  test_support::DenseKktSolver dense;
  const DiagonalShift shift{-1e-8, 1e-8, form->num_vars};
  for (int round = 0; round < 3; ++round) {
    for (double& v : d) v = round == 0 ? 1.0 : 0.5 + v * v;
    matrix.Fill(d, 1e-9, 1e-9);
    std::mt19937 rng(11 + round);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<std::vector<double>> b(
        2, std::vector<double>(matrix.matrix().dim));
    for (auto& v : b) {
      for (double& x : v) x = u(rng);
    }
    std::vector<std::vector<double>> x_remote = b, x_dense = b;
    const int64_t trips = remote->round_trips();
    absl::StatusOr<KktStepReport> step =
        remote->FactorizeAndSolve(&matrix.matrix(), shift, x_remote);
    ASSERT_TRUE(step.ok()) << step.status();
    ASSERT_TRUE(dense.FactorizeAndSolve(&matrix.matrix(), shift, x_dense).ok());
    // The first round uploads the pattern, then steps; later rounds are
    // one Step each, applied onto the generation before.
    EXPECT_EQ(remote->round_trips() - trips, round == 0 ? 2 : 1);
    EXPECT_EQ(remote->generation(), static_cast<uint64_t>(round + 1));
    EXPECT_TRUE(step->factor.ok) << step->factor.message;
    EXPECT_EQ(step->factor.analysis_reused, round > 0);
    EXPECT_TRUE(step->factor.inertia_known);
    EXPECT_EQ(step->factor.positive, form->num_rows);
    EXPECT_EQ(step->factor.negative, form->num_vars);
    EXPECT_EQ(step->factor.zero, 0);
    for (int k = 0; k < 2; ++k) {
      EXPECT_LT(MaxRelativeDifference(x_remote[k], x_dense[k]), 1e-6)
          << "round " << round << " rhs " << k;
    }
    // A later right-hand side on the same factorization (the corrector).
    std::vector<std::vector<double>> later = {b[1]}, later_dense = {b[1]};
    ASSERT_TRUE(remote->Solve(later).ok());
    ASSERT_TRUE(dense.Solve(later_dense).ok());
    EXPECT_LT(MaxRelativeDifference(later[0], later_dense[0]), 1e-6);
    // Raised shifts without values: the values stay, the generation too.
    std::vector<std::vector<double>> again = b;
    absl::StatusOr<KktStepReport> shifted = remote->FactorizeAndSolve(
        nullptr, DiagonalShift{-1e-6, 1e-6, form->num_vars}, again);
    ASSERT_TRUE(shifted.ok()) << shifted.status();
    EXPECT_TRUE(shifted->factor.analysis_reused);
    EXPECT_EQ(remote->generation(), static_cast<uint64_t>(round + 1));
  }
  absl::StatusOr<client::MatrixInfo> info =
      client_->GetMatrix(remote->matrix_id());
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->generation, 3u);
}

TEST_F(RemoteKktSolverTest, StepOntoAnotherGenerationIsRefused) {
  absl::StatusOr<QpProblem> p =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<StandardForm> form = BuildStandardForm(*p);
  ASSERT_TRUE(form.ok());
  KktMatrix matrix(*form);
  matrix.Fill(std::vector<double>(form->num_vars, 1.0), 1e-9, 1e-9);
  std::unique_ptr<RemoteKktSolver> remote = Remote("ldlt");
  const DiagonalShift shift{-1e-8, 1e-8, form->num_vars};
  std::vector<std::vector<double>> x(
      1, std::vector<double>(matrix.matrix().dim, 1.0));
  ASSERT_TRUE(remote->FactorizeAndSolve(&matrix.matrix(), shift, x).ok());
  ASSERT_EQ(remote->generation(), 1u);
  // Someone else's values reach the matrix (as a Step whose reply was lost
  // and that was then sent again would): the solver's next Step, which
  // expects generation 1, must not apply its values on top.
  ASSERT_TRUE(
      client_->UpdateValues(remote->matrix_id(), matrix.matrix().values).ok());
  std::vector<std::vector<double>> y(
      1, std::vector<double>(matrix.matrix().dim, 1.0));
  absl::StatusOr<KktStepReport> step =
      remote->FactorizeAndSolve(&matrix.matrix(), shift, y);
  EXPECT_EQ(step.status().code(), absl::StatusCode::kAborted);
  EXPECT_EQ(client::ErrorReason(step.status()), "GENERATION_MISMATCH");
  absl::StatusOr<client::MatrixInfo> info =
      client_->GetMatrix(remote->matrix_id());
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->generation, 2u);  // the other update only
}

// Restarts the daemon before chosen calls of a RemoteKktSolver.
class RestartingKktSolver : public KktSolver {
 public:
  RestartingKktSolver(KktSolver& inner, std::function<void()> restart,
                      int before_step, int before_solve)
      : inner_(inner),
        restart_(std::move(restart)),
        before_step_(before_step),
        before_solve_(before_solve) {}

  absl::Status SetValues(const SymmetricLowerCsr& kkt) override {
    return inner_.SetValues(kkt);
  }
  absl::StatusOr<KktFactorReport> Factorize(
      const DiagonalShift& shift) override {
    return inner_.Factorize(shift);
  }
  absl::StatusOr<KktSolveReport> Solve(
      std::vector<std::vector<double>>& rhs) override {
    if (++solves_ == before_solve_) restart_();
    return inner_.Solve(rhs);
  }
  absl::StatusOr<KktStepReport> FactorizeAndSolve(
      const SymmetricLowerCsr* kkt, const DiagonalShift& shift,
      std::vector<std::vector<double>>& rhs) override {
    if (++steps_ == before_step_) restart_();
    return inner_.FactorizeAndSolve(kkt, shift, rhs);
  }
  int64_t bytes_sent() const override { return inner_.bytes_sent(); }

 private:
  KktSolver& inner_;
  std::function<void()> restart_;
  int before_step_, before_solve_;
  int steps_ = 0, solves_ = 0;
};

TEST_F(RemoteKktSolverTest, DaemonRestartsMidRunCostAReuploadNotTheRun) {
  client::ConnectOptions options;
  options.reupload_on_not_found = true;
  options.rpc_timeout = absl::Seconds(60);
  std::unique_ptr<client::Client> client = Connect(options);
  ASSERT_NE(client, nullptr);
  absl::StatusOr<QpProblem> p =
      ReadMpsFile(testing::TestDataPath("lp/afiro.mps.gz"));
  ASSERT_TRUE(p.ok()) << p.status();
  std::unique_ptr<RemoteKktSolver> remote = Remote("ldlt", client.get());
  // Before the 4th Step (new values of iteration 2) and before the 6th
  // corrector Solve (between iteration 5's Step and its Solve).
  RestartingKktSolver kkt(
      *remote, [&] { Restart(*client); },
      /*before_step=*/4, /*before_solve=*/6);
  absl::StatusOr<IpmResult> r = SolveQp(*p, kkt, IpmOptions{});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->status, IpmStatus::kOptimal) << r->message;
  EXPECT_LT(std::abs(r->objective - LpOptima()["afiro"]) /
                std::abs(LpOptima()["afiro"]),
            1e-6);
  EXPECT_EQ(client->reuploads(), 2);
  // The solver follows the generation the server holds.
  absl::StatusOr<client::MatrixInfo> info =
      client->GetMatrix(remote->matrix_id());
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->generation, remote->generation());
}

}  // namespace
}  // namespace factord::ipm
