// Service tests: an in-process factord on loopback, driven by the raw stub.
#include "server/service/solver_service.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/solver/solver.h"
#include "server/service_fixture.h"

namespace factord::server::testing {
namespace {

double MaxError(const std::vector<double>& x, const std::vector<double>& y) {
  double e = 0;
  for (size_t i = 0; i < x.size(); ++i) e = std::max(e, std::abs(x[i] - y[i]));
  return x.size() == y.size() ? e : std::numeric_limits<double>::infinity();
}

v1::UploadRequest HeaderMessage(const std::string& id, int64_t n, int64_t nnz) {
  v1::UploadRequest r;
  r.mutable_header()->set_id(id);
  r.mutable_header()->set_n(n);
  r.mutable_header()->set_nnz(nnz);
  r.mutable_header()->set_structure(v1::STRUCTURE_GENERAL);
  return r;
}

v1::UploadRequest CooMessage(std::vector<int32_t> rows,
                             std::vector<int32_t> cols,
                             std::vector<double> values) {
  v1::UploadRequest r;
  for (int32_t v : rows) r.mutable_coo()->add_row_idx(v);
  for (int32_t v : cols) r.mutable_coo()->add_col_idx(v);
  for (double v : values) r.mutable_coo()->add_values(v);
  return r;
}

bool Mentions(const grpc::Status& s, const std::string& needle) {
  return s.error_message().find(needle) != std::string::npos;
}

TEST_F(ServiceTest, UploadCsrInChunksAndCooGiveTheSameMatrix) {
  const CsrMatrix a = Tridiagonal(9);
  v1::MatrixInfo by_rows, split_rows, by_coo;
  ASSERT_TRUE(UploadCsr("rows", a, 2, &by_rows).ok());
  grpc::Status s = UploadCsr("split", a, 0, &split_rows);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(by_rows.id(), "rows");
  EXPECT_EQ(by_rows.n(), 9);
  EXPECT_EQ(by_rows.nnz(), a.nnz());
  EXPECT_EQ(by_rows.pattern_hash(), PatternHash(a));
  EXPECT_EQ(split_rows.pattern_hash(), PatternHash(a));
  EXPECT_GT(by_rows.bytes_received(), 0);
  EXPECT_FALSE(by_rows.factorized());

  // COO, entries shuffled, in three chunks.
  std::vector<int64_t> order(a.nnz());
  for (int64_t k = 0; k < a.nnz(); ++k) order[k] = k;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  std::vector<int32_t> rows_of(a.nnz());
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) rows_of[k] = i;
  }
  std::vector<v1::UploadRequest> messages = {HeaderMessage("coo", 9, a.nnz())};
  for (int64_t start = 0; start < a.nnz(); start += 10) {
    v1::UploadRequest chunk;
    for (int64_t p = start; p < std::min<int64_t>(a.nnz(), start + 10); ++p) {
      chunk.mutable_coo()->add_row_idx(rows_of[order[p]]);
      chunk.mutable_coo()->add_col_idx(a.col_idx[order[p]]);
      chunk.mutable_coo()->add_values(a.values[order[p]]);
    }
    messages.push_back(chunk);
  }
  s = UploadRaw(messages, &by_coo);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(by_coo.pattern_hash(), PatternHash(a));

  grpc::ClientContext ctx;
  v1::ListMatricesReply list;
  ASSERT_TRUE(stub_->ListMatrices(&ctx, {}, &list).ok());
  EXPECT_EQ(list.matrices_size(), 3);
}

TEST_F(ServiceTest, UploadWithoutIdIsRefused) {
  v1::MatrixInfo info;
  grpc::Status s = UploadCsr("", Tridiagonal(3), 3, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Reason(s), "INVALID_REQUEST");
  const WireError e = DecodeError(s);
  ASSERT_EQ(e.bad_request.field_violations_size(), 1);
  EXPECT_EQ(e.bad_request.field_violations(0).field(), "header.id");
  EXPECT_EQ(e.info.domain(), "factord.v1");
}

