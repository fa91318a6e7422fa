// The client library against a recording fake of the Solver service: what
// goes on the wire (chunk sizes, row splits, headers, tokens, generations,
// page tokens) and how replies and errors (with their details in the
// grpc-status-details-bin trailer) come back. The real server is driven in
// loopback_test.cc.
#include "client/factord_client.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "factord/v1/solver.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/any.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"

namespace factord::client {
namespace {

namespace pb = ::factord::v1;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// A failed call as the daemon sends it: `reason` in an ErrorInfo, and a
// RetryInfo / BadRequest when given, in the status details.
grpc::Status FactordError(grpc::StatusCode code, const std::string& message,
                          const std::string& reason,
                          absl::Duration retry = absl::ZeroDuration(),
                          const std::string& field = "") {
  google::rpc::Status status;
  status.set_code(code);
  status.set_message(message);
  google::rpc::ErrorInfo info;
  info.set_reason(reason);
  info.set_domain("factord.v1");
  status.add_details()->PackFrom(info);
  if (retry > absl::ZeroDuration()) {
    google::rpc::RetryInfo r;
    r.mutable_retry_delay()->set_seconds(absl::ToInt64Seconds(retry));
    status.add_details()->PackFrom(r);
  }
  if (!field.empty()) {
    google::rpc::BadRequest bad;
    auto* v = bad.add_field_violations();
    v->set_field(field);
    v->set_description(message);
    status.add_details()->PackFrom(bad);
  }
  return grpc::Status(code, message, status.SerializeAsString());
}

// Records every request and the metadata of every call. Solve replies
// x = 2 b, in chunks of `reply_chunk` values, right-hand sides in reverse.
class RecordingSolver final : public pb::Solver::Service {
 public:
  grpc::Status UploadMatrix(grpc::ServerContext* context,
                            grpc::ServerReader<pb::UploadRequest>* reader,
                            pb::MatrixInfo* reply) override {
    Record(context, "UploadMatrix");
    pb::UploadRequest request;
    std::lock_guard lock(mu_);
    while (reader->Read(&request)) uploads_.push_back(request);
    reply->set_id(uploads_.at(0).header().id());
    reply->set_n(uploads_.at(0).header().n());
    reply->set_nnz(uploads_.at(0).header().nnz());
    reply->set_structure(uploads_.at(0).header().structure());
    reply->set_generation(uploads_.at(0).header().replace() ? 2 : 1);
    return grpc::Status::OK;
  }

  grpc::Status UpdateValues(grpc::ServerContext* context,
                            grpc::ServerReader<pb::UpdateValuesRequest>* reader,
                            pb::MatrixInfo* reply) override {
    Record(context, "UpdateValues");
    pb::UpdateValuesRequest request;
    std::lock_guard lock(mu_);
    while (reader->Read(&request)) updates_.push_back(request);
    reply->set_id(updates_.at(0).id());
    reply->set_stale(true);
    reply->set_generation(updates_.at(0).expected_generation() + 1);
    return grpc::Status::OK;
  }

  grpc::Status Factorize(grpc::ServerContext* context,
                         const pb::FactorizeRequest* request,
                         pb::FactorizeReply* reply) override {
    Record(context, "Factorize");
    if (request->id() == "bad") {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "row 3: zero pivot");
    }
    if (request->id() == "busy") {
      return FactordError(grpc::StatusCode::RESOURCE_EXHAUSTED, "queue full",
                          "QUEUE_FULL", absl::Seconds(3));
    }
    if (request->id() == "fill") {
      return FactordError(grpc::StatusCode::INVALID_ARGUMENT,
                          "fill_factor must be at least 1", "INVALID_OPTION",
                          absl::ZeroDuration(), "options.fill_factor");
    }
    std::lock_guard lock(mu_);
    factorize_ = *request;
    reply->set_id(request->id());
    reply->set_method(pb::METHOD_LDLT);
    reply->set_generation(7);
    reply->set_factor_status(pb::FACTOR_STATUS_PERTURBED);
    reply->mutable_inertia()->set_positive(3);
    reply->mutable_inertia()->set_negative(2);
    reply->set_inertia_reliable(true);
    reply->set_perturbed_pivots(1);
    reply->mutable_timings()->set_factorize_s(0.25);
    return grpc::Status::OK;
  }

