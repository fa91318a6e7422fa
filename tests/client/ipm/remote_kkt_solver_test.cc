// RemoteKktSolver and factord-ipm's IPM end to end through an in-process
// factord daemon on loopback: the remote solver against the dense LAPACK
// one on the same KKT system, then small netlib LPs against their published
// optima, checking that every iteration after the first reuses the analysis
// and sends at most the per-iteration byte budget 1.1 (8 nnz + 16 dim) +
// 4 KiB (the values once and two right-hand sides, with room for message
// overhead).
#include "client/ipm/remote_kkt_solver.h"

#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "client/factord_client.h"
#include "client/ipm/dense_kkt_solver.h"
#include "client/ipm/ipm.h"
#include "client/ipm/kkt_matrix.h"
#include "client/ipm/mps_reader.h"
#include "client/ipm/standard_form.h"
#include "gtest/gtest.h"
#include "server/server.h"
#include "test_data.h"

namespace factord::ipm {
namespace {

class RemoteKktSolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server::ServerConfig config;
    config.listen = "127.0.0.1:0";
    config.metrics_listen = "";
    config.threads = 2;
    absl::StatusOr<std::unique_ptr<server::Server>> s =
        server::Server::Start(config);
    ASSERT_TRUE(s.ok()) << s.status();
    server_ = *std::move(s);
    absl::StatusOr<std::unique_ptr<client::Client>> c =
        client::Client::Connect("127.0.0.1:" + std::to_string(server_->port()));
    ASSERT_TRUE(c.ok()) << c.status();
    client_ = *std::move(c);
  }

  void TearDown() override {
    client_.reset();
    if (server_) server_->Shutdown(absl::Seconds(5));
  }

  std::unique_ptr<RemoteKktSolver> Remote(const std::string& method) {
    client::FactorizeOptions factorize;
    factorize.method = method;
    client::SolveOptions solve;
    solve.krylov = "none";
    return std::make_unique<RemoteKktSolver>(client_.get(), factorize, solve);
  }

  std::unique_ptr<server::Server> server_;
  std::unique_ptr<client::Client> client_;
};

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
  std::map<std::string, double> optima;
  std::ifstream table(testing::TestDataPath("lp/optimal.tsv"));
  ASSERT_TRUE(table) << testing::TestDataPath("lp/optimal.tsv");
  std::string line;
  std::getline(table, line);
  while (std::getline(table, line)) {
    optima[line.substr(0, line.find('\t'))] =
        std::stod(line.substr(line.rfind('\t') + 1));
  }
  for (const char* name : {"afiro", "sc50a", "sc50b", "blend", "adlittle"}) {
    absl::StatusOr<QpProblem> p = ReadMpsFile(
        testing::TestDataPath(std::string("lp/") + name + ".mps.gz"));
    ASSERT_TRUE(p.ok()) << p.status();
    ASSERT_EQ(optima.count(name), 1u) << name << " has no published optimum";
    std::unique_ptr<RemoteKktSolver> kkt = Remote("ldlt");
    int64_t max_bytes = 0;
    bool reused = true;
    absl::StatusOr<IpmResult> r =
        SolveQp(*p, *kkt, IpmOptions{}, [&](const IterationLog& log) {
          if (log.iteration == 0) return;
          max_bytes = std::max(max_bytes, log.bytes_sent);
          reused = reused && log.analysis_reused;
        });
    ASSERT_TRUE(r.ok()) << name << " " << r.status();
    EXPECT_EQ(r->status, IpmStatus::kOptimal) << name << " " << r->message;
    const double relative = std::abs(r->objective - optima[name]) /
                            std::max(1.0, std::abs(optima[name]));
    EXPECT_LT(relative, 1e-6) << name << " " << r->objective;
    EXPECT_TRUE(reused) << name;
    const double budget = 1.1 * (8.0 * r->kkt_nnz + 16.0 * r->kkt_dim) + 4096;
    EXPECT_LE(max_bytes, budget) << name;
    EXPECT_GT(max_bytes, 8 * r->kkt_nnz) << name;  // values really travel
  }
}

}  // namespace
}  // namespace factord::ipm
