#include "client/csr_arrays.h"

#include "absl/strings/str_cat.h"
#include "client/status_payloads.h"

namespace factord::client::internal {
namespace {

absl::Status InvalidMatrix(absl::string_view message) {
  return ClientError(absl::StatusCode::kInvalidArgument, "INVALID_MATRIX",
                     message);
}

}  // namespace

absl::Status CheckCsrArrays(const CsrArrays& m) {
  if (m.n < 0) return InvalidMatrix("n is negative");
  if (static_cast<int64_t>(m.row_ptr.size()) != m.n + 1) {
    return InvalidMatrix(absl::StrCat("row_ptr has ", m.row_ptr.size(),
                                      " entries, expected n + 1 = ", m.n + 1));
  }
  if (m.row_ptr[0] != 0) return InvalidMatrix("row_ptr[0] is not 0");
  for (int64_t i = 0; i < m.n; ++i) {
    if (m.row_ptr[i + 1] < m.row_ptr[i]) {
      return InvalidMatrix(absl::StrCat("row_ptr decreases at row ", i));
    }
  }
  const int64_t nnz = m.row_ptr[m.n];
  if (static_cast<int64_t>(m.col_idx.size()) != nnz ||
      static_cast<int64_t>(m.values.size()) != nnz) {
    return InvalidMatrix(absl::StrCat("row_ptr[n] = ", nnz, " but col_idx has ",
                                      m.col_idx.size(), " and values ",
                                      m.values.size(), " entries"));
  }
  return absl::OkStatus();
}

}  // namespace factord::client::internal