  grpc::Status Solve(grpc::ServerContext* context,
                     grpc::ServerReaderWriter<pb::SolveReply, pb::SolveRequest>*
                         stream) override {
    Record(context, "Solve");
    std::map<uint32_t, std::vector<double>> rhs;
    pb::SolveRequest request;
    while (stream->Read(&request)) {
      {
        std::lock_guard lock(mu_);
        solves_.push_back(request);
      }
      std::vector<double>& b = rhs[request.rhs_index()];
      b.resize(request.offset() + request.values_size());
      std::copy(request.values().begin(), request.values().end(),
                b.begin() + request.offset());
    }
    for (auto it = rhs.rbegin(); it != rhs.rend(); ++it) {
      const std::vector<double>& b = it->second;
      int64_t offset = 0;
      do {
        pb::SolveReply reply;
        reply.set_rhs_index(it->first);
        reply.set_offset(offset);
        const int64_t take = std::min<int64_t>(
            reply_chunk, static_cast<int64_t>(b.size()) - offset);
        for (int64_t i = 0; i < take; ++i) reply.add_values(2 * b[offset + i]);
        offset += take;
        if (offset == static_cast<int64_t>(b.size())) {
          reply.set_last(true);
          reply.set_status(pb::SOLVE_STATUS_NOT_CONVERGED);
          reply.set_relative_residual(1e-3 * (it->first + 1));
          reply.set_iterations(static_cast<int>(it->first) + 7);
        }
        stream->Write(reply);
      } while (offset < static_cast<int64_t>(b.size()));
    }
    return grpc::Status::OK;
  }

  grpc::Status Release(grpc::ServerContext* context,
                       const pb::ReleaseRequest* request,
                       pb::ReleaseReply* reply) override {
    Record(context, "Release");
    if (request->id() != "known") {
      return grpc::Status(grpc::StatusCode::NOT_FOUND, "matrix 'x' not found");
    }
    reply->set_bytes_freed(1234);
    return grpc::Status::OK;
  }

  // Three pages of one matrix each: m1, m2, m3; the tokens are "p2", "p3".
  grpc::Status ListMatrices(grpc::ServerContext* context,
                            const pb::ListMatricesRequest* request,
                            pb::ListMatricesReply* reply) override {
    Record(context, "ListMatrices");
    {
      std::lock_guard lock(mu_);
      lists_.push_back(*request);
    }
    const std::string& token = request->page_token();
    const int page = token.empty()   ? 1
                     : token == "p2" ? 2
                     : token == "p3" ? 3
                                     : 0;
    if (page == 0) {
      return FactordError(grpc::StatusCode::INVALID_ARGUMENT, "bad page token",
                          "INVALID_REQUEST", absl::ZeroDuration(),
                          "page_token");
    }
    pb::MatrixInfo* m = reply->add_matrices();
    m->set_id("m" + std::to_string(page));
    m->set_n(5);
    m->set_structure(pb::STRUCTURE_SPD_LOWER);
    m->set_pattern_hash(0xfedcba9876543210ull);
    m->set_generation(page);
    if (page == 1) {
      m->set_factorized(true);
      m->set_method(pb::METHOD_JACOBI_LDLT);
      m->set_factorized_generation(1);
    }
    if (page < 3) reply->set_next_page_token("p" + std::to_string(page + 1));
    return grpc::Status::OK;
  }

  grpc::Status GetMatrix(grpc::ServerContext* context,
                         const pb::GetMatrixRequest* request,
                         pb::MatrixInfo* reply) override {
    Record(context, "GetMatrix");
    if (request->id() != "held") {
      return FactordError(grpc::StatusCode::NOT_FOUND, "no such matrix",
                          "NOT_FOUND");
    }
    reply->set_id("held");
    reply->set_n(12);
    reply->set_structure(pb::STRUCTURE_GENERAL);
    reply->set_generation(4);
    reply->set_factorized_generation(3);
    reply->set_factorized(true);
    reply->set_stale(true);
    reply->set_method(pb::METHOD_LU);
    return grpc::Status::OK;
  }

  grpc::Status ServerInfo(grpc::ServerContext* context,
                          const pb::ServerInfoRequest*,
                          pb::ServerInfoReply* reply) override {
    Record(context, "ServerInfo");
    if (!big_version.empty()) {
      reply->set_version(big_version);
      return grpc::Status::OK;
    }
    reply->set_version("9.9");
    reply->add_methods(pb::METHOD_BLOCK_JACOBI);
    reply->add_methods(pb::METHOD_LDLT);
    return grpc::Status::OK;
  }

