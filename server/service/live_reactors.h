// Owns the service's reactors from creation until gRPC calls OnDone, so that
// no reactor deletes itself, and counts them for shutdown checks.
#ifndef FACTORD_SERVER_SERVICE_LIVE_REACTORS_H_
#define FACTORD_SERVER_SERVICE_LIVE_REACTORS_H_

#include <memory>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace factord::server {

class LiveReactors {
 public:
  // Takes ownership of `reactor` and returns it for gRPC.
  template <typename Reactor>
  Reactor* Adopt(std::unique_ptr<Reactor> reactor) {
    Reactor* raw = reactor.get();
    // shared_ptr<void> keeps the right deleter whatever the reactor type.
    std::shared_ptr<void> owned(std::move(reactor));
    absl::MutexLock lock(&mu_);
    reactors_.emplace(raw, std::move(owned));
    return raw;
  }

  // Destroys `reactor`; call only from its OnDone, as its last action.
  void Drop(const void* reactor) {
    std::shared_ptr<void> doomed;
    {
      absl::MutexLock lock(&mu_);
      auto it = reactors_.find(reactor);
      if (it == reactors_.end()) return;
      doomed = std::move(it->second);
      reactors_.erase(it);
    }
    // Destroyed here, outside the lock.
  }

  // Waits until no reactor is alive or `deadline` passes; true if empty.
  bool WaitUntilEmpty(absl::Time deadline) {
    absl::MutexLock lock(&mu_);
    auto empty = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return reactors_.empty();
    };
    return mu_.AwaitWithDeadline(absl::Condition(&empty), deadline);
  }

  int size() const {
    absl::MutexLock lock(&mu_);
    return static_cast<int>(reactors_.size());
  }

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<const void*, std::shared_ptr<void>> reactors_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_LIVE_REACTORS_H_
