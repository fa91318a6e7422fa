// An in-process factord on 127.0.0.1:0 driven through the raw generated
// stub, and helpers that speak the wire protocol directly (so that bad input
// the client library would never send can be sent).
#ifndef FACTORD_TESTS_SERVER_SERVICE_FIXTURE_H_
#define FACTORD_TESTS_SERVER_SERVICE_FIXTURE_H_

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/matrix/csr.h"
#include "factord/v1/solver.grpc.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/server.h"

namespace factord::server::testing {

inline ServerConfig TestConfig() {
  ServerConfig c;
  c.listen = "127.0.0.1:0";
  c.metrics_listen = "127.0.0.1:0";
  c.threads = 1;
  c.workers = 2;
  c.cache_bytes = int64_t{256} << 20;
  return c;
}

// The tridiagonal matrix tridiag(-1, 4, -1) of order n, general storage, or
// its lower triangle.
inline CsrMatrix Tridiagonal(int64_t n, bool lower = false) {
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = lower ? Structure::kSymmetricLower : Structure::kGeneral;
  a.row_ptr.push_back(0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t last = lower ? i : std::min(n - 1, i + 1);
    for (int64_t j = std::max<int64_t>(0, i - 1); j <= last; ++j) {
      a.col_idx.push_back(static_cast<int32_t>(j));
      a.values.push_back(i == j ? 4.0 : -1.0);
    }
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

// y = A x for the full (general) matrix `a`.
inline std::vector<double> Multiply(const CsrMatrix& a,
                                    const std::vector<double>& x) {
  std::vector<double> y(a.rows, 0.0);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      y[i] += a.values[k] * x[a.col_idx[k]];
    }
  }
  return y;
}

inline v1::Structure WireStructure(const CsrMatrix& a) {
  switch (a.structure) {
    case Structure::kGeneral:
      return v1::STRUCTURE_GENERAL;
    case Structure::kSymmetricLower:
      return v1::STRUCTURE_SYMMETRIC_LOWER;
    case Structure::kSpdLower:
      return v1::STRUCTURE_SPD_LOWER;
  }
  return v1::STRUCTURE_UNSPECIFIED;
}

// The ErrorInfo of a failed call's google.rpc.Status details (empty reason
// when there are none), and its RetryInfo / BadRequest when present.
struct WireError {
  google::rpc::ErrorInfo info;
  bool has_retry = false;
  google::rpc::RetryInfo retry;
  google::rpc::BadRequest bad_request;
};
inline WireError DecodeError(const grpc::Status& status) {
  WireError out;
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) return out;
  for (const google::protobuf::Any& any : details.details()) {
    if (any.Is<google::rpc::ErrorInfo>()) any.UnpackTo(&out.info);
    if (any.Is<google::rpc::RetryInfo>()) {
      out.has_retry = any.UnpackTo(&out.retry);
    }
    if (any.Is<google::rpc::BadRequest>()) any.UnpackTo(&out.bad_request);
  }
  return out;
}
inline std::string Reason(const grpc::Status& status) {
  return DecodeError(status).info.reason();
}

class ServiceTest : public ::testing::Test {
 protected:
  void SetUp() override { StartServer(TestConfig()); }