  // Metadata of the calls of `rpc`, key -> value, in call order.
  std::vector<std::multimap<std::string, std::string>> Calls(
      const std::string& rpc) {
    std::lock_guard lock(mu_);
    return calls_[rpc];
  }

  std::mutex mu_;
  std::vector<pb::UploadRequest> uploads_;
  std::vector<pb::UpdateValuesRequest> updates_;
  std::vector<pb::SolveRequest> solves_;
  pb::FactorizeRequest factorize_;
  std::vector<pb::ListMatricesRequest> lists_;
  int64_t reply_chunk = 3;
  std::string big_version;  // ServerInfo replies with it when not empty

 private:
  void Record(grpc::ServerContext* context, const std::string& rpc) {
    std::multimap<std::string, std::string> md;
    for (const auto& [k, v] : context->client_metadata()) {
      md.emplace(std::string(k.data(), k.size()),
                 std::string(v.data(), v.size()));
    }
    std::lock_guard lock(mu_);
    calls_[rpc].push_back(std::move(md));
  }

  std::map<std::string, std::vector<std::multimap<std::string, std::string>>>
      calls_;
};

class ClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    target_ = "127.0.0.1:" + std::to_string(port);
  }
  void TearDown() override { server_->Shutdown(); }

  std::unique_ptr<Client> Connect(ConnectOptions options = {}) {
    absl::StatusOr<std::unique_ptr<Client>> client =
        Client::Connect(target_, options);
    EXPECT_TRUE(client.ok()) << client.status();
    return client.ok() ? *std::move(client) : nullptr;
  }

  static std::string Header(const std::multimap<std::string, std::string>& md,
                            const std::string& key) {
    auto it = md.find(key);
    return it == md.end() ? "<absent>" : it->second;
  }

  RecordingSolver service_;
  std::unique_ptr<grpc::Server> server_;
  std::string target_;
};

// A 6 x 6 general matrix with a long row 1 (all columns), an empty row 2,
// and an empty last row: rows split across chunks when chunks are tiny.
struct SmallMatrix {
  std::vector<int64_t> row_ptr = {0, 1, 7, 7, 9, 10, 10};
  std::vector<int32_t> col_idx = {0, 0, 1, 2, 3, 4, 5, 1, 3, 4};
  std::vector<double> values = {1, -2, 3.5, 0.0, 1e-300, -7, 8, 9, 10, 11};
  CsrArrays arrays() const {
    return CsrArrays{.n = 6,
                     .structure = "general",
                     .row_ptr = row_ptr,
                     .col_idx = col_idx,
                     .values = values};
  }
};

