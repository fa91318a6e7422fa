// Credentials replaced while the daemon runs (Server::Reload, which SIGHUP
// calls): a token added to the tokens file works for new calls while a
// factor made before is still used, a stream opened before a token is
// revoked finishes, a rotated certificate is served to new connections
// while an established one keeps working, and a broken file is refused
// with the old one kept. tests/fleet/check_reload.sh does the same through
// a real SIGHUP.
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "httplib.h"
#include "server/auth/test_certificates.h"
#include "server/auth/tls_certificate_store.h"
#include "server/service/tenant_fixture.h"

namespace factord::server::testing {
namespace {

constexpr char kAliceSecondToken[] = "alice-rotated-5e1c7a9b3d2f4e6a8c";

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The metric line `name{labels} value` of a scrape, as its value; -1 when
// absent.
double MetricValue(const Server& server, const std::string& series) {
  httplib::Client http("127.0.0.1", server.metrics_port());
  auto res = http.Get("/metrics");
  if (!res || res->status != 200) return -1;
  const std::string needle = "\n" + series + " ";
  const size_t at = res->body.find(needle);
  if (at == std::string::npos) return -1;
  return std::stod(res->body.substr(at + needle.size()));
}

client::CsrArrays ArraysOf(const CsrMatrix& a) {
  client::CsrArrays m;
  m.n = a.rows;
  m.structure = "general";
  m.row_ptr = a.row_ptr;
  m.col_idx = a.col_idx;
  m.values = a.values;
  return m;
}

using TokenReloadTest = TenantTest;

TEST_F(TokenReloadTest, AddedTokenWorksForNewCallsOnTheFactorMadeBefore) {
  const CsrMatrix a = Tridiagonal(6);
  ASSERT_TRUE(alice_->Upload(Arrays(a), "kkt").ok());
  ASSERT_TRUE(alice_->Factorize("kkt").ok());
  std::unique_ptr<client::Client> rotated = Connect(kAliceSecondToken);
  EXPECT_EQ(rotated->Solve("kkt", {{1, 1, 1, 1, 1, 1}}).status().code(),
            absl::StatusCode::kUnauthenticated);

  // Rotation, step 1: alice gets a second token.
  WriteFile(tokens_file_, std::string(kAliceToken) + " alice\n" +
                              kAliceSecondToken + " alice\n" + kBobToken +
                              " bob\n");
  const ReloadResult reload = server_->Reload();
  EXPECT_EQ(reload.applied, 1);
  EXPECT_EQ(reload.refused, 0);
  // The new token is alice's: it solves with the factor made before the
  // reload (no re-upload, no refactorization), and so does the old one.
  absl::StatusOr<std::vector<client::SolveResult>> x =
      rotated->Solve("kkt", {{1, 1, 1, 1, 1, 1}});
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_EQ((*x)[0].status, "converged");
  EXPECT_TRUE(alice_->Solve("kkt", {{1, 1, 1, 1, 1, 1}}).ok());
  absl::StatusOr<client::MatrixInfo> info = rotated->GetMatrix("kkt");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->generation, 1u);
  EXPECT_TRUE(info->factorized);

