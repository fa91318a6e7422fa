// Cooperative cancellation for long numerical loops.
//
// The service sets a deadline and flips the flag when a client cancels; every
// factorization level and Krylov iteration calls Check(), which returns
// CancelledError or DeadlineExceededError so that the caller unwinds cleanly.
#ifndef FACTORD_BASE_CANCELLATION_H_
#define FACTORD_BASE_CANCELLATION_H_

#include <atomic>
#include <chrono>

#include "absl/status/status.h"

namespace factord {

class Cancellation {
 public:
  using Clock = std::chrono::steady_clock;

  Cancellation() = default;
  explicit Cancellation(Clock::time_point deadline) : deadline_(deadline) {}

  void Cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  void set_deadline(Clock::time_point deadline) { deadline_ = deadline; }

  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

  // OK while the work may go on; Cancelled or DeadlineExceeded otherwise.
  absl::Status Check() const {
    if (cancelled()) return absl::CancelledError("request cancelled");
    if (deadline_ != Clock::time_point::max() && Clock::now() > deadline_) {
      return absl::DeadlineExceededError("deadline exceeded");
    }
    return absl::OkStatus();
  }

  // A token that never fires, for callers without a request.
  static const Cancellation& None() {
    static const Cancellation none;
    return none;
  }

 private:
  std::atomic<bool> cancelled_{false};
  Clock::time_point deadline_ = Clock::time_point::max();
};

}  // namespace factord

#endif  // FACTORD_BASE_CANCELLATION_H_
