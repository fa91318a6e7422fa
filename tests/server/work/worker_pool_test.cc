#include "server/work/worker_pool.h"

#include <atomic>
#include <thread>

#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"

namespace factord::server {
namespace {

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
  WorkerPool pool("test", 1, 2);
  absl::Notification release, started;
  ASSERT_TRUE(pool.Submit([&] {
                    started.Notify();
                    release.WaitForNotification();
                  })
                  .ok());
  started.WaitForNotification();  // the worker is busy: the queue is empty
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
  WorkerPool pool("test", 1, 0);
  absl::Notification release, started;
  ASSERT_TRUE(pool.Submit([&] {
                    started.Notify();
                    release.WaitForNotification();
                  })
                  .ok());
  started.WaitForNotification();
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
  WorkerPool pool("test", 1, 10);
  absl::Notification release, started;
  std::atomic<int> done{0};
  ASSERT_TRUE(pool.Submit([&] {
                    started.Notify();
                    release.WaitForNotification();
                    done.fetch_add(1);
                  })
                  .ok());
  started.WaitForNotification();
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
  WorkerPool pool("test", 2, 10);
  absl::Notification both;
  std::atomic<int> arrived{0};
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(pool.Submit([&] {
                      if (arrived.fetch_add(1) == 1) both.Notify();
                      both.WaitForNotificationWithTimeout(absl::Seconds(10));
                    })
                    .ok());
  }
  EXPECT_TRUE(both.WaitForNotificationWithTimeout(absl::Seconds(10)));
}

}  // namespace
}  // namespace factord::server
