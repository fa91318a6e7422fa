// The opening that every Solver handler naming a matrix shares: the ID is
// checked (present, at most 256 printable ASCII characters) and logged, and
// the matrix is looked up in the caller's part of the cache, counted as a
// cache hit or miss. Also the size check of streamed request messages.
#ifndef FACTORD_SERVER_SERVICE_REQUEST_OPENING_H_
#define FACTORD_SERVER_SERVICE_REQUEST_OPENING_H_

#include <cstddef>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "server/cache/factor_cache.h"
#include "server/service/admission.h"
#include "server/service/cached_work.h"
#include "server/service/request_log.h"
#include "server/service/service_state.h"

namespace factord::server {

// The cache entry of `key`, counting a hit or a miss; NOT_FOUND.
absl::StatusOr<CacheEntry> LookupMatrix(const ServiceState& state,
                                        const MatrixKey& key);

// Logs `id` as the request's matrix, checks it (CheckMatrixId) and looks it
// up (LookupMatrix).
absl::StatusOr<CacheEntry> OpenMatrix(const ServiceState& state,
                                      const Caller& caller, RequestLog& log,
                                      absl::string_view id,
                                      absl::string_view field);

// RESOURCE_EXHAUSTED (MESSAGE_TOO_LARGE) when one request message of
// `bytes` is over the server's max_message_bytes. The gRPC transport itself
// accepts messages up to twice that (server.cc), so that an oversized
// message gets this structured refusal rather than the transport's.
absl::Status CheckMessageSize(const ServiceState& state, size_t bytes);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_REQUEST_OPENING_H_
