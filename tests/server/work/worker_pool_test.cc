#include "server/work/worker_pool.h"

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace factord::server {
namespace {

// A one-shot event on std::promise (pthreads underneath), not
// Event: ThreadSanitizer does not see the synchronisation of
// Debian's uninstrumented libabsl (scripts/sanitize.sh tsan runs this file).
// Declared before the pool in each test, so the pool (drained by its
// destructor) is gone before any worker could still be inside Wait().
class Event {
 public:
  void Notify() { promise_.set_value(); }
  void Wait() { future_.wait(); }
  bool WaitFor(std::chrono::seconds timeout) {
    return future_.wait_for(timeout) == std::future_status::ready;
  }

 private:
  std::promise<void> promise_;
  std::shared_future<void> future_ = promise_.get_future().share();
};

TEST(WorkerPool, RunsEveryJob) {
  std::atomic<int> done{0};
  {
    WorkerPool pool("test", 2, 100);
    for (int i = 0; i < 50; ++i) {
      ASSERT_TRUE(pool.Submit([&done] { done.fetch_add(1); }).ok());
    }
  }  // the destructor drains
  EXPECT_EQ(done.load(), 50);
}

TEST(WorkerPool, BoundedQueueRefusesWithResourceExhausted) {
  Event release, started;
  WorkerPool pool("test", 1, 2);
  ASSERT_TRUE(pool.Submit([&] {
                    started.Notify();
                    release.Wait();
                  })
                  .ok());
  started.Wait();  // the worker is busy: the queue is empty
  EXPECT_TRUE(pool.Submit([] {}).ok());
  EXPECT_TRUE(pool.Submit([] {}).ok());
  EXPECT_EQ(pool.queue_length(), 2);
  EXPECT_EQ(pool.running(), 1);
  absl::Status full = pool.Submit([] {});
  EXPECT_EQ(full.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(full.message().find("max_queue = 2"), absl::string_view::npos)
      << full;
  release.Notify();
}

TEST(WorkerPool, ZeroQueueRunsOnIdleWorkersOnly) {
  Event release, started;
  WorkerPool pool("test", 1, 0);
  ASSERT_TRUE(pool.Submit([&] {
                    started.Notify();
                    release.Wait();
                  })
                  .ok());
  started.Wait();
  EXPECT_EQ(pool.Submit([] {}).code(), absl::StatusCode::kResourceExhausted);
  release.Notify();
  // Once the worker is idle again a job is accepted.
  absl::Status s;
  for (int i = 0; i < 1000; ++i) {
    s = pool.Submit([] {});
    if (s.ok()) break;
    absl::SleepFor(absl::Milliseconds(1));
  }
  EXPECT_TRUE(s.ok()) << s;
}

TEST(WorkerPool, DrainRunsQueuedJobsThenRefuses) {
  Event release, started;
  WorkerPool pool("test", 1, 10);
  std::atomic<int> done{0};
  ASSERT_TRUE(pool.Submit([&] {
                    started.Notify();
                    release.Wait();
                    done.fetch_add(1);
                  })
                  .ok());
  started.Wait();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(pool.Submit([&done] { done.fetch_add(1); }).ok());
  }
  std::thread drainer([&pool] { pool.Drain(); });
  // Drain waits for the blocked job: let it go.
  absl::SleepFor(absl::Milliseconds(20));
  release.Notify();
  drainer.join();
  EXPECT_EQ(done.load(), 4);
  EXPECT_EQ(pool.Submit([] {}).code(), absl::StatusCode::kUnavailable);
  pool.Drain();  // idempotent
}

TEST(WorkerPool, JobsRunConcurrentlyOnAllWorkers) {
  Event both;
  WorkerPool pool("test", 2, 10);
  std::atomic<int> arrived{0};
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(pool.Submit([&] {
                      if (arrived.fetch_add(1) == 1) both.Notify();
                      both.WaitFor(std::chrono::seconds(10));
                    })
                    .ok());
  }
  EXPECT_TRUE(both.WaitFor(std::chrono::seconds(10)));
}

}  // namespace
}  // namespace factord::server
