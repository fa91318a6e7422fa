// The client library against a real factord Server started in-process on
// 127.0.0.1:0: a chunked upload round-trips exactly, many right-hand sides
// go through one stream, the IPM cycle (update values, refactorize) works,
// generations advance and are checked, List follows its pages, and errors
// come back with their codes and reasons.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

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

std::unique_ptr<server::Server> StartServer() {
  server::ServerConfig config;
  config.listen = "127.0.0.1:0";
  config.metrics_listen = "";
  config.threads = 1;
  config.workers = 2;
  absl::StatusOr<std::unique_ptr<server::Server>> s =
      server::Server::Start(config);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

std::unique_ptr<Client> ConnectTo(const server::Server& s,
                                  int64_t max_chunk_bytes = 1 << 20) {
  ConnectOptions options;
  options.max_chunk_bytes = max_chunk_bytes;
  options.rpc_timeout = absl::Seconds(120);
  absl::StatusOr<std::unique_ptr<Client>> c =
      Client::Connect("127.0.0.1:" + std::to_string(s.port()), options);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *std::move(c) : nullptr;
}

CsrArrays View(const CsrMatrix& a) { return ArraysOf(a); }

class LoopbackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartServer();
    ASSERT_NE(server_, nullptr);
    absl::StatusOr<CsrMatrix> a =
        ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
    ASSERT_TRUE(a.ok()) << a.status();
    a_ = *std::move(a);
    a_.structure = Structure::kSpdLower;
  }

  std::unique_ptr<server::Server> server_;
  CsrMatrix a_;
};

FactorizeOptions BlockJacobi() {
  FactorizeOptions o;
  o.method = "block_jacobi";
  o.deterministic = true;
  return o;
}

SolveOptions Cg() {
  SolveOptions o;
  o.krylov = "cg";
  return o;
}

TEST_F(LoopbackTest, TinyChunksUploadTheSameMatrixAsOneChunk) {
  std::unique_ptr<Client> big = ConnectTo(*server_);
  std::unique_ptr<Client> tiny = ConnectTo(*server_, 300);
  absl::StatusOr<MatrixInfo> one = big->Upload(View(a_), "big");
  absl::StatusOr<MatrixInfo> many = tiny->Upload(View(a_));
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_TRUE(many.ok()) << many.status();
  EXPECT_EQ(one->id, "big");
  EXPECT_EQ(many->id.size(), 36u);  // a UUID made by the client
  EXPECT_EQ(many->nnz, a_.nnz());
  EXPECT_EQ(many->n, a_.rows);
  EXPECT_EQ(many->pattern_hash, one->pattern_hash);
  EXPECT_EQ(many->pattern_hash, PatternHash(a_));
  // Tiny chunks mean many more bytes of framing on the stream.
  EXPECT_GT(many->bytes_received, one->bytes_received);

  std::vector<std::vector<double>> rhs = {std::vector<double>(a_.rows, 1.0)};
  std::vector<std::vector<double>> x;
  for (const MatrixInfo* m : {&*one, &*many}) {
    absl::StatusOr<FactorizeResult> f = big->Factorize(m->id, BlockJacobi());
    ASSERT_TRUE(f.ok()) << f.status();
    absl::StatusOr<std::vector<SolveResult>> s = tiny->Solve(m->id, rhs, Cg());
    ASSERT_TRUE(s.ok()) << s.status();
    ASSERT_EQ(s->size(), 1u);
    EXPECT_EQ((*s)[0].status, "converged");
    x.push_back((*s)[0].x);
  }
  // Same values on the server, same deterministic solve: bitwise equal.
  EXPECT_EQ(x[0], x[1]);
}