  // Step 2: the old token goes; new calls with it are refused.
  WriteFile(tokens_file_,
            std::string(kAliceSecondToken) + " alice\n" + kBobToken + " bob\n");
  EXPECT_EQ(server_->Reload().applied, 1);
  EXPECT_EQ(alice_->Solve("kkt", {{1, 1, 1, 1, 1, 1}}).status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_TRUE(rotated->Solve("kkt", {{1, 1, 1, 1, 1, 1}}).ok());
  EXPECT_TRUE(bob_->List().ok());
  // Nothing changed: nothing to do.
  const ReloadResult again = server_->Reload();
  EXPECT_EQ(again.applied + again.refused, 0);
  EXPECT_EQ(MetricValue(*server_,
                        "factord_credential_reloads_total{"
                        "credentials=\"tokens\",result=\"applied\"}"),
            2);
}

TEST_F(TokenReloadTest, AStreamOpenedBeforeItsTokenIsRevokedFinishes) {
  const CsrMatrix a = Tridiagonal(6);
  ASSERT_TRUE(alice_->Upload(Arrays(a), "open").ok());
  ASSERT_TRUE(alice_->Factorize("open").ok());
  auto channel =
      grpc::CreateChannel(Target(), grpc::InsecureChannelCredentials());
  auto stub = v1::Solver::NewStub(channel);
  grpc::ClientContext context;
  context.AddMetadata("authorization", std::string("Bearer ") + kAliceToken);
  auto stream = stub->Solve(&context);
  auto send = [&](uint32_t index, bool first) {
    v1::SolveRequest request;
    if (first) request.set_id("open");
    request.set_rhs_index(index);
    for (int i = 0; i < 6; ++i) request.add_values(1.0);
    request.set_last(true);
    return stream->Write(request);
  };
  v1::SolveReply reply;
  ASSERT_TRUE(send(0, true));
  do {
    ASSERT_TRUE(stream->Read(&reply));
  } while (!reply.last());

  WriteFile(tokens_file_, std::string(kBobToken) + " bob\n");  // alice out
  ASSERT_EQ(server_->Reload().applied, 1);
  EXPECT_EQ(alice_->List().status().code(), absl::StatusCode::kUnauthenticated);
  // The stream was admitted before: it goes on to its end.
  ASSERT_TRUE(send(1, false));
  do {
    ASSERT_TRUE(stream->Read(&reply));
  } while (!reply.last());
  EXPECT_EQ(reply.rhs_index(), 1u);
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(TokenReloadTest, ABrokenTokensFileIsRefusedAndTheOldTokensStay) {
  const std::string good = ReadFile(tokens_file_);
  const std::vector<std::string> broken = {
      std::string(kAliceSecondToken) + " alice extra-field\n",  // malformed
      "short alice\n",                                          // too short
      "# every line removed\n",                                 // no token
  };
  double refused = 0;
  for (const std::string& text : broken) {
    WriteFile(tokens_file_, text);
    const ReloadResult reload = server_->Reload();
    EXPECT_EQ(reload.refused, 1) << text;
    EXPECT_EQ(reload.applied, 0);
    ASSERT_EQ(reload.lines.size(), 1u);
    EXPECT_NE(reload.lines[0].find("refused, the tokens in force stay"),
              std::string::npos)
        << reload.lines[0];
    // The log never shows a token.
    EXPECT_EQ(reload.lines[0].find(kAliceSecondToken), std::string::npos);
    // Refused once: the same contents are not refused (and logged) again.
    EXPECT_EQ(server_->Reload().refused, 0);
    EXPECT_TRUE(alice_->List().ok());
    EXPECT_TRUE(bob_->List().ok());
    ++refused;
  }
  // A missing file is refused too.
  std::filesystem::remove(tokens_file_);
  EXPECT_EQ(server_->Reload().refused, 1);
  EXPECT_TRUE(alice_->List().ok());
  EXPECT_EQ(MetricValue(*server_,
                        "factord_credential_reloads_total{"
                        "credentials=\"tokens\",result=\"refused\"}"),
            refused + 1);
  // Put back: nothing changed from what is in force.
  WriteFile(tokens_file_, good);
  EXPECT_EQ(server_->Reload().applied, 0);
}

class TlsReloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveOpenssl()) {
      GTEST_SKIP() << "openssl is not installed (Debian package openssl)";
    }
    ASSERT_FALSE(dir_.path().empty());
    ASSERT_TRUE(MakeServerCertificates(dir_.path(), "one-") &&
                MakeServerCertificates(dir_.path(), "two-"))
        << "openssl failed";
    Install("one-server.pem", "one-server.key");
    ServerConfig config = TestConfig();
    config.tls_cert_file = File("cert.pem");
    config.tls_key_file = File("key.pem");
    config.reload_interval = absl::ZeroDuration();  // Reload() only
    auto server = Server::Start(config);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
  }

  std::string File(const std::string& name) const {
    return dir_.path() + "/" + name;
  }

