#include "server/service/request_opening.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "server/error_reason.h"

namespace factord::server {

absl::StatusOr<CacheEntry> LookupMatrix(const ServiceState& state,
                                        const MatrixKey& key) {
  absl::StatusOr<CacheEntry> entry = state.cache->Lookup(key);
  if (entry.ok()) {
    state.metrics->CacheHit();
  } else {
    state.metrics->CacheMiss();
  }
  return entry;
}

absl::StatusOr<CacheEntry> OpenMatrix(const ServiceState& state,
                                      const Caller& caller, RequestLog& log,
                                      absl::string_view id,
                                      absl::string_view field) {
  log.set_matrix_id(id);
  if (absl::Status s = CheckMatrixId(id, field); !s.ok()) return s;
  return LookupMatrix(state, caller.Key(std::string(id)));
}

absl::Status CheckMessageSize(const ServiceState& state, size_t bytes) {
  const int64_t limit = state.config.max_message_bytes;
  if (static_cast<int64_t>(bytes) <= limit) return absl::OkStatus();
  return WithReason(absl::ResourceExhaustedError(absl::StrCat(
                        "a request message of ", bytes,
                        " bytes is over the server's max_message_bytes = ",
                        limit, ": send smaller chunks")),
                    v1::MESSAGE_TOO_LARGE);
}

}  // namespace factord::server
