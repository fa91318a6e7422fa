#include "server/auth/credential_reloader.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "server/auth/token_table.h"

namespace factord::server {

CredentialReloader::CredentialReloader(std::string tokens_path,
                                       Authenticator* authenticator,
                                       TlsCertificateStore* tls)
    : tokens_path_(std::move(tokens_path)),
      authenticator_(authenticator),
      tls_(tls) {
  if (authenticator_ != nullptr) {
    // What start-up loaded (the file may have changed since: then the first
    // reload applies it).
    absl::StatusOr<std::string> text = ReadTokensFile(tokens_path_);
    if (text.ok()) tokens_in_force_ = *std::move(text);
  }
}

CredentialReloader::Outcome CredentialReloader::ReloadTokens(
    std::vector<std::string>* lines) {
  absl::StatusOr<std::string> text = ReadTokensFile(tokens_path_);
  // An unreadable file is remembered by its message, a bad one by its text.
  const std::string seen =
      text.ok() ? *text : std::string(text.status().message());
  if (text.ok() && *text == tokens_in_force_) {
    tokens_refused_.clear();
    return Outcome::kUnchanged;
  }
  if (seen == tokens_refused_) return Outcome::kUnchanged;
  absl::StatusOr<TokenTable> table =
      text.ok() ? ParseTokensFile(*text, tokens_path_)
                : absl::StatusOr<TokenTable>(text.status());
  if (!table.ok()) {
    tokens_refused_ = seen;
    lines->push_back(
        absl::StrCat("reload: --auth_tokens_file refused, the tokens in force "
                     "stay: ",
                     table.status().message()));
    return Outcome::kRefused;
  }
  const size_t tokens = table->grants.size();
  const int tenants = table->tenants();
  authenticator_->Replace(*std::move(table));
  tokens_in_force_ = *std::move(text);
  tokens_refused_.clear();
  lines->push_back(absl::StrCat("reload: --auth_tokens_file ", tokens_path_,
                                " in force for new calls (", tokens,
                                " tokens, ", tenants, " tenants)"));
  return Outcome::kApplied;
}

CredentialReloader::Report CredentialReloader::Reload() {
  absl::MutexLock lock(&mu_);
  Report report;
  if (authenticator_ != nullptr) report.tokens = ReloadTokens(&report.lines);
  if (tls_ != nullptr) {
    TlsCertificateStore::Reload tls = tls_->ReloadFiles();
    report.tls = tls.outcome;
    if (tls.outcome == Outcome::kRefused) {
      report.lines.push_back(absl::StrCat(
          "reload: TLS files refused, the certificate in force stays: ",
          tls.message));
    } else if (tls.outcome == Outcome::kApplied) {
      report.lines.push_back(absl::StrCat("reload: ", tls.message));
    }
  }
  return report;
}

}  // namespace factord::server
