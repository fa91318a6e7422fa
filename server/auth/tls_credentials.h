// The gRPC server credentials a ServerConfig asks for: plaintext without
// --tls_cert; TLS with the PEM certificate chain and key otherwise; mutual
// TLS (a client certificate signed by --tls_client_ca is required and
// verified) when a client CA is given.
//
// Files are read and checked here, at start-up, so that a missing or wrong
// file (unparsable, a key that is not the certificate's, an expired
// certificate) stops the daemon with a message naming the flag and the
// path. TLS is served from a TlsCertificateStore, so that the files can be
// replaced while the daemon runs (tls_certificate_store.h).
#ifndef FACTORD_SERVER_AUTH_TLS_CREDENTIALS_H_
#define FACTORD_SERVER_AUTH_TLS_CREDENTIALS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/security/server_credentials.h"
#include "server/config.h"

namespace factord::server {
class TlsCertificateStore;
}

namespace factord::server {

// The text of the PEM file `path` given by `--<flag>`. InvalidArgument
// naming the flag and the path when it is unreadable, empty, or holds no
// `-----BEGIN <label_suffix>-----` block ("CERTIFICATE", "PRIVATE KEY":
// matched as a suffix, so "RSA PRIVATE KEY" and "EC PRIVATE KEY" pass).
absl::StatusOr<std::string> ReadPemFile(absl::string_view flag,
                                        const std::string& path,
                                        absl::string_view label_suffix);

// What the gRPC port serves with, and the store of the TLS files that
// reloads them (nullptr for plaintext).
struct ServingCredentials {
  std::shared_ptr<grpc::ServerCredentials> credentials;
  std::unique_ptr<TlsCertificateStore> tls;
  ServingCredentials();
  ServingCredentials(ServingCredentials&&);
  ServingCredentials& operator=(ServingCredentials&&);
  ~ServingCredentials();
};

// InvalidArgument for an incomplete combination (a key without a
// certificate, a client CA without a certificate) or a bad file.
absl::StatusOr<ServingCredentials> MakeServerCredentials(
    const ServerConfig& config);

// True when the config asks for TLS.
inline bool TlsEnabled(const ServerConfig& config) {
  return !config.tls_cert_file.empty();
}

}  // namespace factord::server

#endif  // FACTORD_SERVER_AUTH_TLS_CREDENTIALS_H_
