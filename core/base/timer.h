// Wall-clock stopwatch for the per-stage timings a reply carries.
#ifndef FACTORD_BASE_TIMER_H_
#define FACTORD_BASE_TIMER_H_

#include <chrono>

namespace factord {

class Timer {
 public:
  Timer() : start_(std::chrono::steady_clock::now()) {}
  void Reset() { start_ = std::chrono::steady_clock::now(); }
  // Seconds since construction or the last Reset().
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace factord

#endif  // FACTORD_BASE_TIMER_H_