TEST(NewMatrixIdTest, IsAVersion4UuidAndUnique) {
  const std::regex uuid(
      "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  std::set<std::string> seen;
  for (int i = 0; i < 2000; ++i) {
    const std::string id = NewMatrixId();
    ASSERT_TRUE(std::regex_match(id, uuid)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 2000u);
}

TEST_F(ClientTest, TinyChunksSplitRowsAndReassembleExactly) {
  ConnectOptions options;
  options.max_chunk_bytes = 256;  // the minimum: a few entries per message
  std::unique_ptr<Client> client = Connect(options);
  // Big enough that the long rows need many chunks.
  const int64_t n = 40;
  std::vector<int64_t> row_ptr = {0};
  std::vector<int32_t> col_idx;
  std::vector<double> values;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = i % 7 == 3 ? n : i % 5;  // long rows, empty rows
    for (int64_t j = 0; j < len; ++j) {
      col_idx.push_back(static_cast<int32_t>(j));
      values.push_back(0.1 * i - j + (j == 2 ? 0.0 : 1e-17 * i));
    }
    row_ptr.push_back(static_cast<int64_t>(col_idx.size()));
  }
  CsrArrays arrays{.n = n,
                   .structure = "spd_lower",
                   .row_ptr = row_ptr,
                   .col_idx = col_idx,
                   .values = values};
  absl::StatusOr<MatrixInfo> info = client->Upload(arrays, "chunky");
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->id, "chunky");
  EXPECT_EQ(info->structure, "spd_lower");

  std::lock_guard lock(service_.mu_);
  const std::vector<pb::UploadRequest>& msgs = service_.uploads_;
  ASSERT_GT(msgs.size(), 10u);
  ASSERT_TRUE(msgs[0].has_header());
  EXPECT_EQ(msgs[0].header().n(), n);
  EXPECT_EQ(msgs[0].header().nnz(), row_ptr.back());
  EXPECT_EQ(msgs[0].header().structure(), pb::STRUCTURE_SPD_LOWER);
  std::vector<int64_t> got_row_nnz;
  std::vector<int32_t> got_cols;
  std::vector<double> got_values;
  int split_rows = 0;
  int64_t declared = 0;
  for (size_t k = 1; k < msgs.size(); ++k) {
    EXPECT_LE(msgs[k].ByteSizeLong(), 256u) << "message " << k;
    ASSERT_TRUE(msgs[k].has_csr());
    const pb::CsrChunk& c = msgs[k].csr();
    got_row_nnz.insert(got_row_nnz.end(), c.row_nnz().begin(),
                       c.row_nnz().end());
    for (int64_t r : c.row_nnz()) declared += r;
    got_cols.insert(got_cols.end(), c.col_idx().begin(), c.col_idx().end());
    got_values.insert(got_values.end(), c.values().begin(), c.values().end());
    // No entry arrives before its row's count.
    EXPECT_LE(static_cast<int64_t>(got_cols.size()), declared);
    if (static_cast<int64_t>(got_cols.size()) < declared) ++split_rows;
  }
  EXPECT_GT(split_rows, 0) << "tiny chunks must split some rows";
  std::vector<int64_t> want_row_nnz(n);
  for (int64_t i = 0; i < n; ++i) want_row_nnz[i] = row_ptr[i + 1] - row_ptr[i];
  EXPECT_EQ(got_row_nnz, want_row_nnz);
  EXPECT_EQ(got_cols, col_idx);
  EXPECT_EQ(got_values, values);  // bitwise: doubles travel as fixed64
}

TEST_F(ClientTest, LargeChunksSendOneMessage) {
  std::unique_ptr<Client> client = Connect();
  SmallMatrix m;
  ASSERT_TRUE(client->Upload(m.arrays(), "one").ok());
  std::lock_guard lock(service_.mu_);
  ASSERT_EQ(service_.uploads_.size(), 2u);  // header + one chunk
  EXPECT_FALSE(service_.uploads_[0].header().replace());
  EXPECT_EQ(service_.uploads_[1].csr().row_nnz_size(), 6);
  EXPECT_EQ(service_.uploads_[1].csr().values_size(), 10);
}

TEST_F(ClientTest, UploadAsksToReplaceWhenTold) {
  std::unique_ptr<Client> client = Connect();
  SmallMatrix m;
  absl::StatusOr<MatrixInfo> info =
      client->Upload(m.arrays(), "again", UploadOptions{.replace = true});
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->generation, 2u);
  std::lock_guard lock(service_.mu_);
  ASSERT_FALSE(service_.uploads_.empty());
  EXPECT_TRUE(service_.uploads_[0].header().replace());
  EXPECT_EQ(service_.uploads_[0].header().id(), "again");
}

TEST_F(ClientTest, ExpectedGenerationsTravelInTheFirstMessage) {
  ConnectOptions options;
  options.max_chunk_bytes = 256;  // several messages per stream
  std::unique_ptr<Client> client = Connect(options);
  std::vector<double> values(100, 1.5);
  absl::StatusOr<MatrixInfo> updated = client->UpdateValues("g", values, 5);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_EQ(updated->generation, 6u);
  FactorizeOptions f;
  f.expected_generation = 6;
  absl::StatusOr<FactorizeResult> factor = client->Factorize("g", f);
  ASSERT_TRUE(factor.ok()) << factor.status();
  EXPECT_EQ(factor->generation, 7u);
  SolveOptions s;
  s.expected_generation = 7;
  ASSERT_TRUE(client->Solve("g", {std::vector<double>(100, 1.0)}, s).ok());
  std::lock_guard lock(service_.mu_);
  ASSERT_GT(service_.updates_.size(), 1u);
  EXPECT_EQ(service_.updates_[0].expected_generation(), 5u);
  EXPECT_EQ(service_.updates_[1].expected_generation(), 0u);
  EXPECT_EQ(service_.factorize_.expected_generation(), 6u);
  ASSERT_GT(service_.solves_.size(), 1u);
  EXPECT_EQ(service_.solves_[0].expected_generation(), 7u);
  EXPECT_EQ(service_.solves_[1].expected_generation(), 0u);
}

