// TLS and mutual TLS through the wire, with a test CA, a server certificate
// (for 127.0.0.1) and a client certificate made by `openssl` at test time
// in a temporary directory; and the start-up checks of the TLS flags.
#include "server/auth/tls_credentials.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "server/service/tenant_fixture.h"

namespace factord::server::testing {
namespace {

// Runs a shell command quietly; true on exit status 0.
bool RunQuietly(const std::string& command) {
  return std::system((command + " >/dev/null 2>&1").c_str()) == 0;
}

bool HaveOpenssl() { return RunQuietly("openssl version"); }

// ca.pem/ca.key, server.pem/server.key (SAN IP 127.0.0.1, localhost),
// client.pem/client.key, all signed by the CA; other.pem/other.key signed
// by a second CA that the server does not trust.
bool MakeCertificates(const std::string& dir) {
  const std::string key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1";
  const std::string cd = "cd '" + dir + "' && ";
  auto make_ca = [&](const std::string& name) {
    return RunQuietly(cd + "openssl req -x509 " + key +
                      " -nodes -days 2 -keyout " + name + ".key -out " + name +
                      ".pem -subj /CN=" + name +
                      " -addext basicConstraints=critical,CA:TRUE" +
                      " -addext keyUsage=critical,keyCertSign,cRLSign");
  };
  auto make_leaf = [&](const std::string& name, const std::string& ca,
                       const std::string& extensions) {
    std::ofstream(dir + "/" + name + ".ext") << extensions << "\n";
    return RunQuietly(cd + "openssl req " + key + " -nodes -keyout " + name +
                      ".key -out " + name + ".csr -subj /CN=" + name) &&
           RunQuietly(cd + "openssl x509 -req -in " + name + ".csr -CA " + ca +
                      ".pem -CAkey " + ca +
                      ".key -CAcreateserial -days 2 -out " + name +
                      ".pem -extfile " + name + ".ext");
  };
  return make_ca("ca") && make_ca("otherca") &&
         make_leaf("server", "ca",
                   "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                   "extendedKeyUsage=serverAuth") &&
         make_leaf("client", "ca", "extendedKeyUsage=clientAuth") &&
         make_leaf("other", "otherca", "extendedKeyUsage=clientAuth");
}

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveOpenssl()) {
      GTEST_SKIP() << "openssl is not installed (Debian package openssl; "
                      "scripts/install_deps.sh installs it)";
    }
    ASSERT_FALSE(dir_.path().empty());
    ASSERT_TRUE(MakeCertificates(dir_.path())) << "openssl failed";
  }

  std::string File(const std::string& name) const {
    return dir_.path() + "/" + name;
  }

  ServerConfig TlsConfig(bool mutual) const {
    ServerConfig config = TestConfig();
    config.tls_cert_file = File("server.pem");
    config.tls_key_file = File("server.key");
    if (mutual) config.tls_client_ca_file = File("ca.pem");
    return config;
  }

  // ServerInfo over a fresh connection; the status of the call.
  static absl::Status InfoOver(const Server& server,
                               client::ConnectOptions options) {
    options.rpc_timeout = absl::Seconds(10);
    auto c = client::Client::Connect(
        "127.0.0.1:" + std::to_string(server.port()), options);
    if (!c.ok()) return c.status();
    return (*c)->Info().status();
  }

  TempDir dir_;
};

TEST_F(TlsTest, ServerCertificateRoundTrip) {
  auto server = Server::Start(TlsConfig(/*mutual=*/false));
  ASSERT_TRUE(server.ok()) << server.status();
  client::ConnectOptions tls;
  tls.tls_ca_file = File("ca.pem");
  EXPECT_TRUE(InfoOver(**server, tls).ok()) << InfoOver(**server, tls);
  // A plaintext client cannot talk to a TLS port.
  EXPECT_EQ(InfoOver(**server, {}).code(), absl::StatusCode::kUnavailable);
  // Nor a client that trusts another CA.
  client::ConnectOptions wrong_ca;
  wrong_ca.tls_ca_file = File("otherca.pem");
  EXPECT_EQ(InfoOver(**server, wrong_ca).code(),
            absl::StatusCode::kUnavailable);
}

