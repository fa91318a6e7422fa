#include "server/work/worker_pool.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace factord::server {

WorkerPool::WorkerPool(std::string name, int workers, int max_queue)
    : name_(std::move(name)), max_queue_(max_queue < 0 ? 0 : max_queue) {
  if (workers < 1) workers = 1;
  threads_.reserve(workers);
  for (int i = 0; i < workers; ++i)
    threads_.emplace_back([this] { WorkLoop(); });
}

WorkerPool::~WorkerPool() { Drain(); }

absl::Status WorkerPool::Submit(absl::AnyInvocable<void()> job) {
  absl::MutexLock lock(&mu_);
  if (draining_) {
    return absl::UnavailableError(
        absl::StrCat("the ", name_, " pool is shutting down"));
  }
  // Jobs beyond the busy workers wait; at most max_queue of them.
  const int workers = static_cast<int>(threads_.size());
  if (static_cast<int>(queue_.size()) + running_ >= workers + max_queue_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the ", name_, " queue is full (max_queue = ", max_queue_,
                     " jobs waiting)"));
  }
  queue_.push_back(std::move(job));
  return absl::OkStatus();
}

void WorkerPool::Drain() {
  absl::MutexLock join_lock(&join_mu_);
  {
    absl::MutexLock lock(&mu_);
    draining_ = true;
  }
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

int WorkerPool::queue_length() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(queue_.size());
}

int WorkerPool::running() const {
  absl::MutexLock lock(&mu_);
  return running_;
}

void WorkerPool::WorkLoop() {
  while (true) {
    absl::AnyInvocable<void()> job;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return !queue_.empty() || draining_;
      };
      mu_.Await(absl::Condition(&ready));
      // Draining runs what was queued before it stops.
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    job();
    job = nullptr;  // destroy captures before reporting completion
    absl::MutexLock lock(&mu_);
    --running_;
  }
}

}  // namespace factord::server
