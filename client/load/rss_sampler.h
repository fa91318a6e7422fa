// Resident memory of a process, from the VmRSS line of /proc/PID/status
// (Linux only), and a background sampler that prints it periodically.
#ifndef FACTORD_CLIENT_LOAD_RSS_SAMPLER_H_
#define FACTORD_CLIENT_LOAD_RSS_SAMPLER_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "absl/status/statusor.h"

namespace factord::load {

// VmRSS of `pid` in KiB; NotFound when the process or the line is missing.
absl::StatusOr<int64_t> ReadRssKb(int64_t pid);

// Prints "rss t=<s> vmrss_kb=<k>" to stdout every `period_s` seconds from
// construction to destruction and keeps the maximum seen.
class RssSampler {
 public:
  RssSampler(int64_t pid, double period_s);
  ~RssSampler();
  RssSampler(const RssSampler&) = delete;
  RssSampler& operator=(const RssSampler&) = delete;

  int64_t max_kb() const;

 private:
  void Loop();

  int64_t pid_;
  double period_s_;
  mutable std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  int64_t max_kb_ = 0;
  std::thread thread_;
};

}  // namespace factord::load

#endif  // FACTORD_CLIENT_LOAD_RSS_SAMPLER_H_
