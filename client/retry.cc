// The retry policy of the Client (ConnectOptions::retry, RetryPolicy in
// factord_client.h): which failures are retried, the backoff, and the
// RPCs wrapped in it. The re-upload after NOT_FOUND (reupload.cc) sits
// around these, so a call is first retried while the failure is in transit
// and only then, if the daemon that answers has no such matrix, restored.
// Every call first waits for the channel's first connection, which fails at
// once where no daemon listens (first_contact.h).
#include "client/retry.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "client/factord_client.h"
#include "client/first_contact.h"
#include "client/grpc_status.h"
#include "client/status_details.h"

namespace factord::client {
namespace internal {

// Factord details every error it sends, so INTERNAL, UNKNOWN or CANCELLED
// without details were made by gRPC or a proxy: HAProxy resets the streams
// it had open to a daemon that died (CANCEL for a request still streaming,
// REFUSED_STREAM, i.e. UNAVAILABLE, for one waiting for its answer; gRPC
// reports a stream torn down with its connection as UNKNOWN). The client
// library has no cancellation a caller could have asked for.
bool RetriedInTransit(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kUnavailable:
      return !DaemonNeverReached(status);
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnknown:
    case absl::StatusCode::kCancelled:
      return WithoutServerDetails(status);
    default:
      return false;
  }
}

absl::Duration RetryBackoff(const RetryPolicy& policy, int attempt,
                            const absl::Status& status) {
  absl::Duration wait = policy.initial_backoff;
  for (int k = 1; k < attempt && wait < policy.max_backoff; ++k) {
    wait = wait * std::max(1.0, policy.backoff_multiplier);
  }
  wait = std::min(wait, policy.max_backoff);
  // +-20% so that clients cut off together do not come back together.
  thread_local absl::BitGen random;
  wait = wait * absl::Uniform(random, 0.8, 1.2);
  if (std::optional<absl::Duration> asked = RetryDelay(status); asked) {
    wait = std::max(wait, *asked);
  }
  return wait;
}

}  // namespace internal

absl::Status Client::WithRetries(absl::FunctionRef<absl::Status(int)> attempt) {
  const RetryPolicy& policy = options_.retry;
  const absl::Time start = absl::Now();
  // A target never reached fails here at once; one reached before is
  // waited for below.
  if (absl::Status reached =
          internal::AwaitFirstContact(*channel_, start + options_.rpc_timeout);
      !reached.ok()) {
    return reached;
  }
  const int attempts = std::max(1, policy.max_attempts);
  const absl::Time end = start + policy.total_timeout;
  for (int k = 1;; ++k) {
    absl::Status status = attempt(k);
    if (status.ok() || k >= attempts || !internal::RetriedInTransit(status)) {
      return status;
    }
    const absl::Duration wait = internal::RetryBackoff(policy, k, status);
    if (absl::Now() + wait > end) return status;
    absl::SleepFor(wait);
    // A daemon restarting: the next attempt waits for it, not for nothing.
    if (!internal::AwaitConnection(*channel_, end)) return status;
    retries_.fetch_add(1, std::memory_order_relaxed);
  }
}

int64_t Client::retries() const {
  return retries_.load(std::memory_order_relaxed);
}

absl::StatusOr<MatrixInfo> Client::UploadRetried(const CsrArrays& matrix,
                                                 absl::string_view id,
                                                 const UploadOptions& options) {
  absl::StatusOr<MatrixInfo> info;
  bool adopted = false;
  absl::Status status = WithRetries([&](int k) {
    info = UploadOnce(matrix, id, options);
    // A repeat that finds the ID taken: the attempt that failed in transit
    // got through. (A plain upload only: a replacing one never conflicts.)
    if (k > 1 && !options.replace && absl::IsAlreadyExists(info.status())) {
      adopted = true;
    }
    return info.status();
  });
  if (adopted) return GetMatrix(id);
  if (!status.ok()) return status;
  return info;
}

absl::StatusOr<MatrixInfo> Client::UpdateValuesRetried(
    absl::string_view id, std::span<const double> values,
    uint64_t expected_generation) {
  absl::StatusOr<MatrixInfo> info;
  // WithRetries' status, not only `info`'s: a first contact that fails
  // makes no attempt.
  if (absl::Status s = WithRetries([&](int) {
        info = UpdateValuesOnce(id, values, expected_generation);
        return info.status();
      });
      !s.ok()) {
    return s;
  }
  return info;
}

absl::StatusOr<FactorizeResult> Client::FactorizeRetried(
    absl::string_view id, const FactorizeOptions& options) {
  absl::StatusOr<FactorizeResult> result;
  if (absl::Status s = WithRetries([&](int) {
        result = FactorizeOnce(id, options);
        return result.status();
      });
      !s.ok()) {
    return s;
  }
  return result;
}

absl::StatusOr<std::vector<SolveResult>> Client::SolveRetried(
    absl::string_view id, std::span<const std::span<const double>> rhs,
    const SolveOptions& options) {
  absl::StatusOr<std::vector<SolveResult>> results;
  if (absl::Status s = WithRetries([&](int) {
        results = SolveOnce(id, rhs, options);
        return results.status();
      });
      !s.ok()) {
    return s;
  }
  return results;
}

absl::StatusOr<StepResult> Client::StepRetried(
    absl::string_view id, std::span<const double> values,
    std::span<const std::span<const double>> rhs, const StepOptions& options) {
  absl::StatusOr<StepResult> result;
  if (absl::Status s = WithRetries([&](int) {
        result = StepOnce(id, values, rhs, options);
        return result.status();
      });
      !s.ok()) {
    return s;
  }
  return result;
}

}  // namespace factord::client
