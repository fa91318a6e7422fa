// Transparent re-upload (ConnectOptions::reupload_on_not_found): a daemon
// restarted on the same port has lost every matrix and answers NOT_FOUND; a
// client that kept its copy uploads it again under the same ID, refactorizes
// when needed, retries once, and gets the right answer; the retried call
// adopts the generation the re-upload got. Without the option the same
// sequence gets NOT_FOUND.
#include <memory>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "client/factord_client.h"
#include "client/matrix_arrays.h"
#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"
#include "core/solver/residual.h"
#include "gtest/gtest.h"
#include "server/config.h"
#include "server/server.h"
#include "test_data.h"

namespace factord::client {
namespace {

std::unique_ptr<server::Server> StartOn(int port) {
  server::ServerConfig config;
  config.listen = "127.0.0.1:" + std::to_string(port);
  config.metrics_listen = "";
  config.threads = 1;
  config.workers = 2;
  absl::StatusOr<std::unique_ptr<server::Server>> s =
      server::Server::Start(config);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

CsrArrays View(const CsrMatrix& a) { return ArraysOf(a); }

FactorizeOptions Ldlt() {
  FactorizeOptions o;
  o.method = "ldlt";
  return o;
}

class ReuploadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<CsrMatrix> a =
        ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
    ASSERT_TRUE(a.ok()) << a.status();
    a_ = *std::move(a);
    a_.structure = Structure::kSpdLower;
    rhs_ = {std::vector<double>(a_.rows, 1.0)};
    server_ = StartOn(0);
    ASSERT_NE(server_, nullptr);
    port_ = server_->port();
  }

  std::unique_ptr<Client> Connect(bool reupload) {
    ConnectOptions options;
    options.rpc_timeout = absl::Seconds(60);
    options.reupload_on_not_found = reupload;
    absl::StatusOr<std::unique_ptr<Client>> c =
        Client::Connect("127.0.0.1:" + std::to_string(port_), options);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

  // Stops the daemon (all its matrices are gone) and starts a new one on
  // the same port; waits until `client`'s channel reaches it (the channel
  // is in reconnect backoff after the old one went away).
  void Restart(Client& client) {
    server_->Shutdown(absl::Seconds(5));
    server_.reset();
    server_ = StartOn(port_);
    ASSERT_NE(server_, nullptr);
    const absl::Time deadline = absl::Now() + absl::Seconds(30);
    while (!client.Info().ok() && absl::Now() < deadline) {
      absl::SleepFor(absl::Milliseconds(50));
    }
    ASSERT_TRUE(client.Info().ok()) << "the restarted daemon is unreachable";
  }

  double Residual(const CsrMatrix& a, const SolveResult& r) const {
    return ComputeResidualNorms(a, rhs_[0], r.x).relative_residual;
  }

  CsrMatrix a_;
  std::vector<std::vector<double>> rhs_;
  std::unique_ptr<server::Server> server_;
  int port_ = 0;
};

TEST_F(ReuploadTest, SolveAfterRestartReuploadsRefactorizesAndAnswers) {
  std::unique_ptr<Client> client = Connect(/*reupload=*/true);
  ASSERT_TRUE(client->Upload(View(a_), "kept").ok());
  ASSERT_TRUE(client->Factorize("kept", Ldlt()).ok());
  absl::StatusOr<std::vector<SolveResult>> before = client->Solve("kept", rhs_);
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(client->reuploads(), 0);

  Restart(*client);
  absl::StatusOr<std::vector<MatrixInfo>> listed = client->List();
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_TRUE(listed->empty()) << "the new daemon holds nothing";

  absl::StatusOr<std::vector<SolveResult>> after = client->Solve("kept", rhs_);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(client->reuploads(), 1);
  EXPECT_EQ((*after)[0].status, "converged") << (*after)[0].message;
  EXPECT_LE(Residual(a_, (*after)[0]), 1e-10);
  // Same matrix, same method, same right-hand side: the same answer.
  for (size_t i = 0; i < (*before)[0].x.size(); ++i) {
    ASSERT_NEAR((*after)[0].x[i], (*before)[0].x[i],
                1e-8 * std::abs((*before)[0].x[i]) + 1e-12)
        << i;
  }
  // The matrix is back on the server under its ID, factorized.
  listed = client->List();
  ASSERT_TRUE(listed.ok()) << listed.status();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].id, "kept");
  EXPECT_TRUE((*listed)[0].factorized);
}

