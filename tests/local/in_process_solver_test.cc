// The in-process solver against the daemon: the same calls on a Server
// started in-process on 127.0.0.1:0 (through the C++ client) and on an
// InProcessSolver give the same reports, solutions and errors; and the
// in-process solver leaves the host's BLAS thread count alone.
#include "local/in_process_solver.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cblas.h"
#include "client/factord_client.h"
#include "client/matrix_arrays.h"
#include "client/status_details.h"
#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"
#include "gtest/gtest.h"
#include "server/config.h"
#include "server/server.h"
#include "test_data.h"

namespace factord::local {
namespace {

using client::Endpoint;

std::unique_ptr<server::Server> StartServer() {
  server::ServerConfig config;
  config.listen = "127.0.0.1:0";
  config.metrics_listen = "";
  config.threads = 1;
  config.workers = 1;
  absl::StatusOr<std::unique_ptr<server::Server>> s =
      server::Server::Start(config);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

// The bundled KKT systems (tests/data/kkt/**/K_*.mtx), sorted.
std::vector<std::string> BundledKktSystems() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           testing::TestDataPath("kkt"))) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("K_", 0) == 0 && entry.path().extension() == ".mtx") {
      paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

CsrMatrix ReadSymmetric(const std::string& path) {
  absl::StatusOr<CsrMatrix> a = ReadMatrixMarket(path);
  EXPECT_TRUE(a.ok()) << path << ": " << a.status();
  return a.ok() ? *std::move(a) : CsrMatrix{};
}

// b = A * ones for a symmetric-lower or general CSR matrix.
std::vector<double> RhsOfOnes(const CsrMatrix& a) {
  std::vector<double> b(a.rows, 0.0);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int64_t j = a.col_idx[k];
      b[i] += a.values[k];
      if (IsSymmetric(a.structure) && j != i) b[j] += a.values[k];
    }
  }
  return b;
}

class InProcessSolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartServer();
    ASSERT_NE(server_, nullptr);
    client::ConnectOptions options;
    options.rpc_timeout = absl::Seconds(120);
    absl::StatusOr<std::unique_ptr<client::Client>> c = client::Client::Connect(
        "127.0.0.1:" + std::to_string(server_->port()), options);
    ASSERT_TRUE(c.ok()) << c.status();
    remote_ = *std::move(c);
    local_ = std::make_unique<InProcessSolver>(InProcessOptions{});
  }

  // Both endpoints, the daemon first.
  std::vector<Endpoint*> Both() { return {remote_.get(), local_.get()}; }

  std::unique_ptr<server::Server> server_;
  std::unique_ptr<client::Client> remote_;
  std::unique_ptr<InProcessSolver> local_;
};

TEST_F(InProcessSolverTest, SaysItRunsLocally) {
  EXPECT_EQ(local_->location(), "local");
  EXPECT_EQ(remote_->location(),
            "127.0.0.1:" + std::to_string(server_->port()));
}

TEST_F(InProcessSolverTest, KktSystemsGetTheDaemonsReportsAndSolutions) {
  const std::vector<std::string> systems = BundledKktSystems();
  ASSERT_GE(systems.size(), 9u) << "the bundled KKT systems are missing";
  for (const std::string& path : systems) {
    SCOPED_TRACE(path);
    CsrMatrix a = ReadSymmetric(path);
    a.structure = Structure::kSymmetricLower;
    const std::vector<double> b = RhsOfOnes(a);
    const std::vector<std::span<const double>> rhs = {b};
    client::FactorizeOptions ldlt;
    ldlt.method = "ldlt";
    std::vector<client::FactorizeResult> reports;
    std::vector<client::SolveResult> solutions;
    for (Endpoint* endpoint : Both()) {
      absl::StatusOr<client::MatrixInfo> info =
          endpoint->Upload(client::ArraysOf(a), "kkt");
      ASSERT_TRUE(info.ok()) << info.status();
      EXPECT_EQ(info->generation, 1u);
      EXPECT_EQ(info->n, a.rows);
      EXPECT_EQ(info->nnz, a.nnz());
      absl::StatusOr<client::FactorizeResult> f =
          endpoint->Factorize("kkt", ldlt);
      ASSERT_TRUE(f.ok()) << f.status();
      reports.push_back(*f);
      absl::StatusOr<std::vector<client::SolveResult>> x =
          endpoint->Solve("kkt", rhs);
      ASSERT_TRUE(x.ok()) << x.status();
      ASSERT_EQ(x->size(), 1u);
      solutions.push_back((*x)[0]);
      ASSERT_TRUE(endpoint->Release("kkt").ok());
    }
    const client::FactorizeResult& daemon = reports[0];
    const client::FactorizeResult& here = reports[1];
    EXPECT_EQ(here.method, daemon.method);
    EXPECT_EQ(here.factor_status, daemon.factor_status);
    EXPECT_EQ(here.inertia.positive, daemon.inertia.positive);
    EXPECT_EQ(here.inertia.negative, daemon.inertia.negative);
    EXPECT_EQ(here.inertia.zero, daemon.inertia.zero);
    EXPECT_EQ(here.inertia_reliable, daemon.inertia_reliable);
    EXPECT_EQ(here.nnz_factor, daemon.nnz_factor);
    EXPECT_EQ(here.two_by_two_pivots, daemon.two_by_two_pivots);
    EXPECT_EQ(here.delayed_pivots, daemon.delayed_pivots);
    EXPECT_EQ(here.perturbed_pivots, daemon.perturbed_pivots);
    EXPECT_EQ(here.generation, daemon.generation);
    EXPECT_EQ(solutions[1].status, solutions[0].status);
    EXPECT_LE(solutions[1].relative_residual,
              std::max(1e-10, 10 * solutions[0].relative_residual));
    double worst = 0;
    for (int64_t i = 0; i < a.rows; ++i) {
      worst = std::max(worst, std::abs(solutions[1].x[i] - solutions[0].x[i]));
    }
    EXPECT_LE(worst, 1e-6) << "the two solutions differ";
  }
}

