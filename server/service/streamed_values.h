// What the streaming handlers share about values: collecting a vector sent
// in chunks (checked finite and not longer than announced), a matrix with
// new values on a held pattern, and the size of solution reply chunks.
#ifndef FACTORD_SERVER_SERVICE_STREAMED_VALUES_H_
#define FACTORD_SERVER_SERVICE_STREAMED_VALUES_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/matrix/csr.h"

namespace factord::server {

// Appends `chunk` to `into` (of its final size `size_name` = into.size())
// after the `received` values so far, and advances `received`.
// InvalidArgument (INVALID_MATRIX) on more values than announced ("received
// more than nnz = 10 values (11 so far)") or a non-finite one ("value 5 is
// nan"); `what` and `whats` name one value and several.
absl::Status AppendFiniteValues(std::span<const double> chunk,
                                absl::string_view what, absl::string_view whats,
                                absl::string_view size_name,
                                std::vector<double>& into, int64_t& received);

// `old`'s pattern with `values` (nnz of them, in stored-entry order).
std::shared_ptr<CsrMatrix> WithNewValues(const CsrMatrix& old,
                                         std::vector<double> values);

// Doubles per solution reply message: half the message limit, at most
// 2 MiB, so that replies stay below a client's default receive limit.
int64_t ReplyChunkDoubles(int64_t max_message_bytes);

}  // namespace factord::server

#endif  // FACTORD_SERVER_SERVICE_STREAMED_VALUES_H_