TEST_F(ClientTest, UploadWithoutIdNamesTheMatrixWithAUuidInTheHeader) {
  std::unique_ptr<Client> client = Connect();
  SmallMatrix m;
  absl::StatusOr<MatrixInfo> info = client->Upload(m.arrays());
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->id.size(), 36u);
  auto calls = service_.Calls("UploadMatrix");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(Header(calls[0], kMatrixIdHeader), info->id);
  EXPECT_EQ(Header(calls[0], "authorization"), "<absent>");
}

TEST_F(ClientTest, EveryRequestNamingAMatrixCarriesTheHeaderAndToken) {
  ConnectOptions options;
  options.token = "s3cret";
  std::unique_ptr<Client> client = Connect(options);
  const std::vector<double> v = {1, 2, 3};
  ASSERT_TRUE(client->UpdateValues("m-upd", v).ok());
  ASSERT_TRUE(client->Factorize("m-fac").ok());
  ASSERT_TRUE(client->Solve("m-sol", {{1.0, 2.0}}).ok());
  EXPECT_EQ(client->Release("m-rel").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(client->GetMatrix("m-get").status().code(),
            absl::StatusCode::kNotFound);
  ASSERT_TRUE(client->Info().ok());
  const std::pair<const char*, const char*> named[] = {
      {"UpdateValues", "m-upd"},
      {"Factorize", "m-fac"},
      {"Solve", "m-sol"},
      {"Release", "m-rel"},
      {"GetMatrix", "m-get"}};
  for (const auto& [rpc, id] : named) {
    auto calls = service_.Calls(rpc);
    ASSERT_EQ(calls.size(), 1u) << rpc;
    EXPECT_EQ(Header(calls[0], kMatrixIdHeader), id) << rpc;
    EXPECT_EQ(Header(calls[0], "authorization"), "Bearer s3cret") << rpc;
  }
  ASSERT_TRUE(client->List().ok());
  EXPECT_EQ(service_.Calls("ListMatrices").size(), 3u);  // three pages
  for (const char* rpc : {"ListMatrices", "ServerInfo"}) {
    for (const auto& call : service_.Calls(rpc)) {
      EXPECT_EQ(Header(call, kMatrixIdHeader), "<absent>") << rpc;
      EXPECT_EQ(Header(call, "authorization"), "Bearer s3cret") << rpc;
    }
  }
}

TEST_F(ClientTest, TokenComesFromTheEnvironmentWhenNotGiven) {
  ::setenv("FACTORD_TOKEN", "from-env", 1);
  std::unique_ptr<Client> client = Connect();
  ::unsetenv("FACTORD_TOKEN");
  ASSERT_TRUE(client->Info().ok());
  auto calls = service_.Calls("ServerInfo");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(Header(calls[0], "authorization"), "Bearer from-env");
}

TEST_F(ClientTest, UpdateValuesIsChunkedInOrder) {
  ConnectOptions options;
  options.max_chunk_bytes = 512;
  std::unique_ptr<Client> client = Connect(options);
  std::vector<double> values(1000);
  std::iota(values.begin(), values.end(), -3.25);
  ASSERT_TRUE(client->UpdateValues("m", values).ok());
  std::lock_guard lock(service_.mu_);
  ASSERT_GT(service_.updates_.size(), 10u);
  EXPECT_EQ(service_.updates_[0].id(), "m");
  std::vector<double> got;
  for (const pb::UpdateValuesRequest& r : service_.updates_) {
    EXPECT_LE(r.ByteSizeLong(), 512u);
    got.insert(got.end(), r.values().begin(), r.values().end());
  }
  EXPECT_EQ(got, values);
}

TEST_F(ClientTest, ManyRightHandSidesThroughOneStreamReassembled) {
  ConnectOptions options;
  options.max_chunk_bytes = 300;
  std::unique_ptr<Client> client = Connect(options);
  std::vector<std::vector<double>> rhs;
  for (int k = 0; k < 5; ++k) {
    std::vector<double> b(37 * k + 1);
    for (size_t i = 0; i < b.size(); ++i) b[i] = k * 1000.0 + i;
    rhs.push_back(b);
  }
  SolveOptions solve;
  solve.krylov = "gmres";
  solve.tolerance = 1e-10;
  solve.restart = 20;
  absl::StatusOr<std::vector<SolveResult>> results =
      client->Solve("m", rhs, solve);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), rhs.size());
  for (size_t k = 0; k < rhs.size(); ++k) {
    const SolveResult& r = (*results)[k];
    ASSERT_EQ(r.x.size(), rhs[k].size());
    for (size_t i = 0; i < r.x.size(); ++i) EXPECT_EQ(r.x[i], 2 * rhs[k][i]);
    EXPECT_EQ(r.status, "not_converged");
    EXPECT_EQ(r.iterations, static_cast<int>(k) + 7);
    EXPECT_DOUBLE_EQ(r.relative_residual, 1e-3 * (k + 1));
  }
  EXPECT_EQ(service_.Calls("Solve").size(), 1u);  // one stream
  std::lock_guard lock(service_.mu_);
  ASSERT_FALSE(service_.solves_.empty());
  EXPECT_EQ(service_.solves_[0].id(), "m");
  EXPECT_EQ(service_.solves_[0].options().krylov(), pb::KRYLOV_GMRES);
  EXPECT_EQ(service_.solves_[0].options().tolerance(), 1e-10);
  EXPECT_EQ(service_.solves_[0].options().restart(), 20);
  int lasts = 0;
  for (const pb::SolveRequest& r : service_.solves_) {
    EXPECT_LE(r.ByteSizeLong(), 300u);
    lasts += r.last();
  }
  EXPECT_EQ(lasts, 5);
  EXPECT_GT(service_.solves_.size(), 10u);
}

