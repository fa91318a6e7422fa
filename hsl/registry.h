// The process-wide state of libhsl.so: one connection to factord, and the
// analyses (Sessions) behind the callers' KEEP (MA57) and IKEEP (MA27)
// arrays. MA57 and MA27 have no finalize call, so the registry decides
// when an analysis ends (docs/hsl.md, "State and its release"):
//   - a session is keyed by the address of the KEEP/IKEEP array it was
//     analysed into (and the serial written into that array); a new
//     analysis into the same array replaces it, taking over its factord
//     ID so that the daemon replaces the matrix instead of keeping both;
//   - at most FACTORD_HSL_MAX_MATRICES (default 32) sessions live; beyond
//     that the least recently used one is released, its factord matrix
//     too (a later factorization through its KEEP/IKEEP uploads the
//     pattern again; a solve with its old factorization fails);
//   - nothing is released at process exit (an exit handler that calls
//     into the client crashes: gRPC's statics are destroyed first): a
//     daemon frees what a process left after its idle TTL (--idle_ttl,
//     1 h by default); in process, the matrices end with it.
// Thread-safe: the registry has its own mutex, each session another.
#ifndef FACTORD_HSL_REGISTRY_H_
#define FACTORD_HSL_REGISTRY_H_

#include <atomic>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "factord/factord.h"
#include "hsl/session.h"
#include "hsl/triplets.h"

namespace factord::hsl {

class Registry {
 public:
  // The process's registry (never destroyed: it outlives callers' static
  // destructors).
  static Registry& Get();

  // The connection ($FACTORD_SERVER, $FACTORD_CONNECT_TIMEOUT, ...; with
  // transparent re-upload), made on the first call that needs it and
  // retried by later calls after a failure. nullptr with *failure set when
  // the daemon cannot be reached.
  factord_handle* Connection(Failure* failure);

  // A new session for the arrays at `key` holding `triplets`; the session
  // `key` held before is released without touching its factord matrix
  // (the new one replaces it under the same ID). Releases the least
  // recently used sessions beyond the bound.
  std::shared_ptr<Session> Create(const void* key, Triplets triplets);
  // The session at `key` whose serial is `serial` (and not released), made
  // the most recently used; nullptr when there is none.
  std::shared_ptr<Session> Find(const void* key, uint64_t serial);
  // The session with this serial, wherever it is keyed; nullptr if none.
  std::shared_ptr<Session> FindSerial(uint64_t serial);

  // Records the outcome of a call to factord: after UNAVAILABLE or
  // DEADLINE_EXCEEDED an eviction does not wait on a release.
  void NoteStatus(factord_status status);
  void CountUpload() { ++uploads_; }

  int64_t sessions();
  int64_t uploads() const { return uploads_; }
  std::string IdAt(const void* key);
  // FACTORD_HSL_VERBOSE=1: one line per call on stdout.
  bool verbose() const { return verbose_; }

 private:
  Registry();
  struct Entry {
    std::shared_ptr<Session> session;
    const void* key;
    std::list<uint64_t>::iterator lru;  // position in lru_
  };
  // Under mutex_: removes the session with this serial from the maps.
  std::shared_ptr<Session> Remove(uint64_t serial);

  std::mutex mutex_;
  factord_handle* connection_ = nullptr;
  std::string id_prefix_;
  uint64_t next_serial_ = 1;
  std::map<uint64_t, Entry> by_serial_;
  std::map<const void*, uint64_t> by_key_;
  std::list<uint64_t> lru_;  // most recently used first
  size_t max_sessions_ = 32;
  bool verbose_ = false;
  std::atomic<int64_t> uploads_{0};
  std::atomic<bool> unreachable_{false};
};

}  // namespace factord::hsl

#endif  // FACTORD_HSL_REGISTRY_H_
