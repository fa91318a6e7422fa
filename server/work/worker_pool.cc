#include "server/work/worker_pool.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "server/error_reason.h"

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
  std::unique_lock<std::mutex> lock(mu_);
  if (draining_) {
    return WithRetryDelay(
        WithReason(absl::UnavailableError(
                       absl::StrCat("the ", name_, " pool is shutting down")),
                   v1::UNAVAILABLE),
        absl::Seconds(1));
  }
  // Jobs beyond the busy workers wait; at most max_queue of them.
  const int workers = static_cast<int>(threads_.size());
  if (static_cast<int>(queue_.size()) + running_ >= workers + max_queue_) {
    return QueueFull(absl::StrCat("the ", name_, " queue is full (max_queue = ",
                                  max_queue_, " jobs waiting); retry later"));
  }
  queue_.push_back(std::move(job));
  lock.unlock();
  work_ready_.notify_one();
  return absl::OkStatus();
}

void WorkerPool::Drain() {
  std::lock_guard<std::mutex> join_lock(join_mu_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    draining_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

int WorkerPool::queue_length() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(queue_.size());
}

int WorkerPool::running() const {
  std::lock_guard<std::mutex> lock(mu_);
  return running_;
}

void WorkerPool::WorkLoop() {
  while (true) {
    absl::AnyInvocable<void()> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_ready_.wait(lock, [this] { return !queue_.empty() || draining_; });
      // Draining runs what was queued before it stops.
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    job();
    job = nullptr;  // destroy captures before reporting completion
    std::lock_guard<std::mutex> lock(mu_);
    --running_;
  }
}

}  // namespace factord::server
