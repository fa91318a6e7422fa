// Credentials replaced while the daemon runs: on SIGHUP and every
// --reload_interval, the tokens file and the TLS files are read again
// (docs/fleet.md, "Reloading credentials").
//
// A file whose contents changed and pass the start-up checks is put in
// force: new calls authenticate against the new tokens, new connections
// get the new certificate. A file that fails them is refused with one log
// line giving the reason, and what was in force stays in force. Nothing
// else changes: cached matrices and factors, open streams and established
// connections are untouched (a tenant's matrices stay its own even if all
// its tokens are removed; they go when released or idle).
#ifndef FACTORD_SERVER_AUTH_CREDENTIAL_RELOADER_H_
#define FACTORD_SERVER_AUTH_CREDENTIAL_RELOADER_H_

#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "server/auth/authenticator.h"
#include "server/auth/tls_certificate_store.h"

namespace factord::server {

class CredentialReloader {
 public:
  using Outcome = TlsCertificateStore::Outcome;

  // `authenticator` (with its file `tokens_path`) and `tls` may be null:
  // that part is off. Neither is owned; both must outlive this object.
  CredentialReloader(std::string tokens_path, Authenticator* authenticator,
                     TlsCertificateStore* tls);

  struct Report {
    Outcome tokens = Outcome::kUnchanged;
    Outcome tls = Outcome::kUnchanged;
    std::vector<std::string> lines;  // for the log: changes and refusals
  };
  // Reads the files again and applies what changed and passes the checks.
  // A refused file is reported once, not again until its contents change.
  // Thread-safe (calls are serialized).
  Report Reload();

  // Whether there is anything to reload (authentication or TLS on).
  bool active() const { return authenticator_ != nullptr || tls_ != nullptr; }

 private:
  Outcome ReloadTokens(std::vector<std::string>* lines)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string tokens_path_;
  Authenticator* const authenticator_;
  TlsCertificateStore* const tls_;
  absl::Mutex mu_;
  std::string tokens_in_force_ ABSL_GUARDED_BY(mu_);  // the file's text
  std::string tokens_refused_ ABSL_GUARDED_BY(mu_);   // text or error
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_AUTH_CREDENTIAL_RELOADER_H_