TEST_F(LoopbackTest, ManyRightHandSidesInOneStream) {
  std::unique_ptr<Client> client = ConnectTo(*server_, 4096);  // chunked
  absl::StatusOr<MatrixInfo> m = client->Upload(View(a_));
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(client->Factorize(m->id, BlockJacobi()).ok());
  const int64_t n = a_.rows;
  std::vector<std::vector<double>> rhs(4, std::vector<double>(n));
  for (int64_t i = 0; i < n; ++i) {
    rhs[0][i] = 1.0;
    rhs[1][i] = std::sin(0.1 * i);
    rhs[2][i] = i % 3 == 0 ? -2.0 : 0.5;
  }
  // rhs[3] = A * (1, 2, ..., n): the solution is known.
  std::vector<double> x_true(n);
  for (int64_t i = 0; i < n; ++i) x_true[i] = i + 1.0;
  MultiplyUploaded(a_, x_true, rhs[3]);
  absl::StatusOr<std::vector<SolveResult>> results =
      client->Solve(m->id, rhs, Cg());
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), rhs.size());
  for (size_t k = 0; k < rhs.size(); ++k) {
    const SolveResult& r = (*results)[k];
    ASSERT_EQ(r.x.size(), static_cast<size_t>(n));
    EXPECT_EQ(r.status, "converged") << k << ": " << r.message;
    EXPECT_LE(r.relative_residual, 1e-8) << k;
    // The reported residual is the true one, recomputed here.
    const ResidualNorms norms = ComputeResidualNorms(a_, rhs[k], r.x);
    EXPECT_NEAR(norms.relative_residual, r.relative_residual,
                1e-3 * r.relative_residual + 1e-15)
        << k;
    EXPECT_GT(r.iterations, 0);
  }
  double err = 0, ref = 0;
  for (int64_t i = 0; i < n; ++i) {
    err = std::max(err, std::abs((*results)[3].x[i] - x_true[i]));
    ref = std::max(ref, std::abs(x_true[i]));
  }
  EXPECT_LE(err / ref, 1e-4);  // 494_bus has condition number ~4e6
}

TEST_F(LoopbackTest, UpdateValuesMakesTheFactorStaleThenReusesTheAnalysis) {
  std::unique_ptr<Client> client = ConnectTo(*server_, 1024);
  absl::StatusOr<MatrixInfo> m = client->Upload(View(a_), "ipm");
  ASSERT_TRUE(m.ok()) << m.status();
  absl::StatusOr<FactorizeResult> first =
      client->Factorize("ipm", BlockJacobi());
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->method, "block_jacobi");
  EXPECT_FALSE(first->analysis_reused);

  std::vector<double> doubled = a_.values;
  for (double& v : doubled) v *= 2;
  absl::StatusOr<MatrixInfo> updated = client->UpdateValues("ipm", doubled);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_TRUE(updated->stale);
  const std::vector<std::vector<double>> ones = {
      std::vector<double>(a_.rows, 1.0)};
  EXPECT_EQ(client->Solve("ipm", ones, Cg()).status().code(),
            absl::StatusCode::kFailedPrecondition);

  absl::StatusOr<FactorizeResult> second =
      client->Factorize("ipm", BlockJacobi());
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_TRUE(second->analysis_reused);
  absl::StatusOr<std::vector<SolveResult>> s = client->Solve("ipm", ones, Cg());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)[0].status, "converged");
  // The solution of 2 A x = 1 is half that of A x = 1: check on A.
  CsrMatrix a2 = a_;
  a2.values = doubled;
  EXPECT_LE(ComputeResidualNorms(a2, ones[0], (*s)[0].x).relative_residual,
            1e-8);
}

