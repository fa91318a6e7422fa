// An in-process factord with bearer-token authentication on (two tenants,
// alice and bob, from a tokens file in a temporary directory), and one
// client library connection per token.
#ifndef FACTORD_TESTS_SERVER_SERVICE_TENANT_FIXTURE_H_
#define FACTORD_TESTS_SERVER_SERVICE_TENANT_FIXTURE_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "client/factord_client.h"
#include "server/service_fixture.h"

namespace factord::server::testing {

inline constexpr char kAliceToken[] = "alice-7f3a9c1e5b2d4f6a8c0e1b3d";
inline constexpr char kBobToken[] = "bob-2c4e6a8b0d1f3e5a7c9b1d3f5";

// A fresh directory under the test temp dir, removed with the object.
class TempDir {
 public:
  TempDir() {
    std::string pattern = ::testing::TempDir() + "factord_test_XXXXXX";
    path_ = mkdtemp(pattern.data()) != nullptr ? pattern : "";
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class TenantTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    tokens_file_ = dir_.path() + "/tokens";
    std::ofstream(tokens_file_) << "# test tenants\n"
                                << kAliceToken << " alice\n"
                                << kBobToken << " bob\n";
    ServerConfig config = TestConfig();
    config.auth_tokens_file = tokens_file_;
    Configure(config);
    Start(config);
  }

  // Lets a test change the config before the server starts.
  virtual void Configure(ServerConfig& config) {}

  void Start(const ServerConfig& config) {
    auto server = Server::Start(config);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    alice_ = Connect(kAliceToken);
    bob_ = Connect(kBobToken);
  }

  std::string Target() const {
    return "127.0.0.1:" + std::to_string(server_->port());
  }

  std::unique_ptr<client::Client> Connect(const std::string& token) {
    client::ConnectOptions options;
    options.token = token;
    auto c = client::Client::Connect(Target(), options);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

  // The CSR arrays of `a`, borrowed from it.
  static client::CsrArrays Arrays(const CsrMatrix& a) {
    client::CsrArrays m;
    m.n = a.rows;
    m.structure =
        a.structure == Structure::kGeneral ? "general" : "symmetric_lower";
    m.row_ptr = a.row_ptr;
    m.col_idx = a.col_idx;
    m.values = a.values;
    return m;
  }

  TempDir dir_;
  std::string tokens_file_;
  std::unique_ptr<Server> server_;
  std::unique_ptr<client::Client> alice_;
  std::unique_ptr<client::Client> bob_;
};

}  // namespace factord::server::testing

#endif  // FACTORD_TESTS_SERVER_SERVICE_TENANT_FIXTURE_H_
