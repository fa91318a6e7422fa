#include "server/auth/tls_certificate_store.h"

#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "server/auth/tls_credentials.h"

namespace factord::server {
namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using Bio = std::unique_ptr<BIO, BioFree>;
using Certificate = std::unique_ptr<X509, X509Free>;
using PrivateKey = std::unique_ptr<EVP_PKEY, KeyFree>;

Bio MemoryBio(const std::string& text) {
  return Bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

// Refuses a passphrase: without a callback OpenSSL would prompt on the
// terminal for an encrypted key.
int NoPassphrase(char*, int, int, void*) { return 0; }

// The certificates of a PEM text, in order; an error when a CERTIFICATE
// block does not parse (blocks of other kinds are skipped).
absl::StatusOr<std::vector<Certificate>> ParseCertificates(
    const std::string& pem, absl::string_view flag, const std::string& path) {
  ERR_clear_error();
  Bio bio = MemoryBio(pem);
  std::vector<Certificate> certificates;
  while (X509* x =
             PEM_read_bio_X509(bio.get(), nullptr, NoPassphrase, nullptr)) {
    certificates.emplace_back(x);
  }
  const unsigned long error = ERR_peek_last_error();
  ERR_clear_error();
  // Reading stops at the end of the text with "no start line"; anything
  // else is a block that does not parse.
  if (certificates.empty() ||
      (error != 0 && ERR_GET_REASON(error) != PEM_R_NO_START_LINE)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", flag, ": '", path, "': ",
        certificates.empty() ? "no certificate that OpenSSL can parse"
                             : "a CERTIFICATE block that OpenSSL cannot parse",
        error != 0 && ERR_GET_REASON(error) != PEM_R_NO_START_LINE
            ? absl::StrCat(" (", ERR_reason_error_string(error), ")")
            : ""));
  }
  return certificates;
}

std::string NotAfter(const X509* x) {
  struct tm t = {};
  if (ASN1_TIME_to_tm(X509_get0_notAfter(x), &t) != 1) return "?";
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &t);
  return text;
}

