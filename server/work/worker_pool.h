// A fixed set of worker threads with a bounded queue: the only place where
// factorizations, solves and matrix assembly run, so that gRPC callback
// threads never block on numerical work.
#ifndef FACTORD_SERVER_WORK_WORKER_POOL_H_
#define FACTORD_SERVER_WORK_WORKER_POOL_H_

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"

namespace factord::server {

class WorkerPool {
 public:
  // `workers` >= 1 threads; at most `max_queue` jobs wait (not counting the
  // ones running). `name` appears in error messages ("factorize queue").
  WorkerPool(std::string name, int workers, int max_queue);
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool();  // Drain()

  // Queues `job`. ResourceExhausted when all workers are busy and max_queue
  // jobs already wait (max_queue 0: run at once or refuse),
  // Unavailable once Drain() has begun. The pool owns the job until it ran.
  absl::Status Submit(absl::AnyInvocable<void()> job);

  // Stops accepting jobs, runs every queued job, joins the workers.
  // Idempotent; safe to call from any thread except a worker.
  void Drain();

  int queue_length() const;  // jobs waiting
  int running() const;       // jobs being run
  int workers() const { return static_cast<int>(threads_.size()); }

 private:
  void WorkLoop();

  const std::string name_;
  const int max_queue_;
  // std::mutex rather than absl::Mutex: Debian's libabsl is not built with
  // ThreadSanitizer, which sees only synchronisation through pthreads, and
  // the worker pool and the caches are what scripts/sanitize.sh tsan checks.
  mutable std::mutex mu_;
  std::condition_variable work_ready_;  // queue_ not empty, or draining_
  std::deque<absl::AnyInvocable<void()>> queue_ ABSL_GUARDED_BY(mu_);
  int running_ ABSL_GUARDED_BY(mu_) = 0;
  bool draining_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
  std::mutex join_mu_;  // serializes concurrent Drain() calls
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_WORK_WORKER_POOL_H_
