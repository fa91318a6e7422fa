#include "server/metrics/metrics_http.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "httplib.h"

namespace factord::server {
namespace {

bool Contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

TEST(MetricsHttp, ServesMetricsAndPassesPromtool) {
  Metrics m("0.1.0", "cpu");
  m.ObserveFactorize("lu", "cpu", 0.2);
  m.ObserveSolve("lu", "cpu", 0.05, 12, 1e-12);
  absl::StatusOr<std::unique_ptr<MetricsHttpServer>> http =
      MetricsHttpServer::Start("127.0.0.1:0", &m);
  ASSERT_TRUE(http.ok()) << http.status();
  ASSERT_GT((*http)->port(), 0);
  httplib::Client client("127.0.0.1", (*http)->port());
  auto res = client.Get("/metrics");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_TRUE(Contains(res->get_header_value("Content-Type"), "text/plain"));
  EXPECT_TRUE(Contains(res->body, "factord_solve_duration_seconds_bucket"));
  EXPECT_EQ(client.Get("/other")->status, 404);

  if (std::system("command -v promtool > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "promtool not installed (Debian package prometheus): "
                    "the exposition format was not checked";
  }
  const std::string path = ::testing::TempDir() + "/factord_metrics.txt";
  std::ofstream(path) << res->body;
  const std::string cmd =
      "promtool check metrics < " + path + " > /dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << res->body;
  std::remove(path.c_str());
}

TEST(MetricsHttp, BadAddressIsAnError) {
  Metrics m("0.1.0", "cpu");
  EXPECT_EQ(MetricsHttpServer::Start("nonsense", &m).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(MetricsHttp, ReadyAnswersTheReadinessCallback) {
  Metrics m("0.1.0", "cpu");
  std::atomic<bool> ready{false};
  absl::StatusOr<std::unique_ptr<MetricsHttpServer>> http =
      MetricsHttpServer::Start("127.0.0.1:0", &m,
                               [&ready] { return ready.load(); });
  ASSERT_TRUE(http.ok()) << http.status();
  httplib::Client client("127.0.0.1", (*http)->port());
  auto res = client.Get("/ready");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 503);
  EXPECT_EQ(res->body, "NOT_SERVING\n");
  ready = true;
  res = client.Get("/ready");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, "SERVING\n");

  // Without a callback there is no /ready.
  absl::StatusOr<std::unique_ptr<MetricsHttpServer>> plain =
      MetricsHttpServer::Start("127.0.0.1:0", &m);
  ASSERT_TRUE(plain.ok());
  httplib::Client other("127.0.0.1", (*plain)->port());
  res = other.Get("/ready");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404);
}

}  // namespace
}  // namespace factord::server
