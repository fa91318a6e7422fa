#include "server/auth/tls_credentials.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/security/server_credentials.h"
#include "server/auth/tls_certificate_store.h"

namespace factord::server {
namespace {

// True when `pem` has a line "-----BEGIN ...<label_suffix>-----".
bool HasPemBlock(absl::string_view pem, absl::string_view label_suffix) {
  constexpr absl::string_view kBegin = "-----BEGIN ";
  for (size_t at = pem.find(kBegin); at != absl::string_view::npos;
       at = pem.find(kBegin, at + 1)) {
    const size_t label = at + kBegin.size();
    const size_t end = pem.find("-----", label);
    if (end == absl::string_view::npos) return false;
    if (absl::EndsWith(pem.substr(label, end - label), label_suffix)) {
      return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<std::string> ReadPemFile(absl::string_view flag,
                                        const std::string& path,
                                        absl::string_view label_suffix) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", flag, ": cannot read '", path, "': ", std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string pem = text.str();
  if (pem.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": '", path, "' is empty"));
  }
  if (!HasPemBlock(pem, label_suffix)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": '", path, "' holds no PEM '-----BEGIN ",
                     label_suffix, "-----' block"));
  }
  return pem;
}

ServingCredentials::ServingCredentials() = default;
ServingCredentials::ServingCredentials(ServingCredentials&&) = default;
ServingCredentials& ServingCredentials::operator=(ServingCredentials&&) =
    default;
ServingCredentials::~ServingCredentials() = default;

absl::StatusOr<ServingCredentials> MakeServerCredentials(
    const ServerConfig& config) {
  ServingCredentials serving;
  if (!TlsEnabled(config)) {
    if (!config.tls_key_file.empty()) {
      return absl::InvalidArgumentError(
          "--tls_key is set but --tls_cert is not: TLS needs both");
    }
    if (!config.tls_client_ca_file.empty()) {
      return absl::InvalidArgumentError(
          "--tls_client_ca is set but --tls_cert is not: client certificates "
          "are checked only over TLS");
    }
    serving.credentials = grpc::InsecureServerCredentials();
    return serving;
  }
  if (config.tls_key_file.empty()) {
    return absl::InvalidArgumentError(
        "--tls_cert is set but --tls_key is not: TLS needs both");
  }
  absl::StatusOr<std::unique_ptr<TlsCertificateStore>> store =
      TlsCertificateStore::Create(config);
  if (!store.ok()) return store.status();
  serving.tls = *std::move(store);
  serving.credentials = serving.tls->Credentials();
  return serving;
}

}  // namespace factord::server
