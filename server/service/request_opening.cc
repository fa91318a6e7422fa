#include "server/service/request_opening.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "server/error_reason.h"

namespace factord::server {

absl::Status CheckMatrixId(absl::string_view id, absl::string_view field) {
  if (id.empty()) {
    return InvalidRequest(
        field, "the request must name the matrix (an ID chosen by the client)");
  }
  if (id.size() > kMaxMatrixIdLength) {
    return InvalidRequest(
        field, absl::StrCat("matrix id of ", id.size(), " bytes, over ",
                            kMaxMatrixIdLength));
  }
  for (size_t i = 0; i < id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(id[i]);
    if (c < 0x21 || c > 0x7e) {
      return InvalidRequest(field, absl::StrCat("matrix id byte ", i, " (0x",
                                                absl::Hex(c, absl::kZeroPad2),
                                                ") is not printable ASCII"));
    }
  }
  return absl::OkStatus();
}

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
