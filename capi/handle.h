// What a factord_handle holds: where the work runs (a daemon through the
// C++ client, which retries calls that failed in transit, the in-process
// solver, or both with a size threshold), and per matrix ID where it is
// held, the
// caller's layout (for values in the caller's order) and the last reports.
// Internal to libfactord_c.
#ifndef FACTORD_CAPI_HANDLE_H_
#define FACTORD_CAPI_HANDLE_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "capi/matrix_layout.h"
#include "client/factord_client.h"
#include "client/status_details.h"
#include "factord/factord.h"

namespace factord::capi {

// One matrix ID as this handle knows it.
struct MatrixEntry {
  // Held while uploading this ID, so that the layout kept is the one of the
  // upload the daemon got last.
  std::mutex upload_mutex;

  std::mutex mutex;  // guards everything below
  // Where this handle uploaded the matrix; null for an ID it did not upload
  // (held by a daemon for another process).
  factord::client::Endpoint* endpoint = nullptr;
  // The caller's layout when this handle uploaded the matrix, else null.
  std::shared_ptr<const MatrixLayout> layout;
  // n and stored entries: from the layout or from GetMatrix; 0 = unknown.
  int64_t n = 0;
  int64_t stored_nnz = 0;
  std::optional<factord_factor_report> factor_report;
  std::optional<std::vector<factord_solve_report>> solve_reports;
};

}  // namespace factord::capi

struct factord_handle {
  // The daemon (null in process-only mode) and the in-process solver (null
  // when not used, or when this build of the library has none).
  std::unique_ptr<factord::client::Endpoint> remote;
  std::unique_ptr<factord::client::Endpoint> local;
  // With both: uploads of matrices of order n < local_below_n stay in
  // process.
  int64_t local_below_n = 0;
  std::atomic<int64_t> uploads{0};

  std::mutex mutex;  // guards matrices
  std::unordered_map<std::string, std::shared_ptr<factord::capi::MatrixEntry>>
      matrices;

  // The entry of `id`, made when absent.
  std::shared_ptr<factord::capi::MatrixEntry> Entry(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex);
    std::shared_ptr<factord::capi::MatrixEntry>& e = matrices[id];
    if (!e) e = std::make_shared<factord::capi::MatrixEntry>();
    return e;
  }

  // Where an upload of order n goes.
  factord::client::Endpoint* EndpointForUpload(int64_t n) const {
    if (remote == nullptr) return local.get();
    if (local != nullptr && n < local_below_n) return local.get();
    return remote.get();
  }

  // The entry of `id`, or null when this handle has none.
  std::shared_ptr<factord::capi::MatrixEntry> FindEntry(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = matrices.find(id);
    return it == matrices.end() ? nullptr : it->second;
  }

  // Where `entry` (may be null) is held: where this handle uploaded it,
  // else the daemon (an ID uploaded elsewhere), else the in-process solver.
  factord::client::Endpoint* EndpointOf(factord::capi::MatrixEntry* entry) {
    if (entry != nullptr) {
      std::lock_guard<std::mutex> lock(entry->mutex);
      if (entry->endpoint != nullptr) return entry->endpoint;
    }
    if (remote != nullptr) return remote.get();
    return local.get();
  }
};

#endif  // FACTORD_CAPI_HANDLE_H_