  void StartServer(const ServerConfig& config) {
    stub_.reset();
    server_.reset();
    auto server = Server::Start(config);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    channel_ =
        grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                            grpc::InsecureChannelCredentials());
    stub_ = v1::Solver::NewStub(channel_);
  }

  // Uploads `a` as CSR, `rows_per_chunk` rows per message (entries follow
  // their rows; a zero splits every row's entries over two messages).
  grpc::Status UploadCsr(const std::string& id, const CsrMatrix& a,
                         int rows_per_chunk, v1::MatrixInfo* info,
                         bool replace = false) {
    grpc::ClientContext ctx;
    auto writer = stub_->UploadMatrix(&ctx, info);
    v1::UploadRequest header;
    header.mutable_header()->set_id(id);
    header.mutable_header()->set_replace(replace);
    header.mutable_header()->set_n(a.rows);
    header.mutable_header()->set_nnz(a.nnz());
    header.mutable_header()->set_structure(WireStructure(a));
    writer->Write(header);
    const int step = std::max(1, rows_per_chunk);
    for (int64_t r = 0; r < a.rows; r += step) {
      const int64_t end = std::min<int64_t>(a.rows, r + step);
      v1::UploadRequest chunk;
      for (int64_t i = r; i < end; ++i) {
        chunk.mutable_csr()->add_row_nnz(a.row_ptr[i + 1] - a.row_ptr[i]);
      }
      int64_t k = a.row_ptr[r];
      if (rows_per_chunk == 0 && a.row_ptr[end] - k > 1) {
        // Half of the row's entries now, the rest in a message of its own.
        const int64_t half = k + (a.row_ptr[end] - k) / 2;
        for (; k < half; ++k) {
          chunk.mutable_csr()->add_col_idx(a.col_idx[k]);
          chunk.mutable_csr()->add_values(a.values[k]);
        }
        writer->Write(chunk);
        chunk.Clear();
        chunk.mutable_csr();
      }
      for (; k < a.row_ptr[end]; ++k) {
        chunk.mutable_csr()->add_col_idx(a.col_idx[k]);
        chunk.mutable_csr()->add_values(a.values[k]);
      }
      writer->Write(chunk);
    }
    writer->WritesDone();
    return writer->Finish();
  }

  // Sends exactly `messages`, then half-closes.
  grpc::Status UploadRaw(const std::vector<v1::UploadRequest>& messages,
                         v1::MatrixInfo* info = nullptr) {
    v1::MatrixInfo ignored;
    grpc::ClientContext ctx;
    auto writer = stub_->UploadMatrix(&ctx, info ? info : &ignored);
    for (const auto& m : messages) {
      if (!writer->Write(m)) break;
    }
    writer->WritesDone();
    return writer->Finish();
  }

  grpc::Status Factorize(const std::string& id, v1::Method method,
                         v1::FactorizeReply* reply,
                         const v1::FactorOptions& options = {},
                         uint64_t expected_generation = 0) {
    grpc::ClientContext ctx;
    v1::FactorizeRequest req;
    req.set_id(id);
    req.set_expected_generation(expected_generation);
    req.set_method(method);
    *req.mutable_options() = options;
    return stub_->Factorize(&ctx, req, reply);
  }

  struct Solution {
    std::vector<double> x;
    v1::SolveReply report;  // the last chunk
    int chunks = 0;
  };

  // Sends the right-hand sides interleaved, `chunk` values per message, and
  // collects the solutions by rhs_index.
  grpc::Status Solve(const std::string& id,
                     const std::vector<std::vector<double>>& rhs, int chunk,
                     std::map<uint32_t, Solution>* out,
                     const v1::SolveOptions& options = {},
                     uint64_t expected_generation = 0) {
    grpc::ClientContext ctx;
    auto stream = stub_->Solve(&ctx);
    bool first = true;
    std::vector<size_t> sent(rhs.size(), 0);
    std::vector<bool> done(rhs.size(), false);
    size_t remaining = rhs.size();
    while (remaining > 0) {
      for (size_t r = 0; r < rhs.size(); ++r) {
        if (done[r]) continue;
        v1::SolveRequest req;
        if (first) {
          req.set_id(id);
          req.set_expected_generation(expected_generation);
          *req.mutable_options() = options;
          first = false;
        }
        req.set_rhs_index(static_cast<uint32_t>(r));
        req.set_offset(static_cast<int64_t>(sent[r]));
        const size_t end = std::min(rhs[r].size(), sent[r] + chunk);
        for (size_t k = sent[r]; k < end; ++k) req.add_values(rhs[r][k]);
        sent[r] = end;
        if (end == rhs[r].size()) {
          req.set_last(true);
          done[r] = true;
          --remaining;
        }
        stream->Write(req);
      }
    }
    stream->WritesDone();
    v1::SolveReply reply;
    while (stream->Read(&reply)) {
      Solution& s = (*out)[reply.rhs_index()];
      if (static_cast<int64_t>(s.x.size()) <
          reply.offset() + reply.values_size()) {
        s.x.resize(reply.offset() + reply.values_size());
      }
      for (int k = 0; k < reply.values_size(); ++k) {
        s.x[reply.offset() + k] = reply.values(k);
      }
      ++s.chunks;
      if (reply.last()) s.report = reply;
    }
    return stream->Finish();
  }

  std::unique_ptr<Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Solver::Stub> stub_;
};

}  // namespace factord::server::testing

#endif  // FACTORD_TESTS_SERVER_SERVICE_FIXTURE_H_