TEST_F(ClientTest, FactorizeOptionsAndReplyTravel) {
  std::unique_ptr<Client> client = Connect();
  FactorizeOptions o;
  o.method = "block_ildlt";
  o.ordering = "metis";
  o.pivoting = "rook";
  o.fill_level = 2;
  o.drop_tolerance = 1e-4;
  o.max_block_size = 16;
  o.deterministic = true;
  o.Set("epsilon", 0.5).Set("trisolve_sweeps", "9");  // by the field names
  absl::StatusOr<FactorizeResult> r = client->Factorize("m", o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->method, "ldlt");  // METHOD_LDLT on the wire
  EXPECT_EQ(r->generation, 7u);
  EXPECT_EQ(r->factor_status, "perturbed");
  EXPECT_EQ(r->inertia.positive, 3);
  EXPECT_EQ(r->inertia.negative, 2);
  EXPECT_TRUE(r->inertia_reliable);
  EXPECT_EQ(r->perturbed_pivots, 1);
  EXPECT_EQ(r->timings.factorize_s, 0.25);
  std::lock_guard lock(service_.mu_);
  const pb::FactorizeRequest& sent = service_.factorize_;
  EXPECT_EQ(sent.method(), pb::METHOD_BLOCK_ILDLT);
  EXPECT_EQ(sent.options().ordering(), pb::ORDERING_METIS);
  EXPECT_EQ(sent.options().pivoting(), pb::PIVOTING_ROOK);
  EXPECT_TRUE(sent.options().has_fill_level());
  EXPECT_EQ(sent.options().fill_level(), 2);
  EXPECT_EQ(sent.options().drop_tolerance(), 1e-4);
  EXPECT_FALSE(sent.options().has_fill_factor());
  EXPECT_EQ(sent.options().max_block_size(), 16);
  EXPECT_TRUE(sent.options().deterministic());
  EXPECT_EQ(sent.options().epsilon(), 0.5);
  EXPECT_EQ(sent.options().trisolve_sweeps(), 9);
  EXPECT_EQ(sent.expected_generation(), 0u);
}

