#include "server/service/streamed_values.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "server/error_reason.h"

namespace factord::server {

absl::Status AppendFiniteValues(std::span<const double> chunk,
                                absl::string_view what, absl::string_view whats,
                                absl::string_view size_name,
                                std::vector<double>& into, int64_t& received) {
  const int64_t size = static_cast<int64_t>(into.size());
  const int64_t count = static_cast<int64_t>(chunk.size());
  if (count > size - received) {
    return WithReason(absl::InvalidArgumentError(absl::StrCat(
                          "received more than ", size_name, " = ", size, " ",
                          whats, " (", received + count, " so far)")),
                      v1::INVALID_MATRIX);
  }
  for (int64_t k = 0; k < count; ++k) {
    if (!std::isfinite(chunk[k])) {
      return WithReason(absl::InvalidArgumentError(absl::StrCat(
                            what, " ", received + k, " is ", chunk[k])),
                        v1::INVALID_MATRIX);
    }
  }
  std::copy(chunk.begin(), chunk.end(), into.begin() + received);
  received += count;
  return absl::OkStatus();
}

std::shared_ptr<CsrMatrix> WithNewValues(const CsrMatrix& old,
                                         std::vector<double> values) {
  auto matrix = std::make_shared<CsrMatrix>();
  matrix->rows = old.rows;
  matrix->cols = old.cols;
  matrix->structure = old.structure;
  matrix->row_ptr = old.row_ptr;
  matrix->col_idx = old.col_idx;
  matrix->values = std::move(values);
  return matrix;
}

int64_t ReplyChunkDoubles(int64_t max_message_bytes) {
  const int64_t bytes = std::min<int64_t>(max_message_bytes, 4 << 20) / 2;
  return std::max<int64_t>(1, bytes / static_cast<int64_t>(sizeof(double)));
}

}  // namespace factord::server