  // Puts `cert` and `key` where the flags point.
  void Install(const std::string& cert, const std::string& key) {
    WriteFile(File("cert.pem"), ReadFile(File(cert)));
    WriteFile(File("key.pem"), ReadFile(File(key)));
  }

  // A client on a new connection that trusts `ca`.
  std::unique_ptr<client::Client> Trusting(const std::string& ca) {
    client::ConnectOptions options;
    options.tls_ca_file = File(ca);
    options.rpc_timeout = absl::Seconds(10);
    auto c = client::Client::Connect(
        "127.0.0.1:" + std::to_string(server_->port()), options);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

  // Whether a new connection trusting `ca` gets through, polled for up to
  // `seconds` until it is `expected` (gRPC picks up the files within one
  // second).
  bool NewConnectionsTrusting(const std::string& ca, bool expected,
                              double seconds = 5) {
    const absl::Time end = absl::Now() + absl::Seconds(seconds);
    bool ok = !expected;
    while (true) {
      ok = Trusting(ca)->Info().ok();
      if (ok == expected || absl::Now() > end) return ok;
      absl::SleepFor(absl::Milliseconds(100));
    }
  }

  TempDir dir_;
  std::unique_ptr<Server> server_;
};

TEST_F(TlsReloadTest, ARotatedCertificateIsServedToNewConnections) {
  std::unique_ptr<client::Client> before = Trusting("one-ca.pem");
  const CsrMatrix a = Tridiagonal(6);
  ASSERT_TRUE(before->Upload(ArraysOf(a), "m").ok());
  ASSERT_TRUE(before->Factorize("m").ok());
  EXPECT_FALSE(Trusting("two-ca.pem")->Info().ok());

  Install("two-server.pem", "two-server.key");
  const ReloadResult reload = server_->Reload();
  EXPECT_EQ(reload.applied, 1);
  EXPECT_TRUE(NewConnectionsTrusting("two-ca.pem", true));
  EXPECT_FALSE(NewConnectionsTrusting("one-ca.pem", false));
  // The connection made before keeps its session and the factor is there.
  absl::StatusOr<std::vector<client::SolveResult>> x =
      before->Solve("m", {{1, 1, 1, 1, 1, 1}});
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_EQ((*x)[0].status, "converged");
}

TEST_F(TlsReloadTest, ABrokenCertificateOrKeyIsRefusedAndTheOldOneKept) {
  struct Case {
    std::string name, cert, key, reason;
  };
  WriteFile(File("junk.pem"),
            "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n"
            "-----END CERTIFICATE-----\n");
  const Case cases[] = {
      {"garbage certificate", "junk.pem", "one-server.key",
       "no certificate that OpenSSL can parse"},
      {"another certificate's key", "two-server.pem", "one-server.key",
       "is not the private key of the certificate"},
      {"a key file without a key", "one-server.pem", "one-server.pem",
       "holds no PEM"},
  };
  for (const Case& c : cases) {
    Install(c.cert, c.key);
    const ReloadResult reload = server_->Reload();
    EXPECT_EQ(reload.refused, 1) << c.name;
    EXPECT_EQ(reload.applied, 0) << c.name;
    ASSERT_EQ(reload.lines.size(), 1u) << c.name;
    EXPECT_NE(reload.lines[0].find(c.reason), std::string::npos)
        << c.name << ": " << reload.lines[0];
    EXPECT_NE(reload.lines[0].find("the certificate in force stays"),
              std::string::npos);
    EXPECT_EQ(server_->Reload().refused, 0) << "refused twice: " << c.name;
  }
  // Past the provider's refresh interval the old certificate is still
  // served.
  absl::SleepFor(absl::Seconds(TlsCertificateStore::kRefreshSeconds + 0.5));
  EXPECT_TRUE(NewConnectionsTrusting("one-ca.pem", true, 0));
  // A good pair is then applied.
  Install("two-server.pem", "two-server.key");
  EXPECT_EQ(server_->Reload().applied, 1);
  EXPECT_TRUE(NewConnectionsTrusting("two-ca.pem", true));
}

}  // namespace
}  // namespace factord::server::testing