TEST_F(ReuploadTest, WithoutTheOptionTheSameSequenceIsNotFound) {
  std::unique_ptr<Client> client = Connect(/*reupload=*/false);
  ASSERT_TRUE(client->Upload(View(a_), "lost").ok());
  ASSERT_TRUE(client->Factorize("lost", Ldlt()).ok());
  ASSERT_TRUE(client->Solve("lost", rhs_).ok());
  Restart(*client);
  EXPECT_EQ(client->Solve("lost", rhs_).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(client->Factorize("lost", Ldlt()).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(client->reuploads(), 0);
}

TEST_F(ReuploadTest, UpdateValuesAfterRestartUploadsTheNewValues) {
  std::unique_ptr<Client> client = Connect(/*reupload=*/true);
  ASSERT_TRUE(client->Upload(View(a_), "ipm").ok());
  ASSERT_TRUE(client->Factorize("ipm", Ldlt()).ok());
  Restart(*client);

  CsrMatrix doubled = a_;
  for (double& v : doubled.values) v *= 2;
  absl::StatusOr<MatrixInfo> updated =
      client->UpdateValues("ipm", doubled.values);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_EQ(client->reuploads(), 1);
  EXPECT_FALSE(updated->factorized);
  // The values changed since the last Factorize: a solve must not silently
  // refactorize, it fails as it would without the restart.
  EXPECT_EQ(client->Solve("ipm", rhs_).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(client->Factorize("ipm", Ldlt()).ok());
  absl::StatusOr<std::vector<SolveResult>> s = client->Solve("ipm", rhs_);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_LE(Residual(doubled, (*s)[0]), 1e-10) << "solved the new values";
  EXPECT_GT(Residual(a_, (*s)[0]), 0.1) << "not the old ones";
  EXPECT_EQ(client->reuploads(), 1);
}

TEST_F(ReuploadTest, FactorizeAfterRestartReuploadsOnce) {
  std::unique_ptr<Client> client = Connect(/*reupload=*/true);
  ASSERT_TRUE(client->Upload(View(a_), "f").ok());
  Restart(*client);
  absl::StatusOr<FactorizeResult> f = client->Factorize("f", Ldlt());
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->inertia.positive, a_.rows);
  EXPECT_EQ(client->reuploads(), 1);
  absl::StatusOr<std::vector<SolveResult>> s = client->Solve("f", rhs_);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_LE(Residual(a_, (*s)[0]), 1e-10);
}

TEST_F(ReuploadTest, RetriedCallsAdoptTheGenerationOfTheReupload) {
  std::unique_ptr<Client> client = Connect(/*reupload=*/true);
  absl::StatusOr<MatrixInfo> up = client->Upload(View(a_), "gen");
  ASSERT_TRUE(up.ok()) << up.status();
  EXPECT_EQ(up->generation, 1u);
  CsrMatrix doubled = a_;
  for (double& v : doubled.values) v *= 2;
  absl::StatusOr<MatrixInfo> updated =
      client->UpdateValues("gen", doubled.values, /*expected_generation=*/1);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_EQ(updated->generation, 2u);
  Restart(*client);

  // The caller expects generation 2, the copy's: the new daemon gets the
  // copy and the factorization expects what the re-upload got.
  FactorizeOptions ldlt = Ldlt();
  ldlt.expected_generation = 2;
  absl::StatusOr<FactorizeResult> f = client->Factorize("gen", ldlt);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(client->reuploads(), 1);
  absl::StatusOr<MatrixInfo> held = client->GetMatrix("gen");
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_EQ(f->generation, held->generation);
  EXPECT_EQ(held->factorized_generation, held->generation);
  SolveOptions solve;
  solve.expected_generation = f->generation;
  absl::StatusOr<std::vector<SolveResult>> s =
      client->Solve("gen", rhs_, solve);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_LE(Residual(doubled, (*s)[0]), 1e-10);

  // After another restart, a stale expectation is refused by the client
  // itself (the new daemon cannot know), and nothing is uploaded.
  Restart(*client);
  absl::Status stale =
      client->UpdateValues("gen", a_.values, f->generation + 5).status();
  EXPECT_EQ(stale.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(ErrorReason(stale), "GENERATION_MISMATCH");
  EXPECT_EQ(ErrorMetadata(stale)["expected"],
            std::to_string(f->generation + 5));
  EXPECT_EQ(client->reuploads(), 1);
}

TEST_F(ReuploadTest, ReleasedOrUnknownMatricesStayNotFound) {
  std::unique_ptr<Client> client = Connect(/*reupload=*/true);
  ASSERT_TRUE(client->Upload(View(a_), "gone").ok());
  ASSERT_TRUE(client->Release("gone").ok());
  // Released on purpose: the copy is forgotten, nothing comes back.
  EXPECT_EQ(client->Factorize("gone", Ldlt()).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(client->Solve("never", rhs_).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(client->reuploads(), 0);
}

}  // namespace
}  // namespace factord::client
