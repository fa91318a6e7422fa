#include "server/service/matrix_upload.h"

#include <cmath>
#include <limits>

#include "factord/v1/solver.pb.h"
#include "gtest/gtest.h"
#include "server/error_reason.h"

namespace factord::server {
namespace {

v1::UploadRequest Header(int64_t n, int64_t nnz,
                         v1::Structure s = v1::STRUCTURE_GENERAL,
                         const std::string& id = "m") {
  v1::UploadRequest r;
  r.mutable_header()->set_id(id);
  r.mutable_header()->set_n(n);
  r.mutable_header()->set_nnz(nnz);
  r.mutable_header()->set_structure(s);
  return r;
}

v1::UploadRequest Csr(std::vector<int64_t> row_nnz, std::vector<int32_t> cols,
                      std::vector<double> values) {
  v1::UploadRequest r;
  for (int64_t c : row_nnz) r.mutable_csr()->add_row_nnz(c);
  for (int32_t c : cols) r.mutable_csr()->add_col_idx(c);
  for (double v : values) r.mutable_csr()->add_values(v);
  return r;
}

v1::UploadRequest Coo(std::vector<int32_t> rows, std::vector<int32_t> cols,
                      std::vector<double> values) {
  v1::UploadRequest r;
  for (int32_t c : rows) r.mutable_coo()->add_row_idx(c);
  for (int32_t c : cols) r.mutable_coo()->add_col_idx(c);
  for (double v : values) r.mutable_coo()->add_values(v);
  return r;
}

TEST(MatrixUpload, CsrInChunksWithARowSplitAcrossChunks) {
  ServerConfig config;
  MatrixUpload up(&config);
  // [[4 1 0] [1 4 1] [0 1 4]]
  ASSERT_TRUE(up.Consume(Header(3, 7)).ok());
  ASSERT_TRUE(up.Consume(Csr({2, 3}, {0, 1, 0}, {4, 1, 1})).ok());
  ASSERT_TRUE(up.Consume(Csr({2}, {1, 2, 1, 2}, {4, 1, 1, 4})).ok());
  absl::StatusOr<CsrMatrix> a = up.Finish();
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->row_ptr, (std::vector<int64_t>{0, 2, 5, 7}));
  EXPECT_EQ(a->col_idx, (std::vector<int32_t>{0, 1, 0, 1, 2, 1, 2}));
  EXPECT_EQ(up.id(), "m");
}

TEST(MatrixUpload, CooInAnyOrderKeepsExplicitZeros) {
  ServerConfig config;
  MatrixUpload up(&config);
  ASSERT_TRUE(up.Consume(Header(2, 3, v1::STRUCTURE_SYMMETRIC_LOWER)).ok());
  ASSERT_TRUE(up.Consume(Coo({1, 0}, {1, 0}, {0.0, 2.0})).ok());
  ASSERT_TRUE(up.Consume(Coo({1}, {0}, {-1.0})).ok());
  absl::StatusOr<CsrMatrix> a = up.Finish();
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->structure, Structure::kSymmetricLower);
  EXPECT_EQ(a->values, (std::vector<double>{2.0, -1.0, 0.0}));
}

TEST(MatrixUpload, AnUploadMustNameItsMatrix) {
  ServerConfig config;
  for (const char* id : {"", "with space", "tab\tid"}) {
    MatrixUpload up(&config);
    const absl::Status s = up.Consume(Header(1, 1, v1::STRUCTURE_GENERAL, id));
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << id;
    EXPECT_EQ(EffectiveReason(s), v1::INVALID_REQUEST) << id;
    EXPECT_FALSE(up.has_header());
  }
  MatrixUpload up(&config);
  EXPECT_EQ(
      up.Consume(Header(1, 1, v1::STRUCTURE_GENERAL, std::string(257, 'x')))
          .code(),
      absl::StatusCode::kInvalidArgument);
}

absl::Status FirstError(MatrixUpload& up,
                        const std::vector<v1::UploadRequest>& messages) {
  for (const auto& m : messages) {
    if (absl::Status s = up.Consume(m); !s.ok()) return s;
  }
  return up.Finish().status();
}

TEST(MatrixUpload, BadInputNamesTheProblem) {
  ServerConfig config;
  config.max_n = 100;
  config.max_nnz = 1000;
  struct Case {
    std::vector<v1::UploadRequest> messages;
    absl::StatusCode code;
    std::string needle;
  } cases[] = {
      {{Header(3, 2), Csr({1, 1}, {0, 5}, {1, 1})},
       absl::StatusCode::kInvalidArgument,
       "5"},
      {{Header(3, 2), Coo({0, 1}, {0, 1}, {1, std::nan("")})},
       absl::StatusCode::kInvalidArgument,
       "entry 1"},
      {{Header(3, 5), Coo({0, 1}, {0, 1}, {1, 1})},
       absl::StatusCode::kInvalidArgument,
       "2 of nnz = 5"},
      {{Header(3, 1), Coo({0, 1}, {0, 1}, {1, 1})},
       absl::StatusCode::kInvalidArgument,
       "declared nnz = 1"},
      {{Header(101, 1)}, absl::StatusCode::kResourceExhausted, "max_n = 100"},
      {{Header(10, 1001)},
       absl::StatusCode::kResourceExhausted,
       "max_nnz = 1000"},
      {{Header(0, 0)}, absl::StatusCode::kInvalidArgument, "n = 0"},
      {{Csr({1}, {0}, {1})},
       absl::StatusCode::kInvalidArgument,
       "before the header"},
      {{Header(2, 2), Csr({1, 1}, {0}, {1})},
       absl::StatusCode::kInvalidArgument,
       ""},
      {{Header(2, 2), Csr({1}, {0}, {1}), Coo({1}, {1}, {1})},
       absl::StatusCode::kInvalidArgument,
       "COO chunk in a CSR upload"},
      {{Header(3, 2, v1::STRUCTURE_SYMMETRIC_LOWER),
        Coo({0, 0}, {0, 2}, {1, 1})},
       absl::StatusCode::kInvalidArgument,
       "above the diagonal"},
      {{Header(3, 2)}, absl::StatusCode::kInvalidArgument, "no entries"},
      {{}, absl::StatusCode::kInvalidArgument, "before its header"},
  };
  int i = 0;
  for (const Case& c : cases) {
    MatrixUpload up(&config);
    absl::Status s = FirstError(up, c.messages);
    EXPECT_EQ(s.code(), c.code) << "case " << i << ": " << s;
    EXPECT_NE(s.message().find(c.needle), absl::string_view::npos)
        << "case " << i << ": " << s;
    ++i;
  }
}

TEST(MatrixUpload, HeaderOverTheCacheBudgetIsRefusedBeforeReserving) {
  ServerConfig config;
  config.cache_bytes = 1 << 20;
  MatrixUpload up(&config);
  absl::Status s = up.Consume(Header(1000, 200'000));
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("cache_bytes"), absl::string_view::npos) << s;
}

}  // namespace
}  // namespace factord::server
