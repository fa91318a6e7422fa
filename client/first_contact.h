// The first connection of a Client, told apart from a lost one: an address
// where nothing answers fails at once (no daemon there: retrying will not
// help), while a daemon that was reached and went away is waited for (it
// may be restarting: the retry policy's window, retry.cc). Internal to the
// client library.
#ifndef FACTORD_CLIENT_FIRST_CONTACT_H_
#define FACTORD_CLIENT_FIRST_CONTACT_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "client/channel.h"

namespace factord::client::internal {

// OK once `channel` is connected, at once when it has been before (then it
// is marked reached for good). When its first connection fails (refused,
// a TLS handshake that fails, a name that does not resolve): UNAVAILABLE
// from NeverReachedError with gRPC's account of the failure. When neither
// happens by `deadline` (an address that does not answer at all):
// DEADLINE_EXCEEDED naming the target.
absl::Status AwaitFirstContact(ClientChannel& channel, absl::Time deadline);

// Whether `channel` is connected by `deadline`, asking it to connect (a
// channel that lost its connection reconnects with gRPC's backoff, at most
// ConnectOptions::max_reconnect_backoff apart).
bool AwaitConnection(ClientChannel& channel, absl::Time deadline);

// The UNAVAILABLE of a first connection to `target` that failed, `cause`
// being gRPC's account: the message names the target and says how to start
// a daemon there; the ErrorInfo (reason UNAVAILABLE) has the metadata
// target=<target> and first_connection=failed (DaemonNeverReached,
// status_details.h).
absl::Status NeverReachedError(absl::string_view target,
                               absl::string_view cause);

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_FIRST_CONTACT_H_