TEST_F(ClientTest, UnsetEnumOptionsAreZeroAndBkIsBunchKaufman) {
  std::unique_ptr<Client> client = Connect();
  ASSERT_TRUE(client->Factorize("m").ok());
  {
    std::lock_guard lock(service_.mu_);
    const pb::FactorizeRequest& sent = service_.factorize_;
    EXPECT_EQ(sent.method(), pb::METHOD_AUTO);
    EXPECT_EQ(sent.options().ordering(), pb::ORDERING_AUTO);
    EXPECT_EQ(sent.options().pivoting(), pb::PIVOTING_UNSPECIFIED);
    EXPECT_EQ(sent.options().scaling(), pb::SCALING_AUTO);
    EXPECT_EQ(sent.options().blocking(), pb::BLOCKING_UNSPECIFIED);
    EXPECT_EQ(sent.options().trisolve(), pb::TRIANGULAR_SOLVE_UNSPECIFIED);
  }
  FactorizeOptions o;
  o.pivoting = "bk";
  o.blocking = "br";
  o.trisolve = "block_jacobi";
  o.scaling = "column_norm";
  ASSERT_TRUE(client->Factorize("m", o).ok());
  std::lock_guard lock(service_.mu_);
  const pb::FactorizeRequest& sent = service_.factorize_;
  EXPECT_EQ(sent.options().pivoting(), pb::PIVOTING_BUNCH_KAUFMAN);
  EXPECT_EQ(sent.options().blocking(), pb::BLOCKING_BR);
  EXPECT_EQ(sent.options().trisolve(), pb::TRIANGULAR_SOLVE_BLOCK_JACOBI);
  EXPECT_EQ(sent.options().scaling(), pb::SCALING_COLUMN_NORM);
}

TEST_F(ClientTest, ServerErrorsKeepTheirCodeAndMessage) {
  std::unique_ptr<Client> client = Connect();
  absl::StatusOr<FactorizeResult> r = client->Factorize("bad");
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "row 3: zero pivot");
  EXPECT_EQ(ErrorReason(r.status()), "");  // this fake sent no details
  EXPECT_EQ(client->Release("x").status().code(), absl::StatusCode::kNotFound);
  absl::StatusOr<int64_t> freed = client->Release("known");
  ASSERT_TRUE(freed.ok());
  EXPECT_EQ(*freed, 1234);
}

TEST_F(ClientTest, ErrorDetailsComeThroughTheTrailer) {
  std::unique_ptr<Client> client = Connect();
  absl::StatusOr<FactorizeResult> busy = client->Factorize("busy");
  EXPECT_EQ(busy.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(busy.status().message(), "queue full");
  EXPECT_EQ(ErrorReason(busy.status()), "QUEUE_FULL");
  EXPECT_EQ(ErrorDomain(busy.status()), "factord.v1");
  EXPECT_EQ(RetryDelay(busy.status()), absl::Seconds(3));

  absl::StatusOr<FactorizeResult> fill = client->Factorize("fill");
  EXPECT_EQ(fill.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorReason(fill.status()), "INVALID_OPTION");
  EXPECT_EQ(RetryDelay(fill.status()), std::nullopt);
  EXPECT_THAT(FieldViolations(fill.status()),
              ElementsAre(Pair("options.fill_factor",
                               "fill_factor must be at least 1")));

  absl::StatusOr<MatrixInfo> missing = client->GetMatrix("nope");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ErrorReason(missing.status()), "NOT_FOUND");
}

TEST_F(ClientTest, ReplyOverTheReceiveLimitIsMessageTooLarge) {
  ConnectOptions options;
  options.max_receive_message_bytes = 1024;
  std::unique_ptr<Client> client = Connect(options);
  service_.big_version = std::string(4096, 'v');
  absl::StatusOr<ServerInfo> info = client->Info();
  EXPECT_EQ(info.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ErrorReason(info.status()), "MESSAGE_TOO_LARGE") << info.status();
}

