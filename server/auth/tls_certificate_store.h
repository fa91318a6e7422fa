// The daemon's TLS certificate, key and client CA, reloadable without a
// restart (docs/fleet.md, "Reloading credentials").
//
// gRPC serves TLS from a FileWatcherCertificateProvider, which re-reads its
// files every second and hands new contents to the TLS stack for new
// connections (established ones keep their session). It would hand over a
// broken file as well, and a key that is not the certificate's breaks every
// new handshake. So the provider never watches the operator's files: it
// watches a private copy (a 0700 directory under $TMPDIR) that this store
// writes only after the new files passed the start-up checks: PEM that
// OpenSSL parses, a private key that is the certificate's, a certificate
// not yet expired, and a client CA of certificates. A file that fails them
// is refused with a message and the copy in force stays as it is.
//
// The copy is switched atomically: each version goes to a directory of its
// own and a symbolic link `current` is renamed over. Each version's files
// carry a modification time one second after the previous version's, so
// the provider, which compares modification times before and after reading
// the key and the certificate, never pairs a key and a certificate of
// different versions.
#ifndef FACTORD_SERVER_AUTH_TLS_CERTIFICATE_STORE_H_
#define FACTORD_SERVER_AUTH_TLS_CERTIFICATE_STORE_H_

#include <ctime>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/security/tls_certificate_provider.h"
#include "server/config.h"

namespace factord::server {

// The contents of --tls_cert, --tls_key and --tls_client_ca ("" when not
// set).
struct TlsFiles {
  std::string cert;
  std::string key;
  std::string client_ca;
  bool operator==(const TlsFiles&) const = default;
};

// Reads the files `config` names (tls_cert_file, tls_key_file and, when
// set, tls_client_ca_file). InvalidArgument naming the flag and the path
// when one is unreadable, empty or holds no PEM block of its kind.
absl::StatusOr<TlsFiles> ReadTlsFiles(const ServerConfig& config);

// InvalidArgument naming the flag and the path when OpenSSL cannot parse a
// certificate or the key, the key is not the certificate's, the (first)
// certificate has expired, or the client CA holds something other than
// certificates.
absl::Status CheckTlsFiles(const TlsFiles& files, const ServerConfig& config);

class TlsCertificateStore {
 public:
  // Reads and checks the files, and writes the first private copy.
  // InvalidArgument as above; Internal when the copy cannot be written.
  static absl::StatusOr<std::unique_ptr<TlsCertificateStore>> Create(
      const ServerConfig& config);
  ~TlsCertificateStore();  // removes the private copy
  TlsCertificateStore(const TlsCertificateStore&) = delete;
  TlsCertificateStore& operator=(const TlsCertificateStore&) = delete;

  // Credentials for grpc::ServerBuilder: TLS from the private copy, with
  // client certificates required and verified against the client CA when
  // --tls_client_ca is set. Call once.
  std::shared_ptr<grpc::ServerCredentials> Credentials();

  enum class Outcome { kUnchanged, kApplied, kRefused };
  struct Reload {
    Outcome outcome = Outcome::kUnchanged;
    std::string message;  // why refused, or what was applied
  };
  // Reads the operator's files again. Unchanged when they hold what is in
  // force, or what was refused last time (refused once, not on every
  // poll); Applied when they changed and pass the checks (new connections
  // get them within the provider's refresh interval, one second); Refused,
  // with the reason, otherwise. Thread-safe.
  Reload ReloadFiles();

  // The seconds within which gRPC picks up an applied version.
  static constexpr unsigned kRefreshSeconds = 1;

 private:
  TlsCertificateStore(const ServerConfig& config, std::string dir);
  absl::Status Write(const TlsFiles& files) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::string CurrentPath(const char* name) const;

  const ServerConfig config_;
  const std::string dir_;  // the private copy
  absl::Mutex mu_;
  TlsFiles in_force_ ABSL_GUARDED_BY(mu_);
  TlsFiles refused_ ABSL_GUARDED_BY(mu_);
  int version_ ABSL_GUARDED_BY(mu_) = 0;
  std::time_t mtime_ ABSL_GUARDED_BY(mu_) = 0;
  std::shared_ptr<grpc::experimental::FileWatcherCertificateProvider> provider_;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_AUTH_TLS_CERTIFICATE_STORE_H_
