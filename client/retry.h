// The retry policy's two decisions (RetryPolicy in factord_client.h): which
// failures are retried, and how long to wait before the next attempt.
// Internal to the client library; declared here for its tests.
#ifndef FACTORD_CLIENT_RETRY_H_
#define FACTORD_CLIENT_RETRY_H_

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "client/factord_client.h"

namespace factord::client::internal {

// Whether `status` is a failure in transit rather than a daemon's answer:
// UNAVAILABLE (but for a first connection that failed: DaemonNeverReached),
// or INTERNAL, UNKNOWN or CANCELLED that came without a google.rpc.Status
// (WithoutServerDetails, grpc_status.h).
bool RetriedInTransit(const absl::Status& status);

// The wait after failed attempt `attempt` (>= 1): initial_backoff times
// backoff_multiplier^(attempt-1), at most max_backoff, +-20% jitter, and
// at least the RetryInfo delay `status` carries, if any.
absl::Duration RetryBackoff(const RetryPolicy& policy, int attempt,
                            const absl::Status& status);

}  // namespace factord::client::internal

#endif  // FACTORD_CLIENT_RETRY_H_