TEST_F(ServiceTest, UploadOfAnExistingIdIsAlreadyExistsUnlessReplaced) {
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", Tridiagonal(3), 3, &info).ok());
  EXPECT_EQ(info.generation(), 1u);
  grpc::Status s = UploadCsr("m", Tridiagonal(4), 4, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(Reason(s), "ALREADY_EXISTS");
  ASSERT_TRUE(UploadCsr("m", Tridiagonal(4), 4, &info, /*replace=*/true).ok());
  EXPECT_EQ(info.n(), 4);
  EXPECT_EQ(info.generation(), 2u);
  grpc::ClientContext ctx;
  v1::GetMatrixRequest get;
  get.set_id("m");
  v1::MatrixInfo got;
  ASSERT_TRUE(stub_->GetMatrix(&ctx, get, &got).ok());
  EXPECT_EQ(got.n(), 4);
  EXPECT_EQ(got.generation(), 2u);
  EXPECT_FALSE(got.factorized());
  EXPECT_EQ(got.method(), v1::METHOD_AUTO);
}

TEST_F(ServiceTest, GetMatrixOfAnUnknownIdIsNotFound) {
  grpc::ClientContext ctx;
  v1::GetMatrixRequest get;
  get.set_id("nobody");
  v1::MatrixInfo got;
  grpc::Status s = stub_->GetMatrix(&ctx, get, &got);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Reason(s), "NOT_FOUND");
  grpc::ClientContext ctx2;
  get.set_id("");
  s = stub_->GetMatrix(&ctx2, get, &got);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Reason(s), "INVALID_REQUEST");
}

TEST_F(ServiceTest, ListMatricesPagesInIdOrder) {
  v1::MatrixInfo info;
  std::vector<std::string> ids;
  for (int i = 0; i < 7; ++i) {
    ids.push_back("m" + std::to_string(6 - i));
    ASSERT_TRUE(UploadCsr(ids.back(), Tridiagonal(3), 3, &info).ok());
  }
  std::sort(ids.begin(), ids.end());
  std::vector<std::string> seen;
  std::string token;
  int pages = 0;
  do {
    grpc::ClientContext ctx;
    v1::ListMatricesRequest req;
    req.set_page_size(3);
    req.set_page_token(token);
    v1::ListMatricesReply reply;
    ASSERT_TRUE(stub_->ListMatrices(&ctx, req, &reply).ok());
    EXPECT_LE(reply.matrices_size(), 3);
    for (const v1::MatrixInfo& m : reply.matrices()) seen.push_back(m.id());
    token = reply.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen, ids);
  grpc::ClientContext ctx;
  v1::ListMatricesRequest bad;
  bad.set_page_size(1001);
  v1::ListMatricesReply reply;
  grpc::Status s = stub_->ListMatrices(&ctx, bad, &reply);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Reason(s), "INVALID_REQUEST");
}

TEST_F(ServiceTest, GenerationsMakeRetriesSafe) {
  const CsrMatrix a = Tridiagonal(6);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("g", a, 6, &info).ok());
  ASSERT_EQ(info.generation(), 1u);
  auto update = [&](double scale, uint64_t expected, v1::MatrixInfo* reply) {
    grpc::ClientContext ctx;
    auto writer = stub_->UpdateValues(&ctx, reply);
    v1::UpdateValuesRequest req;
    req.set_id("g");
    req.set_expected_generation(expected);
    for (double v : a.values) req.add_values(scale * v);
    writer->Write(req);
    writer->WritesDone();
    return writer->Finish();
  };
  v1::MatrixInfo updated;
  ASSERT_TRUE(update(2.0, 1, &updated).ok());
  EXPECT_EQ(updated.generation(), 2u);
  // The same update retried (its reply was lost, say): applied once only.
  grpc::Status s = update(2.0, 1, &updated);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  const WireError e = DecodeError(s);
  EXPECT_EQ(e.info.reason(), "GENERATION_MISMATCH");
  EXPECT_EQ(e.info.metadata().at("expected"), "1");
  EXPECT_EQ(e.info.metadata().at("current"), "2");
  grpc::ClientContext ctx;
  v1::GetMatrixRequest get;
  get.set_id("g");
  v1::MatrixInfo got;
  ASSERT_TRUE(stub_->GetMatrix(&ctx, get, &got).ok());
  EXPECT_EQ(got.generation(), 2u);

  v1::FactorizeReply fr;
  s = Factorize("g", v1::METHOD_LU, &fr, {}, /*expected_generation=*/1);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(Reason(s), "GENERATION_MISMATCH");
  ASSERT_TRUE(Factorize("g", v1::METHOD_LU, &fr, {}, 2).ok());
  EXPECT_EQ(fr.generation(), 2u);
  EXPECT_EQ(fr.method(), v1::METHOD_LU);
  EXPECT_EQ(fr.factor_status(), v1::FACTOR_STATUS_OK);

  std::map<uint32_t, Solution> out;
  const std::vector<double> b = Multiply(a, std::vector<double>(6, 1.0));
  s = Solve("g", {b}, 6, &out, {}, /*expected_generation=*/1);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(Reason(s), "GENERATION_MISMATCH");
  out.clear();
  ASSERT_TRUE(Solve("g", {b}, 6, &out, {}, 2).ok());
  EXPECT_EQ(out[0].report.status(), v1::SOLVE_STATUS_CONVERGED);
  EXPECT_LT(MaxError(out[0].x, std::vector<double>(6, 0.5)), 1e-12);
}

