// The bound on Solver RPCs open at once (--max_concurrent_requests): each
// admitted request holds a RequestSlot for its whole life (a stream until
// it finishes), so a flood of open streams is refused with
// RESOURCE_EXHAUSTED instead of exhausting memory and threads.
#ifndef FACTORD_SERVER_SERVICE_CONCURRENCY_LIMIT_H_
#define FACTORD_SERVER_SERVICE_CONCURRENCY_LIMIT_H_

#include <atomic>
#include <utility>

namespace factord::server {

class ConcurrencyLimit {
 public:
  explicit ConcurrencyLimit(int limit) : limit_(limit) {}  // 0: unlimited

  // Takes a slot unless `limit` are taken.
  bool TryAcquire() {
    int now = in_flight_.load(std::memory_order_relaxed);
    do {
      if (limit_ > 0 && now >= limit_) return false;
    } while (!in_flight_.compare_exchange_weak(now, now + 1,
                                               std::memory_order_acq_rel));
    return true;
  }
  void Release() { in_flight_.fetch_sub(1, std::memory_order_acq_rel); }

  int in_flight() const { return in_flight_.load(std::memory_order_relaxed); }
  int limit() const { return limit_; }

 private:
  const int limit_;
  std::atomic<int> in_flight_{0};
};

// A taken slot, given back on destruction. Move-only; empty when
// default-constructed. The limit is not owned and must outlive the slot.
class RequestSlot {
 public:
  RequestSlot() = default;
  explicit RequestSlot(ConcurrencyLimit* limit) : limit_(limit) {}
  RequestSlot(RequestSlot&& other) noexcept
      : limit_(std::exchange(other.limit_, nullptr)) {}
  RequestSlot& operator=(RequestSlot&& other) noexcept {
    if (this != &other) {
      Reset();
      limit_ = std::exchange(other.limit_, nullptr);
    }
    return *this;
  }
  RequestSlot(const RequestSlot&) = delete;
  RequestSlot& operator=(const RequestSlot&) = delete;
  ~RequestSlot() { Reset(); }

  // Gives the slot back now (idempotent). Handlers call it just before they
  // send the final status: a client that sends its next request as soon as
  // it has the answer must find the slot free, not still held until the
  // reactor is destroyed.
  void Reset() {
    if (limit_ != nullptr) limit_->Release();
    limit_ = nullptr;
  }

 private:
  ConcurrencyLimit* limit_ = nullptr;
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_CONCURRENCY_LIMIT_H_
