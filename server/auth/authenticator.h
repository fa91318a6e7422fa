// Bearer-token authentication of Solver RPCs: the request's
// `authorization: Bearer <token>` metadata names the tenant it acts for.
//
// Every grant is compared on every request, in time that depends only on
// the lengths of the stored tokens and of the presented one, never on how
// many leading characters match (no early exit), so that response timing
// does not reveal a token character by character. Messages never echo what
// the client sent.
//
// The grants can be replaced while the daemon runs (SIGHUP reloads
// --auth_tokens_file, docs/fleet.md): a request authenticates against the
// table in force when it arrives; requests admitted earlier keep their
// tenant, and nothing the tenant holds (matrices, factors) is touched.
#ifndef FACTORD_SERVER_AUTH_AUTHENTICATOR_H_
#define FACTORD_SERVER_AUTH_AUTHENTICATOR_H_

#include <memory>
#include <span>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "server/auth/token_table.h"

namespace factord::server {

class Authenticator {
 public:
  explicit Authenticator(TokenTable table)
      : table_(std::make_shared<const TokenTable>(std::move(table))) {}

  // The tenant of a request whose `authorization` metadata values are
  // `values` (gRPC may carry the key more than once). Unauthenticated when
  // there is none, more than one, a scheme other than Bearer, or a token
  // that no grant holds. Thread-safe.
  absl::StatusOr<std::string> Authenticate(
      std::span<const absl::string_view> values) const;

  // Puts `table` in force for every request that authenticates from now on.
  // Thread-safe; a request being authenticated finishes with the table it
  // started with.
  void Replace(TokenTable table);

  // The table in force (a snapshot: a later Replace does not change it).
  std::shared_ptr<const TokenTable> table() const;

 private:
  mutable absl::Mutex mu_;
  std::shared_ptr<const TokenTable> table_ ABSL_GUARDED_BY(mu_);
};

// Equality of `presented` and `stored` whose running time depends on the
// two lengths only.
bool ConstantTimeEquals(absl::string_view presented, absl::string_view stored);

}  // namespace factord::server

#endif  // FACTORD_SERVER_AUTH_AUTHENTICATOR_H_