TEST_F(LoopbackTest, ListReleaseAndErrors) {
  std::unique_ptr<Client> client = ConnectTo(*server_);
  ASSERT_TRUE(client->Upload(View(a_), "listed").ok());
  absl::StatusOr<std::vector<MatrixInfo>> list = client->List();
  ASSERT_TRUE(list.ok()) << list.status();
  bool found = false;
  for (const MatrixInfo& m : *list) found = found || m.id == "listed";
  EXPECT_TRUE(found);

  absl::StatusOr<ServerInfo> info = client->Info();
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_FALSE(info->version.empty());
  EXPECT_EQ(info->backend, "cpu");
  EXPECT_FALSE(info->methods.empty());
  for (const std::string& method : info->methods) {
    EXPECT_TRUE(CheckOptionName(OptionEnum::kMethod, method).ok()) << method;
  }

  const std::vector<std::vector<double>> ones = {
      std::vector<double>(a_.rows, 1.0)};
  absl::Status unfactorized = client->Solve("listed", ones).status();
  EXPECT_EQ(unfactorized.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ErrorReason(unfactorized), "NOT_FACTORIZED");
  absl::StatusOr<int64_t> freed = client->Release("listed");
  ASSERT_TRUE(freed.ok()) << freed.status();
  EXPECT_GT(*freed, 0);
  absl::Status released = client->Factorize("listed").status();
  EXPECT_EQ(released.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ErrorReason(released), "NOT_FOUND");
  EXPECT_EQ(client->Release("listed").status().code(),
            absl::StatusCode::kNotFound);

  // A bad entry is the server's InvalidArgument, message kept.
  CsrMatrix bad = a_;
  bad.values[5] = std::nan("");
  absl::StatusOr<MatrixInfo> rejected = client->Upload(View(bad));
  EXPECT_EQ(rejected.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(rejected.status().message().empty());
  EXPECT_EQ(ErrorReason(rejected.status()), "INVALID_MATRIX");
}

TEST_F(LoopbackTest, GenerationsAdvanceAndAreChecked) {
  std::unique_ptr<Client> client = ConnectTo(*server_);
  absl::StatusOr<MatrixInfo> up = client->Upload(View(a_), "gen");
  ASSERT_TRUE(up.ok()) << up.status();
  EXPECT_EQ(up->generation, 1u);
  EXPECT_EQ(up->factorized_generation, 0u);

  std::vector<double> doubled = a_.values;
  for (double& v : doubled) v *= 2;
  absl::StatusOr<MatrixInfo> updated = client->UpdateValues("gen", doubled, 1);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_EQ(updated->generation, 2u);
  // The same update retried: applied at most once.
  absl::Status retried = client->UpdateValues("gen", doubled, 1).status();
  EXPECT_EQ(retried.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(ErrorReason(retried), "GENERATION_MISMATCH");
  EXPECT_EQ(ErrorMetadata(retried)["expected"], "1");
  EXPECT_EQ(ErrorMetadata(retried)["current"], "2");

  FactorizeOptions f = BlockJacobi();
  f.expected_generation = 1;
  EXPECT_EQ(ErrorReason(client->Factorize("gen", f).status()),
            "GENERATION_MISMATCH");
  f.expected_generation = 2;
  absl::StatusOr<FactorizeResult> factor = client->Factorize("gen", f);
  ASSERT_TRUE(factor.ok()) << factor.status();
  EXPECT_EQ(factor->generation, 2u);

  absl::StatusOr<MatrixInfo> held = client->GetMatrix("gen");
  ASSERT_TRUE(held.ok()) << held.status();
  EXPECT_EQ(held->generation, 2u);
  EXPECT_EQ(held->factorized_generation, 2u);
  EXPECT_TRUE(held->factorized);
  EXPECT_EQ(held->method, "block_jacobi");

  SolveOptions s = Cg();
  s.expected_generation = 2;
  const std::vector<std::vector<double>> ones = {
      std::vector<double>(a_.rows, 1.0)};
  ASSERT_TRUE(client->Solve("gen", ones, s).ok());
  s.expected_generation = 1;
  EXPECT_EQ(ErrorReason(client->Solve("gen", ones, s).status()),
            "GENERATION_MISMATCH");

  // An upload under a held ID replaces it only when asked to.
  absl::Status exists = client->Upload(View(a_), "gen").status();
  EXPECT_EQ(exists.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(ErrorReason(exists), "ALREADY_EXISTS");
  absl::StatusOr<MatrixInfo> replaced =
      client->Upload(View(a_), "gen", UploadOptions{.replace = true});
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_EQ(replaced->generation, 3u);
}

TEST_F(LoopbackTest, ListFollowsEveryPage) {
  // More matrices than one page of List (500): 1 x 1 ones, cheap to hold.
  std::unique_ptr<Client> client = ConnectTo(*server_);
  const std::vector<int64_t> row_ptr = {0, 1};
  const std::vector<int32_t> col_idx = {0};
  const std::vector<double> values = {2.0};
  const CsrArrays one{.n = 1,
                      .structure = "general",
                      .row_ptr = row_ptr,
                      .col_idx = col_idx,
                      .values = values};
  constexpr int kMatrices = 520;
  for (int k = 0; k < kMatrices; ++k) {
    char id[16];
    std::snprintf(id, sizeof(id), "tiny-%04d", k);
    ASSERT_TRUE(client->Upload(one, id).ok()) << id;
  }
  absl::StatusOr<std::vector<MatrixInfo>> list = client->List();
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->size(), static_cast<size_t>(kMatrices));
  for (int k = 0; k < kMatrices; ++k) {  // sorted by ID, each once
    char id[16];
    std::snprintf(id, sizeof(id), "tiny-%04d", k);
    EXPECT_EQ((*list)[k].id, id);
  }
}

}  // namespace
}  // namespace factord::client