TEST_F(ServiceTest, OversizedRequestMessagesAreRefusedWithTheirReason) {
  ServerConfig config = TestConfig();
  config.max_message_bytes = 4096;
  StartServer(config);
  const CsrMatrix a = Tridiagonal(200);  // one message: about 6 KiB
  v1::MatrixInfo info;
  grpc::Status s = UploadCsr("big", a, 400, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(Reason(s), "MESSAGE_TOO_LARGE") << s.error_message();
  ASSERT_TRUE(UploadCsr("big", a, 20, &info).ok());  // 20 rows a message
}

TEST_F(ServiceTest, BadUploadsNameTheProblemAndTheDaemonKeepsServing) {
  ServerConfig config = TestConfig();
  config.max_n = 1000;
  config.max_nnz = 5000;
  StartServer(config);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::string what;
    std::vector<v1::UploadRequest> messages;
    grpc::StatusCode code;
    std::string needle;
    std::string reason;
  } cases[] = {
      {"column index out of range",
       {HeaderMessage("b", 3, 2), CooMessage({0, 1}, {0, 3}, {1, 1})},
       grpc::StatusCode::INVALID_ARGUMENT,
       "column 3 out of range",
       "INVALID_MATRIX"},
      {"row index out of range",
       {HeaderMessage("b", 3, 1), CooMessage({-1}, {0}, {1})},
       grpc::StatusCode::INVALID_ARGUMENT,
       "row -1 out of range",
       "INVALID_MATRIX"},
      {"NaN value",
       {HeaderMessage("b", 3, 2), CooMessage({0, 1}, {0, 1}, {1, nan})},
       grpc::StatusCode::INVALID_ARGUMENT,
       "entry 1",
       "INVALID_MATRIX"},
      {"Inf value",
       {HeaderMessage("b", 3, 1), CooMessage({2}, {2}, {inf})},
       grpc::StatusCode::INVALID_ARGUMENT,
       "not finite",
       "INVALID_MATRIX"},
      {"declared nnz larger than the entries sent",
       {HeaderMessage("b", 3, 4), CooMessage({0, 1}, {0, 1}, {1, 1})},
       grpc::StatusCode::INVALID_ARGUMENT,
       "2 of nnz = 4",
       "INVALID_MATRIX"},
      {"more entries than the declared nnz",
       {HeaderMessage("b", 3, 1), CooMessage({0, 1}, {0, 1}, {1, 1})},
       grpc::StatusCode::INVALID_ARGUMENT,
       "declared nnz = 1",
       "INVALID_MATRIX"},
      {"duplicate entry",
       {HeaderMessage("b", 3, 2), CooMessage({1, 1}, {0, 0}, {1, 1})},
       grpc::StatusCode::INVALID_ARGUMENT,
       "duplicate",
       "INVALID_MATRIX"},
      {"n over the limit",
       {HeaderMessage("b", 1001, 1)},
       grpc::StatusCode::RESOURCE_EXHAUSTED,
       "max_n = 1000",
       "MATRIX_TOO_LARGE"},
      {"nnz over the limit",
       {HeaderMessage("b", 100, 5001)},
       grpc::StatusCode::RESOURCE_EXHAUSTED,
       "max_nnz = 5000",
       "MATRIX_TOO_LARGE"},
      {"no header",
       {CooMessage({0}, {0}, {1})},
       grpc::StatusCode::INVALID_ARGUMENT,
       "before the header",
       "INVALID_REQUEST"},
  };
  for (const Case& c : cases) {
    grpc::Status s = UploadRaw(c.messages);
    EXPECT_EQ(s.error_code(), c.code) << c.what << ": " << s.error_message();
    EXPECT_TRUE(Mentions(s, c.needle)) << c.what << ": " << s.error_message();
    EXPECT_EQ(Reason(s), c.reason) << c.what;
  }

  // A CSR stream that stops half way: 3 of 6 rows.
  const CsrMatrix a = Tridiagonal(6);
  v1::UploadRequest half;
  for (int i = 0; i < 3; ++i)
    half.mutable_csr()->add_row_nnz(a.row_ptr[i + 1] - a.row_ptr[i]);
  for (int64_t k = 0; k < a.row_ptr[3]; ++k) {
    half.mutable_csr()->add_col_idx(a.col_idx[k]);
    half.mutable_csr()->add_values(a.values[k]);
  }
  grpc::Status s = UploadRaw({HeaderMessage("half", 6, a.nnz()), half});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << s.error_message();
  EXPECT_TRUE(Mentions(s, "3")) << s.error_message();

  // A client that disconnects mid-upload.
  {
    grpc::ClientContext ctx;
    v1::MatrixInfo info;
    auto writer = stub_->UploadMatrix(&ctx, &info);
    writer->Write(HeaderMessage("gone", 6, a.nnz()));
    writer->Write(half);
    ctx.TryCancel();
    EXPECT_EQ(writer->Finish().error_code(), grpc::StatusCode::CANCELLED);
  }

  // Nothing partial was kept, and another client is served.
  grpc::ClientContext list_ctx;
  v1::ListMatricesReply list;
  ASSERT_TRUE(stub_->ListMatrices(&list_ctx, {}, &list).ok());
  EXPECT_EQ(list.matrices_size(), 0);
  auto other = v1::Solver::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                          grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  v1::MatrixInfo info;
  auto writer = other->UploadMatrix(&ctx, &info);
  writer->Write(HeaderMessage("good", 2, 2));
  writer->Write(CooMessage({0, 1}, {0, 1}, {1, 1}));
  writer->WritesDone();
  ASSERT_TRUE(writer->Finish().ok());
  EXPECT_EQ(info.id(), "good");
}