TEST_F(InProcessSolverTest, StepGivesTheDaemonsGenerationsAndInertia) {
  CsrMatrix a =
      ReadSymmetric(testing::TestDataPath("kkt/qpcboei1/2x2/iter_10/K_10.mtx"));
  a.structure = Structure::kSymmetricLower;
  std::vector<double> values = a.values;
  for (double& v : values) v *= 2;
  const std::vector<double> b = RhsOfOnes(a);
  const std::vector<std::span<const double>> rhs = {b, b};
  const std::vector<double> diagonal(a.rows, 1e-6);
  client::StepOptions step;
  step.factorize.method = "ldlt";
  step.factorize.shift_first = 1e-4;
  step.factorize.shift_count = 10;
  step.diagonal_shift = diagonal;
  step.factorize.expected_generation = 1;
  std::vector<client::StepResult> results;
  for (Endpoint* endpoint : Both()) {
    ASSERT_TRUE(endpoint->Upload(client::ArraysOf(a), "step").ok());
    absl::StatusOr<client::StepResult> r =
        endpoint->Step("step", values, rhs, step);
    ASSERT_TRUE(r.ok()) << r.status();
    results.push_back(*r);
    // The same step again: the matrix is no longer at generation 1.
    absl::StatusOr<client::StepResult> again =
        endpoint->Step("step", values, rhs, step);
    EXPECT_EQ(again.status().code(), absl::StatusCode::kAborted);
    EXPECT_EQ(client::ErrorReason(again.status()), "GENERATION_MISMATCH");
  }
  EXPECT_EQ(results[1].factorization.generation, 2u);
  EXPECT_EQ(results[1].factorization.generation,
            results[0].factorization.generation);
  EXPECT_EQ(results[1].factorization.inertia.negative,
            results[0].factorization.inertia.negative);
  EXPECT_EQ(results[1].factorization.inertia.positive,
            results[0].factorization.inertia.positive);
  ASSERT_EQ(results[1].solutions.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(results[1].solutions[k].status, results[0].solutions[k].status);
    EXPECT_NEAR(results[1].solutions[k].relative_residual,
                results[0].solutions[k].relative_residual, 1e-9);
  }
}

// One failing call, run on each endpoint.
struct Refusal {
  std::string what;
  std::function<absl::Status(Endpoint&)> call;
};

