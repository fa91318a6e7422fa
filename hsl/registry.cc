// See registry.h.
#include "hsl/registry.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace factord::hsl {
namespace {

constexpr size_t kDefaultMaxSessions = 32;

}  // namespace

Registry& Registry::Get() {
  static Registry* registry = new Registry();
  return *registry;
}

Registry::Registry() {
  std::random_device random;
  id_prefix_ = absl::StrFormat("hsl-%d-%08x%08x", static_cast<int>(getpid()),
                               random(), random());
  max_sessions_ = kDefaultMaxSessions;
  if (const char* text = std::getenv("FACTORD_HSL_MAX_MATRICES")) {
    int value = 0;
    if (absl::SimpleAtoi(text, &value) && value >= 1) {
      max_sessions_ = static_cast<size_t>(value);
    } else {
      std::fprintf(stderr,
                   "factord hsl: FACTORD_HSL_MAX_MATRICES='%s' ignored: not "
                   "an integer >= 1 (using %zu)\n",
                   text, kDefaultMaxSessions);
    }
  }
  const char* verbose = std::getenv("FACTORD_HSL_VERBOSE");
  verbose_ = verbose != nullptr && std::strcmp(verbose, "0") != 0 &&
             verbose[0] != '\0';
}

factord_handle* Registry::Connection(Failure* failure) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (connection_ != nullptr) return connection_;
  // Address, token and TLS from the environment; connect timeout
  // $FACTORD_CONNECT_TIMEOUT (10 s), UNAVAILABLE retried as long; a
  // restarted daemon is survived by re-uploading the matrices.
  factord_connect_options options;
  factord_connect_options_init(&options);
  options.reupload = 1;
  if (factord_status s = factord_connect(nullptr, &options, &connection_);
      s != FACTORD_OK) {
    connection_ = nullptr;
    unreachable_ = true;
    failure->status = s;
    failure->message = absl::StrCat(
        "cannot reach factord: ", factord_status_name(s), " [",
        factord_last_error_reason(), "]: ", factord_last_error_message());
    return nullptr;
  }
  unreachable_ = false;
  return connection_;
}

std::shared_ptr<Session> Registry::Remove(uint64_t serial) {
  auto it = by_serial_.find(serial);
  if (it == by_serial_.end()) return nullptr;
  std::shared_ptr<Session> session = std::move(it->second.session);
  auto key = by_key_.find(it->second.key);
  if (key != by_key_.end() && key->second == serial) by_key_.erase(key);
  lru_.erase(it->second.lru);
  by_serial_.erase(it);
  return session;
}

std::shared_ptr<Session> Registry::Create(const void* key, Triplets triplets) {
  std::shared_ptr<Session> replaced, created;
  std::vector<std::shared_ptr<Session>> evicted;
  factord_handle* connection = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    connection = connection_;
    const uint64_t serial = next_serial_++;
    std::string id = absl::StrCat(id_prefix_, "-", serial);
    if (auto old = by_key_.find(key); old != by_key_.end()) {
      replaced = Remove(old->second);
      if (replaced != nullptr) id = replaced->id();
    }
    created =
        std::make_shared<Session>(serial, std::move(id), std::move(triplets));
    lru_.push_front(serial);
    by_serial_[serial] = Entry{created, key, lru_.begin()};
    by_key_[key] = serial;
    while (by_serial_.size() > max_sessions_) {
      evicted.push_back(Remove(lru_.back()));
    }
  }
  if (replaced != nullptr) {
    std::lock_guard<std::mutex> lock(replaced->mutex());
    replaced->MarkReleased();
  }
  for (const std::shared_ptr<Session>& session : evicted) {
    std::lock_guard<std::mutex> lock(session->mutex());
    session->MarkReleased();
    if (session->uploaded() && connection != nullptr && !unreachable_) {
      if (factord_release(connection, session->id().c_str(), nullptr) !=
          FACTORD_OK) {
        std::fprintf(stderr,
                     "factord hsl: releasing '%s' (least recently used): %s\n",
                     session->id().c_str(), factord_last_error_message());
      }
    }
    if (verbose_) {
      std::printf("factord hsl: released '%s' (least recently used of %zu)\n",
                  session->id().c_str(), max_sessions_ + 1);
      std::fflush(stdout);
    }
  }
  return created;
}

std::shared_ptr<Session> Registry::Find(const void* key, uint64_t serial) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto at = by_key_.find(key);
  if (at == by_key_.end() || at->second != serial) return nullptr;
  Entry& entry = by_serial_.at(serial);
  lru_.splice(lru_.begin(), lru_, entry.lru);
  return entry.session;
}

std::shared_ptr<Session> Registry::FindSerial(uint64_t serial) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = by_serial_.find(serial);
  if (it == by_serial_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second.lru);
  return it->second.session;
}

void Registry::NoteStatus(factord_status status) {
  unreachable_ = status == FACTORD_ERR_UNAVAILABLE ||
                 status == FACTORD_ERR_DEADLINE_EXCEEDED;
}

int64_t Registry::sessions() {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int64_t>(by_serial_.size());
}

std::string Registry::IdAt(const void* key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto at = by_key_.find(key);
  return at == by_key_.end() ? "" : by_serial_.at(at->second).session->id();
}

}  // namespace factord::hsl