TEST_F(ServiceTest, UnknownIdIsNotFound) {
  v1::FactorizeReply fr;
  grpc::Status s = Factorize("nobody", v1::METHOD_LU, &fr);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << s.error_message();
  EXPECT_TRUE(Mentions(s, "nobody"));

  std::map<uint32_t, Solution> out;
  s = Solve("nobody", {{1.0}}, 1, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << s.error_message();

  grpc::ClientContext uctx;
  v1::MatrixInfo info;
  auto writer = stub_->UpdateValues(&uctx, &info);
  v1::UpdateValuesRequest update;
  update.set_id("nobody");
  update.add_values(1);
  writer->Write(update);
  writer->WritesDone();
  EXPECT_EQ(writer->Finish().error_code(), grpc::StatusCode::NOT_FOUND);

  grpc::ClientContext rctx;
  v1::ReleaseRequest release;
  release.set_id("nobody");
  v1::ReleaseReply rr;
  EXPECT_EQ(stub_->Release(&rctx, release, &rr).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(ServiceTest, SolveThreeRightHandSidesInChunks) {
  // Small messages force chunked replies: 1 KiB -> 64 values per reply.
  ServerConfig config = TestConfig();
  config.max_message_bytes = 1024;
  StartServer(config);
  const int64_t n = 200;
  const CsrMatrix a = Tridiagonal(n);
  v1::MatrixInfo info;
  grpc::Status s = UploadCsr("A", a, 20, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();

  v1::FactorizeReply fr;
  s = Factorize("A", v1::METHOD_LU, &fr);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(fr.method(), v1::METHOD_LU);
  EXPECT_EQ(fr.factor_status(), v1::FACTOR_STATUS_OK);
  EXPECT_FALSE(fr.analysis_reused());

  std::vector<std::vector<double>> x_true(3, std::vector<double>(n));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(-1, 1);
  for (int64_t i = 0; i < n; ++i) {
    x_true[0][i] = 1.0 + i;
    x_true[1][i] = uni(rng);
    x_true[2][i] = (i % 7 == 0) ? 1.0 : 0.0;
  }
  std::vector<std::vector<double>> b;
  for (const auto& x : x_true) b.push_back(Multiply(a, x));
  std::map<uint32_t, Solution> out;
  v1::SolveOptions options;
  options.set_krylov(v1::KRYLOV_NONE);
  s = Solve("A", b, 37, &out, options);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(out.size(), 3u);
  for (uint32_t r = 0; r < 3; ++r) {
    const Solution& sol = out[r];
    EXPECT_LT(MaxError(sol.x, x_true[r]), 1e-10) << "rhs " << r;
    EXPECT_EQ(sol.chunks, 4) << "rhs " << r;  // 200 values, 64 per reply
    EXPECT_TRUE(sol.report.last());
    EXPECT_EQ(sol.report.status(), v1::SOLVE_STATUS_CONVERGED);
    EXPECT_LT(sol.report.relative_residual(), 1e-12);
    EXPECT_LT(sol.report.backward_error(), 1e-12);
  }
}

TEST_F(ServiceTest, SolveBeforeFactorizeAndOnStaleValuesIsFailedPrecondition) {
  const CsrMatrix a = Tridiagonal(20);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("ipm", a, 5, &info).ok());
  const std::vector<double> b(20, 1.0);
  std::map<uint32_t, Solution> out;
  grpc::Status s = Solve("ipm", {b}, 20, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_TRUE(Mentions(s, "Factorize")) << s.error_message();
  EXPECT_EQ(Reason(s), "NOT_FACTORIZED");

  v1::FactorizeReply fr;
  s = Factorize("ipm", v1::METHOD_LU, &fr);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_FALSE(fr.analysis_reused());

  // New values for the same pattern: 2 * A.
  grpc::ClientContext uctx;
  v1::MatrixInfo updated;
  auto writer = stub_->UpdateValues(&uctx, &updated);
  v1::UpdateValuesRequest first;
  first.set_id("ipm");
  for (int64_t k = 0; k < 10; ++k) first.add_values(2 * a.values[k]);
  writer->Write(first);
  v1::UpdateValuesRequest rest;
  for (int64_t k = 10; k < a.nnz(); ++k) rest.add_values(2 * a.values[k]);
  writer->Write(rest);
  writer->WritesDone();
  s = writer->Finish();
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(updated.stale());
  EXPECT_TRUE(updated.factorized());
  EXPECT_EQ(updated.pattern_hash(), info.pattern_hash());

  out.clear();
  s = Solve("ipm", {b}, 20, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_TRUE(Mentions(s, "UpdateValues")) << s.error_message();
  EXPECT_EQ(Reason(s), "STALE_FACTOR");

  s = Factorize("ipm", v1::METHOD_LU, &fr);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(fr.analysis_reused());
  EXPECT_EQ(fr.timings().analyze_s(), 0);

  out.clear();
  s = Solve("ipm", {Multiply(a, std::vector<double>(20, 1.0))}, 6, &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // (2A) x = A 1  =>  x = 1/2.
  EXPECT_LT(MaxError(out[0].x, std::vector<double>(20, 0.5)), 1e-12);

  // A second ID with the same pattern shares the analysis.
  ASSERT_TRUE(UploadCsr("twin", a, 20, &info).ok());
  s = Factorize("twin", v1::METHOD_LU, &fr);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(fr.analysis_reused());
}

TEST_F(ServiceTest, BadUpdatesAreRejectedAndLeaveTheMatrixAlone) {
  const CsrMatrix a = Tridiagonal(4);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", a, 4, &info).ok());
  auto update = [&](std::vector<double> values) {
    grpc::ClientContext ctx;
    v1::MatrixInfo reply;
    auto writer = stub_->UpdateValues(&ctx, &reply);
    v1::UpdateValuesRequest req;
    req.set_id("m");
    for (double v : values) req.add_values(v);
    writer->Write(req);
    writer->WritesDone();
    return writer->Finish();
  };
  grpc::Status s = update(std::vector<double>(a.nnz() - 1, 1.0));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Mentions(s, "nnz = 10")) << s.error_message();
  s = update(std::vector<double>(a.nnz() + 1, 1.0));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  std::vector<double> with_nan(a.nnz(), 1.0);
  with_nan[5] = std::nan("");
  s = update(with_nan);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Mentions(s, "value 5")) << s.error_message();

  grpc::ClientContext ctx;
  v1::ListMatricesReply list;
  ASSERT_TRUE(stub_->ListMatrices(&ctx, {}, &list).ok());
  ASSERT_EQ(list.matrices_size(), 1);
  EXPECT_FALSE(list.matrices(0).stale());
}

TEST_F(ServiceTest, SolveStreamProtocolErrors) {
  const CsrMatrix a = Tridiagonal(8);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", a, 8, &info).ok());
  v1::FactorizeReply fr;
  ASSERT_TRUE(Factorize("m", v1::METHOD_LU, &fr).ok());
  auto run = [&](const std::vector<v1::SolveRequest>& requests) {
    grpc::ClientContext ctx;
    auto stream = stub_->Solve(&ctx);
    for (const auto& r : requests) stream->Write(r);
    stream->WritesDone();
    v1::SolveReply reply;
    while (stream->Read(&reply)) {
    }
    return stream->Finish();
  };
  auto chunk = [](uint32_t index, int64_t offset, int count, bool last) {
    v1::SolveRequest r;
    r.set_rhs_index(index);
    r.set_offset(offset);
    for (int k = 0; k < count; ++k) r.add_values(1.0);
    r.set_last(last);
    return r;
  };
  v1::SolveRequest first = chunk(0, 0, 4, false);
  first.set_id("m");
  grpc::Status s = run({first, chunk(0, 5, 3, true)});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Mentions(s, "expected offset 4")) << s.error_message();
  s = run({first, chunk(0, 4, 2, true)});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Mentions(s, "6 of n = 8")) << s.error_message();
  s = run({first, chunk(0, 4, 5, true)});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Mentions(s, "past n = 8")) << s.error_message();
  s = run({first});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Mentions(s, "not completed")) << s.error_message();
  v1::SolveRequest nan_first = first;
  nan_first.set_values(2, std::nan(""));
  s = run({nan_first});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Mentions(s, "entry 2")) << s.error_message();
  v1::SolveRequest no_id = chunk(0, 0, 8, true);
  s = run({no_id});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(ServiceTest, ReleaseFreesAndServerInfoReportsLimits) {
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", Tridiagonal(10), 10, &info).ok());
  grpc::ClientContext ictx;
  v1::ServerInfoReply server_info;
  ASSERT_TRUE(stub_->ServerInfo(&ictx, {}, &server_info).ok());
  EXPECT_EQ(server_info.backend(), "cpu");
  // --backend=auto without a GPU: the device field says why it is the CPU.
  EXPECT_TRUE(server_info.device().starts_with("host cpu: no CUDA device: ") ||
              server_info.device() ==
                  "host cpu: this build has no CUDA backend")
      << server_info.device();
  EXPECT_EQ(server_info.cache_entries(), 1);
  EXPECT_EQ(server_info.cache_bytes_used(), info.bytes());
  EXPECT_EQ(server_info.cache_bytes_budget(), TestConfig().cache_bytes);
  EXPECT_EQ(server_info.max_n(), TestConfig().max_n);
  EXPECT_EQ(server_info.workers(), 2);
  EXPECT_EQ(server_info.threads(), 1);

  grpc::ClientContext rctx;
  v1::ReleaseRequest release;
  release.set_id("m");
  v1::ReleaseReply freed;
  ASSERT_TRUE(stub_->Release(&rctx, release, &freed).ok());
  EXPECT_EQ(freed.bytes_freed(), info.bytes());
  v1::FactorizeReply fr;
  EXPECT_EQ(Factorize("m", v1::METHOD_LU, &fr).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(ServiceTest, CacheBudgetEvictsLeastRecentlyUsed) {
  ServerConfig config = TestConfig();
  const CsrMatrix a = Tridiagonal(100);  // 298 entries: 4384 bytes
  config.cache_bytes = a.bytes() * 2 + 100;
  StartServer(config);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("first", a, 50, &info).ok());
  ASSERT_TRUE(UploadCsr("second", a, 50, &info).ok());
  ASSERT_TRUE(UploadCsr("third", a, 50, &info).ok());
  v1::FactorizeReply fr;
  EXPECT_EQ(Factorize("first", v1::METHOD_LU, &fr).error_code(),
            grpc::StatusCode::NOT_FOUND);
  grpc::ClientContext ctx;
  v1::ListMatricesReply list;
  ASSERT_TRUE(stub_->ListMatrices(&ctx, {}, &list).ok());
  ASSERT_EQ(list.matrices_size(), 2);  // listed in ID order
  EXPECT_EQ(list.matrices(0).id(), "second");
  EXPECT_EQ(list.matrices(1).id(), "third");
}

TEST_F(ServiceTest, FactorizationOverTheBudgetIsResourceExhausted) {
  ServerConfig config = TestConfig();
  const CsrMatrix a = Tridiagonal(100);
  config.cache_bytes = a.bytes() + 16;  // the matrix fits, its factor cannot
  StartServer(config);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", a, 50, &info).ok());
  v1::FactorizeReply fr;
  grpc::Status s = Factorize("m", v1::METHOD_LU, &fr);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << s.error_message();
  EXPECT_TRUE(Mentions(s, "cache_bytes")) << s.error_message();
  // The matrix itself stays.
  grpc::ClientContext ctx;
  v1::ListMatricesReply list;
  ASSERT_TRUE(stub_->ListMatrices(&ctx, {}, &list).ok());
  EXPECT_EQ(list.matrices_size(), 1);
}

TEST_F(ServiceTest, IdleMatricesAreReleasedAfterTheTtl) {
  ServerConfig config = TestConfig();
  config.idle_ttl = absl::Milliseconds(200);
  StartServer(config);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("idle", Tridiagonal(5), 5, &info).ok());
  // Released after the TTL; polled so that a loaded machine cannot make the
  // test flaky, with a bound far above the TTL.
  v1::ListMatricesReply list;
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  do {
    absl::SleepFor(absl::Milliseconds(100));
    grpc::ClientContext ctx;
    list.Clear();
    ASSERT_TRUE(stub_->ListMatrices(&ctx, {}, &list).ok());
  } while (list.matrices_size() != 0 && absl::Now() < give_up);
  EXPECT_EQ(list.matrices_size(), 0);
}

