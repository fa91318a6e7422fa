// The matrix IDs this daemon recently answered NOT_FOUND for, so that an
// upload of one of them can be counted as a re-upload
// (factord_reuploads_total): a client whose matrix this daemon never had
// (the proxy moved the ID here after another daemon failed or drained) or
// lost (restart, eviction, idle TTL) gets NOT_FOUND and uploads the matrix
// again under the same ID (ConnectOptions::reupload_on_not_found). Bounded
// in count and age: at most `capacity` IDs, each kept for `ttl`.
#ifndef FACTORD_SERVER_METRICS_RECENTLY_MISSING_H_
#define FACTORD_SERVER_METRICS_RECENTLY_MISSING_H_

#include <cstddef>
#include <deque>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace factord::server {

class RecentlyMissing {
 public:
  RecentlyMissing(size_t capacity, absl::Duration ttl)
      : capacity_(capacity), ttl_(ttl) {}

  // `key` (tenant and ID) was answered NOT_FOUND at `now`.
  void Remember(const std::string& key, absl::Time now);

  // True, and forgets it, when `key` was remembered within the TTL.
  bool Take(const std::string& key, absl::Time now);

  size_t size() const;

 private:
  void Expire(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const size_t capacity_;
  const absl::Duration ttl_;
  mutable absl::Mutex mu_;
  // When each key was last answered NOT_FOUND, and the keys in that order
  // (an entry of `order` whose time differs from `last_` is stale).
  absl::flat_hash_map<std::string, absl::Time> last_ ABSL_GUARDED_BY(mu_);
  std::deque<std::pair<std::string, absl::Time>> order_ ABSL_GUARDED_BY(mu_);
};

}  // namespace factord::server

#endif  // FACTORD_SERVER_METRICS_RECENTLY_MISSING_H_
