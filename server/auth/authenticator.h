// Bearer-token authentication of Solver RPCs: the request's
// `authorization: Bearer <token>` metadata names the tenant it acts for.
//
// Every grant is compared on every request, in time that depends only on
// the lengths of the stored tokens and of the presented one, never on how
// many leading characters match (no early exit), so that response timing
// does not reveal a token character by character. Messages never echo what
// the client sent.
#ifndef FACTORD_SERVER_AUTH_AUTHENTICATOR_H_
#define FACTORD_SERVER_AUTH_AUTHENTICATOR_H_

#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "server/auth/token_table.h"

namespace factord::server {

class Authenticator {
 public:
  explicit Authenticator(TokenTable table) : table_(std::move(table)) {}

  // The tenant of a request whose `authorization` metadata values are
  // `values` (gRPC may carry the key more than once). Unauthenticated when
  // there is none, more than one, a scheme other than Bearer, or a token
  // that no grant holds.
  absl::StatusOr<std::string> Authenticate(
      std::span<const absl::string_view> values) const;

  const TokenTable& table() const { return table_; }

 private:
  const TokenTable table_;
};

// Equality of `presented` and `stored` whose running time depends on the
// two lengths only.
bool ConstantTimeEquals(absl::string_view presented, absl::string_view stored);

}  // namespace factord::server

#endif  // FACTORD_SERVER_AUTH_AUTHENTICATOR_H_