// Every method the server offers (ServerInfo.methods: every value of the
// wire's Method, lu only in a build with UMFPACK) factorizes a symmetric
// tridiagonal system as that method, with an OK status, and its default
// solve reaches the tolerance asked for.
TEST_F(ServiceTest, EveryOfferedMethodFactorizesAndSolves) {
  grpc::ClientContext info_ctx;
  v1::ServerInfoReply server_info;
  ASSERT_TRUE(stub_->ServerInfo(&info_ctx, {}, &server_info).ok());
  const google::protobuf::EnumDescriptor* methods = v1::Method_descriptor();
  EXPECT_EQ(server_info.methods_size(),
            methods->value_count() - (LuAvailable() ? 0 : 1));
  for (int k = 0; k < methods->value_count(); ++k) {
    const auto m = static_cast<v1::Method>(methods->value(k)->number());
    const bool offered =
        std::find(server_info.methods().begin(), server_info.methods().end(),
                  m) != server_info.methods().end();
    EXPECT_EQ(offered, m != v1::METHOD_LU || LuAvailable())
        << v1::Method_Name(m);
  }

  const CsrMatrix lower = Tridiagonal(30, /*lower=*/true);
  const CsrMatrix full = Tridiagonal(30);
  std::vector<double> x_true(30);
  for (int i = 0; i < 30; ++i) x_true[i] = 1.0 + 0.1 * i;
  const std::vector<double> b = Multiply(full, x_true);
  v1::MatrixInfo info;
  ASSERT_TRUE(UploadCsr("m", lower, 30, &info).ok());
  v1::SolveOptions solve;
  solve.set_tolerance(1e-10);
  int solved = 0;
  for (int m : server_info.methods()) {
    const auto method = static_cast<v1::Method>(m);
    const std::string name = v1::Method_Name(method);
    v1::FactorizeReply fr;
    grpc::Status s = Factorize("m", method, &fr);
    ASSERT_TRUE(s.ok()) << name << ": " << s.error_message();
    // auto picks ldlt for a symmetric matrix that fits the cache.
    EXPECT_EQ(fr.method(), method == v1::METHOD_AUTO ? v1::METHOD_LDLT : method)
        << name;
    EXPECT_EQ(fr.factor_status(), v1::FACTOR_STATUS_OK) << name;
    std::map<uint32_t, Solution> out;
    s = Solve("m", {b}, 30, &out, solve);
    ASSERT_TRUE(s.ok()) << name << ": " << s.error_message();
    EXPECT_EQ(out[0].report.status(), v1::SOLVE_STATUS_CONVERGED) << name;
    EXPECT_LE(out[0].report.relative_residual(), 1e-10) << name;
    EXPECT_LT(MaxError(out[0].x, x_true), 1e-8) << name;
    ++solved;
  }
  EXPECT_EQ(solved, server_info.methods_size());
}

}  // namespace
}  // namespace factord::server::testing
