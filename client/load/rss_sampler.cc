#include "client/load/rss_sampler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace factord::load {

absl::StatusOr<int64_t> ReadRssKb(int64_t pid) {
  const std::string path = absl::StrCat("/proc/", pid, "/status");
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::string line;
  while (std::getline(in, line)) {
    absl::string_view rest = line;
    if (!absl::ConsumePrefix(&rest, "VmRSS:")) continue;
    rest = absl::StripAsciiWhitespace(rest);
    absl::ConsumeSuffix(&rest, "kB");
    int64_t kb = 0;
    if (absl::SimpleAtoi(absl::StripAsciiWhitespace(rest), &kb)) return kb;
  }
  return absl::NotFoundError(absl::StrCat("no VmRSS line in ", path));
}

RssSampler::RssSampler(int64_t pid, double period_s)
    : pid_(pid), period_s_(period_s), thread_([this] { Loop(); }) {}

RssSampler::~RssSampler() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  thread_.join();
}

int64_t RssSampler::max_kb() const {
  std::lock_guard<std::mutex> lock(mu_);
  return max_kb_;
}

void RssSampler::Loop() {
  const absl::Time start = absl::Now();
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    absl::StatusOr<int64_t> kb = ReadRssKb(pid_);
    if (kb.ok()) {
      max_kb_ = std::max(max_kb_, *kb);
      std::printf("rss t=%.1f vmrss_kb=%lld\n",
                  absl::ToDoubleSeconds(absl::Now() - start),
                  static_cast<long long>(*kb));
      std::fflush(stdout);
    }
    stop_cv_.wait_for(lock, std::chrono::duration<double>(period_s_),
                      [this] { return stop_; });
  }
}

}  // namespace factord::load
