#include "server/metrics/recently_missing.h"

namespace factord::server {

void RecentlyMissing::Expire(absl::Time now) {
  while (!order_.empty() &&
         (order_.front().second + ttl_ < now || last_.size() > capacity_ ||
          order_.size() > 2 * capacity_)) {
    const auto& [key, when] = order_.front();
    auto it = last_.find(key);
    if (it != last_.end() && it->second == when) last_.erase(it);
    order_.pop_front();
  }
}

void RecentlyMissing::Remember(const std::string& key, absl::Time now) {
  absl::MutexLock lock(&mu_);
  last_[key] = now;
  order_.emplace_back(key, now);
  Expire(now);
}

bool RecentlyMissing::Take(const std::string& key, absl::Time now) {
  absl::MutexLock lock(&mu_);
  Expire(now);
  auto it = last_.find(key);
  if (it == last_.end()) return false;
  last_.erase(it);
  return true;
}

size_t RecentlyMissing::size() const {
  absl::MutexLock lock(&mu_);
  return last_.size();
}

}  // namespace factord::server