absl::Status WriteFile(const std::string& path, const std::string& text,
                       std::time_t mtime) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      return absl::InternalError(
          absl::StrCat("cannot write '", path, "': ", std::strerror(errno)));
    }
  }
  if (chmod(path.c_str(), S_IRUSR | S_IWUSR) != 0) {
    return absl::InternalError(
        absl::StrCat("cannot chmod '", path, "': ", std::strerror(errno)));
  }
  const struct timespec times[2] = {{mtime, 0}, {mtime, 0}};
  if (utimensat(AT_FDCWD, path.c_str(), times, 0) != 0) {
    return absl::InternalError(absl::StrCat("cannot set the time of '", path,
                                            "': ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TlsFiles> ReadTlsFiles(const ServerConfig& config) {
  TlsFiles files;
  absl::StatusOr<std::string> cert =
      ReadPemFile("tls_cert", config.tls_cert_file, "CERTIFICATE");
  if (!cert.ok()) return cert.status();
  files.cert = *std::move(cert);
  absl::StatusOr<std::string> key =
      ReadPemFile("tls_key", config.tls_key_file, "PRIVATE KEY");
  if (!key.ok()) return key.status();
  files.key = *std::move(key);
  if (!config.tls_client_ca_file.empty()) {
    absl::StatusOr<std::string> ca =
        ReadPemFile("tls_client_ca", config.tls_client_ca_file, "CERTIFICATE");
    if (!ca.ok()) return ca.status();
    files.client_ca = *std::move(ca);
  }
  return files;
}

absl::Status CheckTlsFiles(const TlsFiles& files, const ServerConfig& config) {
  absl::StatusOr<std::vector<Certificate>> chain =
      ParseCertificates(files.cert, "tls_cert", config.tls_cert_file);
  if (!chain.ok()) return chain.status();
  const X509* leaf = chain->front().get();
  ERR_clear_error();
  Bio key_bio = MemoryBio(files.key);
  PrivateKey key(
      PEM_read_bio_PrivateKey(key_bio.get(), nullptr, NoPassphrase, nullptr));
  ERR_clear_error();
  if (key == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--tls_key: '", config.tls_key_file,
        "': no private key that OpenSSL can parse (an encrypted key is not "
        "supported)"));
  }
  if (X509_check_private_key(leaf, key.get()) != 1) {
    ERR_clear_error();
    return absl::InvalidArgumentError(absl::StrCat(
        "--tls_key: '", config.tls_key_file,
        "' is not the private key of the certificate in --tls_cert '",
        config.tls_cert_file,
        "' (check that --tls_key is the key of --tls_cert)"));
  }
  if (X509_cmp_current_time(X509_get0_notAfter(leaf)) < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls_cert: '", config.tls_cert_file,
                     "': the certificate expired at ", NotAfter(leaf)));
  }
  if (!config.tls_client_ca_file.empty()) {
    absl::StatusOr<std::vector<Certificate>> ca = ParseCertificates(
        files.client_ca, "tls_client_ca", config.tls_client_ca_file);
    if (!ca.ok()) return ca.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<TlsCertificateStore>>
TlsCertificateStore::Create(const ServerConfig& config) {
  absl::StatusOr<TlsFiles> files = ReadTlsFiles(config);
  if (!files.ok()) return files.status();
  if (absl::Status s = CheckTlsFiles(*files, config); !s.ok()) return s;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = absl::StrCat(
      tmp != nullptr && *tmp != '\0' ? tmp : "/tmp", "/factord-tls-XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) {  // mode 0700
    return absl::InternalError(
        absl::StrCat("cannot make a private directory for the TLS files (",
                     pattern, "): ", std::strerror(errno)));
  }
  std::unique_ptr<TlsCertificateStore> store(
      new TlsCertificateStore(config, pattern));
  absl::MutexLock lock(&store->mu_);
  if (absl::Status s = store->Write(*files); !s.ok()) return s;
  store->in_force_ = *std::move(files);
  return store;
}

TlsCertificateStore::TlsCertificateStore(const ServerConfig& config,
                                         std::string dir)
    : config_(config), dir_(std::move(dir)) {}

TlsCertificateStore::~TlsCertificateStore() {
  provider_.reset();  // stops the provider's refresh thread first
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string TlsCertificateStore::CurrentPath(const char* name) const {
  return absl::StrCat(dir_, "/current/", name);
}

std::shared_ptr<grpc::ServerCredentials> TlsCertificateStore::Credentials() {
  const bool mutual = !config_.tls_client_ca_file.empty();
  provider_ =
      std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
          CurrentPath("key.pem"), CurrentPath("cert.pem"),
          mutual ? CurrentPath("client_ca.pem") : "", kRefreshSeconds);
  grpc::experimental::TlsServerCredentialsOptions options(provider_);
  options.watch_identity_key_cert_pairs();
  if (mutual) {
    options.watch_root_certs();
    options.set_cert_request_type(
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  } else {
    options.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  }
  return grpc::experimental::TlsServerCredentials(options);
}

absl::Status TlsCertificateStore::Write(const TlsFiles& files) {
  // Strictly increasing whole seconds (the provider compares time_t).
  mtime_ = std::max(std::time(nullptr), mtime_ + 1);
  ++version_;
  const std::string version = absl::StrCat("v", version_);
  const std::string dir = absl::StrCat(dir_, "/", version);
  if (mkdir(dir.c_str(), S_IRWXU) != 0) {
    return absl::InternalError(
        absl::StrCat("cannot make '", dir, "': ", std::strerror(errno)));
  }
  std::vector<std::pair<const char*, const std::string*>> parts = {
      {"cert.pem", &files.cert}, {"key.pem", &files.key}};
  if (!files.client_ca.empty())
    parts.push_back({"client_ca.pem", &files.client_ca});
  for (const auto& [name, text] : parts) {
    if (absl::Status s = WriteFile(absl::StrCat(dir, "/", name), *text, mtime_);
        !s.ok()) {
      return s;
    }
  }
  // The switch: one rename of a symbolic link.
  const std::string link = absl::StrCat(dir_, "/current.next");
  unlink(link.c_str());
  if (symlink(version.c_str(), link.c_str()) != 0 ||
      rename(link.c_str(), absl::StrCat(dir_, "/current").c_str()) != 0) {
    return absl::InternalError(absl::StrCat("cannot switch the TLS files in '",
                                            dir_, "': ", std::strerror(errno)));
  }
  // Two versions back can no longer be in the middle of a read.
  if (version_ > 2) {
    std::error_code ignored;
    std::filesystem::remove_all(absl::StrCat(dir_, "/v", version_ - 2),
                                ignored);
  }
  return absl::OkStatus();
}

TlsCertificateStore::Reload TlsCertificateStore::ReloadFiles() {
  absl::StatusOr<TlsFiles> files = ReadTlsFiles(config_);
  absl::MutexLock lock(&mu_);
  if (!files.ok()) {
    // An unreadable file: refused, but said once per kind of failure.
    TlsFiles marker;
    marker.cert = std::string(files.status().message());
    if (marker == refused_) return {};
    refused_ = marker;
    return {Outcome::kRefused, std::string(files.status().message())};
  }
  if (*files == in_force_) {
    refused_ = TlsFiles{};  // a broken version put back later is refused again
    return {};
  }
  if (*files == refused_) return {};
  if (absl::Status s = CheckTlsFiles(*files, config_); !s.ok()) {
    refused_ = *std::move(files);
    return {Outcome::kRefused, std::string(s.message())};
  }
  if (absl::Status s = Write(*files); !s.ok()) {
    return {Outcome::kRefused, std::string(s.message())};
  }
  in_force_ = *std::move(files);
  refused_ = TlsFiles{};
  return {Outcome::kApplied,
          absl::StrCat("TLS files version ", version_,
                       " in force for new connections within ", kRefreshSeconds,
                       " s")};
}

}  // namespace factord::server