TEST_F(InProcessSolverTest, RefusalsCarryTheDaemonsCodesReasonsAndFields) {
  CsrMatrix a =
      ReadSymmetric(testing::TestDataPath("kkt/hs21/2x2/iter_5/K_5.mtx"));
  a.structure = Structure::kSymmetricLower;
  CsrMatrix with_nan = a;
  with_nan.values[0] = std::nan("");
  const std::vector<double> b = RhsOfOnes(a);
  const std::vector<std::span<const double>> rhs = {b};
  const std::vector<double> short_values(a.nnz() - 1, 1.0);
  const std::vector<Refusal> refusals = {
      {"unknown id",
       [](Endpoint& e) { return e.Factorize("nobody", {}).status(); }},
      {"upload of an ID in use",
       [&](Endpoint& e) {
         return e.Upload(client::ArraysOf(a), "held").status();
       }},
      {"expected generation",
       [&](Endpoint& e) {
         return e.UpdateValues("held", a.values, 7).status();
       }},
      {"values of another length",
       [&](Endpoint& e) {
         return e.UpdateValues("held", short_values, 0).status();
       }},
      {"solve before factorize",
       [&](Endpoint& e) { return e.Solve("held", rhs).status(); }},
      {"pivot threshold out of range",
       [&](Endpoint& e) {
         client::FactorizeOptions o;
         o.method = "ldlt";
         o.pivot_threshold = 2.0;
         return e.Factorize("held", o).status();
       }},
      {"unknown method name",
       [&](Endpoint& e) {
         client::FactorizeOptions o;
         o.method = "cholesky";
         return e.Factorize("held", o).status();
       }},
      {"a NaN in the matrix",
       [&](Endpoint& e) {
         return e.Upload(client::ArraysOf(with_nan), "nan").status();
       }},
      {"an ID with a space",
       [&](Endpoint& e) {
         return e.Upload(client::ArraysOf(a), "two words").status();
       }},
      {"stale factorization",
       [&](Endpoint& e) {
         client::FactorizeOptions o;
         o.method = "ldlt";
         if (absl::Status s = e.Factorize("held", o).status(); !s.ok()) {
           return s;
         }
         if (absl::Status s = e.UpdateValues("held", a.values, 0).status();
             !s.ok()) {
           return s;
         }
         return e.Solve("held", rhs).status();
       }},
  };
  std::vector<std::vector<absl::Status>> seen(2);
  for (size_t side = 0; side < 2; ++side) {
    Endpoint& e = *Both()[side];
    ASSERT_TRUE(e.Upload(client::ArraysOf(a), "held").ok());
    for (const Refusal& r : refusals) seen[side].push_back(r.call(e));
  }
  for (size_t k = 0; k < refusals.size(); ++k) {
    SCOPED_TRACE(refusals[k].what);
    const absl::Status& daemon = seen[0][k];
    const absl::Status& here = seen[1][k];
    EXPECT_FALSE(daemon.ok());
    EXPECT_EQ(here.code(), daemon.code()) << here << " vs " << daemon;
    EXPECT_EQ(client::ErrorReason(here), client::ErrorReason(daemon));
    EXPECT_FALSE(client::ErrorReason(here).empty());
    std::vector<std::string> daemon_fields, here_fields;
    for (const auto& [field, why] : client::FieldViolations(daemon)) {
      daemon_fields.push_back(field);
    }
    for (const auto& [field, why] : client::FieldViolations(here)) {
      here_fields.push_back(field);
    }
    EXPECT_EQ(here_fields, daemon_fields);
  }
}

TEST(InProcessSolver, LeavesTheHostsBlasThreadCountAlone) {
  openblas_set_num_threads(2);
  // A 2D Laplacian of 60 x 60: its root fronts are large enough for the
  // BLAS-3 path, where the daemon would set BLAS to one thread.
  const int k = 60;
  std::vector<int64_t> row_ptr = {0};
  std::vector<int32_t> col_idx;
  std::vector<double> values;
  for (int i = 0; i < k * k; ++i) {  // the lower triangle, sorted rows
    if (i >= k) {
      col_idx.push_back(i - k);
      values.push_back(-1);
    }
    if (i % k != 0) {
      col_idx.push_back(i - 1);
      values.push_back(-1);
    }
    col_idx.push_back(i);
    values.push_back(4);
    row_ptr.push_back(static_cast<int64_t>(col_idx.size()));
  }
  client::CsrArrays arrays{k * k, "spd_lower", row_ptr, col_idx, values};
  InProcessSolver solver(InProcessOptions{});
  ASSERT_TRUE(solver.Upload(arrays, "laplacian", {}).ok());
  client::FactorizeOptions ldlt;
  ldlt.method = "ldlt";
  absl::StatusOr<client::FactorizeResult> f =
      solver.Factorize("laplacian", ldlt);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->inertia.positive, k * k);
  EXPECT_EQ(openblas_get_num_threads(), 2);
}

TEST(InProcessOptions, ComeFromTheEnvironment) {
  unsetenv("FACTORD_THREADS");
  unsetenv("FACTORD_CACHE_BYTES");
  absl::StatusOr<InProcessOptions> defaults = InProcessOptionsFromEnvironment();
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->threads, 1);
  setenv("FACTORD_THREADS", "3", 1);
  setenv("FACTORD_CACHE_BYTES", "1073741824", 1);
  absl::StatusOr<InProcessOptions> set = InProcessOptionsFromEnvironment();
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->threads, 3);
  EXPECT_EQ(set->cache_bytes, int64_t{1} << 30);
  setenv("FACTORD_THREADS", "many", 1);
  absl::StatusOr<InProcessOptions> bad = InProcessOptionsFromEnvironment();
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(client::ErrorReason(bad.status()), "INVALID_OPTION");
  EXPECT_NE(bad.status().message().find("FACTORD_THREADS"), std::string::npos);
  unsetenv("FACTORD_THREADS");
  unsetenv("FACTORD_CACHE_BYTES");
}

}  // namespace
}  // namespace factord::local
