#include "server/service/request_log.h"

#include <string>

#include "gtest/gtest.h"

namespace factord::server {
namespace {

TEST(RequestLog, OneLinePerRequestWithIdRpcMatrixCodeAndDuration) {
  Metrics metrics("0.1.0", "cpu");
  ::testing::internal::CaptureStderr();
  {
    RequestLog log(&metrics, "Factorize", nullptr);
    log.set_matrix_id("kkt-7");
    EXPECT_EQ(log.request_id().front(), 'r');
    log.Finish(
        grpc::Status(grpc::StatusCode::NOT_FOUND, "matrix 'kkt-7'\nis gone"));
    log.Finish(grpc::Status::OK);  // ignored: one line per request
  }
  { RequestLog abandoned(&metrics, "Solve", nullptr); }
  const std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("rpc=Factorize matrix=kkt-7 code=NOT_FOUND duration_s="),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("message=\"matrix 'kkt-7' is gone\""), std::string::npos)
      << out;
  EXPECT_NE(out.find("rpc=Solve matrix=- code=CANCELLED"), std::string::npos)
      << out;
  int lines = 0;
  for (char c : out) lines += c == '\n';
  EXPECT_EQ(lines, 2);
  const std::string text = metrics.Scrape();
  EXPECT_NE(text.find("factord_rpc_requests_total{code=\"NOT_FOUND\",method="
                      "\"Factorize\"} 1"),
            std::string::npos);
  EXPECT_NE(text.find("factord_inflight_requests 0"), std::string::npos);
}

}  // namespace
}  // namespace factord::server