TEST_F(TlsTest, MutualTlsRefusesClientsWithoutAGoodCertificate) {
  auto server = Server::Start(TlsConfig(/*mutual=*/true));
  ASSERT_TRUE(server.ok()) << server.status();
  client::ConnectOptions with_cert;
  with_cert.tls_ca_file = File("ca.pem");
  with_cert.tls_cert_file = File("client.pem");
  with_cert.tls_key_file = File("client.key");
  EXPECT_TRUE(InfoOver(**server, with_cert).ok())
      << InfoOver(**server, with_cert);

  client::ConnectOptions no_cert;
  no_cert.tls_ca_file = File("ca.pem");
  EXPECT_EQ(InfoOver(**server, no_cert).code(), absl::StatusCode::kUnavailable);

  client::ConnectOptions foreign_cert = with_cert;
  foreign_cert.tls_cert_file = File("other.pem");
  foreign_cert.tls_key_file = File("other.key");
  EXPECT_EQ(InfoOver(**server, foreign_cert).code(),
            absl::StatusCode::kUnavailable);
}

TEST_F(TlsTest, TokensAndTlsTogetherThroughFactorctl) {
  const std::string tokens = File("tokens");
  std::ofstream(tokens) << kAliceToken << " alice\n";
  ServerConfig config = TlsConfig(/*mutual=*/true);
  config.auth_tokens_file = tokens;
  auto server = Server::Start(config);
  ASSERT_TRUE(server.ok()) << server.status();
  const std::string base =
      std::string(FACTORCTL_PATH) + " info --timeout=10 --server=127.0.0.1:" +
      std::to_string((*server)->port()) + " --tls_ca=" + File("ca.pem");
  const std::string cert =
      " --tls_cert=" + File("client.pem") + " --tls_key=" + File("client.key");
  EXPECT_TRUE(RunQuietly(base + cert + " --token=" + kAliceToken));
  EXPECT_FALSE(RunQuietly(base + cert));                       // no token
  EXPECT_FALSE(RunQuietly(base + " --token=" + kAliceToken));  // no certificate
  EXPECT_TRUE(RunQuietly("FACTORD_TOKEN=" + std::string(kAliceToken) + " " +
                         base + cert));
}

TEST_F(TlsTest, BadFilesStopTheServerNamingTheFlagAndTheFile) {
  struct Case {
    std::string cert, key, client_ca;
    std::string expected;
  };
  const std::string junk = File("junk.pem");
  std::ofstream(junk) << "not a certificate\n";
  const Case cases[] = {
      {File("missing.pem"), File("server.key"), "",
       "--tls_cert: cannot read '" + File("missing.pem") + "'"},
      {File("server.pem"), File("missing.key"), "",
       "--tls_key: cannot read '" + File("missing.key") + "'"},
      {junk, File("server.key"), "", "--tls_cert: '" + junk + "' holds no PEM"},
      {File("server.pem"), File("server.pem"), "",
       "--tls_key: '" + File("server.pem") + "' holds no PEM"},
      {File("server.pem"), File("server.key"), File("missing-ca.pem"),
       "--tls_client_ca: cannot read"},
      {File("server.pem"), "", "", "--tls_cert is set but --tls_key is not"},
      {"", File("server.key"), "", "--tls_key is set but --tls_cert is not"},
      {"", "", File("ca.pem"), "--tls_client_ca is set but --tls_cert is not"},
  };
  for (const Case& c : cases) {
    ServerConfig config = TestConfig();
    config.tls_cert_file = c.cert;
    config.tls_key_file = c.key;
    config.tls_client_ca_file = c.client_ca;
    auto server = Server::Start(config);
    ASSERT_FALSE(server.ok()) << c.expected;
    EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(server.status().message().find(c.expected),
              absl::string_view::npos)
        << server.status();
  }
}

TEST_F(TlsTest, AKeyThatIsNotTheCertificatesStopsTheServer) {
  ServerConfig config = TlsConfig(/*mutual=*/false);
  config.tls_key_file = File("client.key");
  auto server = Server::Start(config);
  ASSERT_FALSE(server.ok());
  EXPECT_NE(server.status().message().find("--tls_key is the key of"),
            absl::string_view::npos)
      << server.status();
}

TEST(TlsClient, UnreadableFilesAreInvalidArgumentNamingTheOption) {
  client::ConnectOptions options;
  options.tls_ca_file = "/nonexistent/ca.pem";
  auto c = client::Client::Connect("127.0.0.1:1", options);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(c.status().message().find("tls_ca_file"), absl::string_view::npos);
  options.tls_ca_file.clear();
  options.tls_cert_file = "/nonexistent/client.pem";
  c = client::Client::Connect("127.0.0.1:1", options);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("go together"), absl::string_view::npos);
}

}  // namespace
}  // namespace factord::server::testing