TEST_F(ClientTest, BadNamesAndArraysAreRejectedBeforeSending) {
  std::unique_ptr<Client> client = Connect();
  FactorizeOptions o;
  o.method = "cholesky";
  absl::StatusOr<FactorizeResult> r = client->Factorize("m", o);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("block_jacobi"));
  EXPECT_EQ(ErrorReason(r.status()), "INVALID_OPTION");
  EXPECT_THAT(FieldViolations(r.status()),
              ElementsAre(Pair("method", HasSubstr("cholesky"))));
  o = FactorizeOptions();
  o.pivoting = "partial";
  EXPECT_THAT(FieldViolations(client->Factorize("m", o).status()),
              ElementsAre(Pair("options.pivoting", HasSubstr("partial"))));
  o = FactorizeOptions();
  o.Set("sweeps", "many");
  EXPECT_THAT(FieldViolations(client->Factorize("m", o).status()),
              ElementsAre(Pair("options.sweeps", HasSubstr("many"))));
  SolveOptions s;
  s.krylov = "minres";
  absl::Status krylov = client->Solve("m", {{1.0}}, s).status();
  EXPECT_EQ(krylov.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorReason(krylov), "INVALID_OPTION");
  SmallMatrix m;
  CsrArrays bad = m.arrays();
  bad.values = bad.values.subspan(1);
  absl::Status arrays = client->Upload(bad).status();
  EXPECT_EQ(arrays.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorReason(arrays), "INVALID_MATRIX");
  bad = m.arrays();
  bad.structure = "hermitian";
  absl::Status structure = client->Upload(bad).status();
  EXPECT_EQ(structure.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FieldViolations(structure),
              ElementsAre(Pair("header.structure", HasSubstr("hermitian"))));
  for (absl::Status empty_id :
       {client->UpdateValues("", std::vector<double>{1.0}).status(),
        client->Factorize("").status(), client->GetMatrix("").status(),
        client->Release("").status()}) {
    EXPECT_EQ(empty_id.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(ErrorReason(empty_id), "INVALID_REQUEST");
    EXPECT_THAT(FieldViolations(empty_id),
                ElementsAre(Pair("id", ::testing::_)));
  }
  EXPECT_TRUE(service_.Calls("Factorize").empty());
  EXPECT_TRUE(service_.Calls("UpdateValues").empty());
  EXPECT_TRUE(service_.Calls("GetMatrix").empty());
  EXPECT_TRUE(service_.Calls("Release").empty());
  EXPECT_TRUE(service_.Calls("Solve").empty());
  EXPECT_TRUE(service_.Calls("UploadMatrix").empty());
}

TEST_F(ClientTest, ListFollowsEveryPageAndInfoConvertsReplies) {
  std::unique_ptr<Client> client = Connect();
  absl::StatusOr<std::vector<MatrixInfo>> list = client->List();
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0].id, "m1");
  EXPECT_EQ((*list)[2].id, "m3");
  EXPECT_EQ((*list)[2].generation, 3u);
  EXPECT_EQ((*list)[0].structure, "spd_lower");
  EXPECT_EQ((*list)[0].pattern_hash, 0xfedcba9876543210ull);
  EXPECT_EQ((*list)[0].method, "jacobi_ldlt");
  EXPECT_EQ((*list)[0].factorized_generation, 1u);
  EXPECT_EQ((*list)[1].method, "");  // METHOD_AUTO: not factorized
  {
    std::lock_guard lock(service_.mu_);
    ASSERT_EQ(service_.lists_.size(), 3u);
    EXPECT_EQ(service_.lists_[0].page_token(), "");
    EXPECT_EQ(service_.lists_[1].page_token(), "p2");
    EXPECT_EQ(service_.lists_[2].page_token(), "p3");
    for (const pb::ListMatricesRequest& r : service_.lists_) {
      EXPECT_GT(r.page_size(), 0);
      EXPECT_LE(r.page_size(), 1000);
    }
  }
  absl::StatusOr<ServerInfo> info = client->Info();
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->version, "9.9");
  EXPECT_EQ(info->methods, (std::vector<std::string>{"block_jacobi", "ldlt"}));
}

TEST_F(ClientTest, GetMatrixConvertsGenerationsAndMethod) {
  std::unique_ptr<Client> client = Connect();
  absl::StatusOr<MatrixInfo> m = client->GetMatrix("held");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->id, "held");
  EXPECT_EQ(m->n, 12);
  EXPECT_EQ(m->structure, "general");
  EXPECT_EQ(m->generation, 4u);
  EXPECT_EQ(m->factorized_generation, 3u);
  EXPECT_TRUE(m->factorized);
  EXPECT_TRUE(m->stale);
  EXPECT_EQ(m->method, "lu");
  EXPECT_TRUE(service_.Calls("ListMatrices").empty());
}

TEST(ClientConnectTest, UnreachableServerIsUnavailable) {
  ConnectOptions options;
  options.connect_timeout = absl::Milliseconds(200);
  // Port 1 on loopback: nothing listens there.
  absl::Status eager = Client::Connect("127.0.0.1:1", options).status();
  EXPECT_EQ(eager.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(ErrorReason(eager), "UNAVAILABLE");
  absl::StatusOr<std::unique_ptr<Client>> lazy = Client::Connect("127.0.0.1:1");
  ASSERT_TRUE(lazy.ok());
  absl::Status call = (*lazy)->Info().status();
  EXPECT_EQ(call.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(ErrorReason(call), "UNAVAILABLE");
  EXPECT_EQ(ErrorReason(Client::Connect("").status()), "INVALID_OPTION");
}

}  // namespace
}  // namespace factord::client
