// ValidateCsr: the structural and numerical checks of a CSR matrix. Sizes and
// the row pointer are checked first, so that the entry loop can index safely.
#include "core/matrix/validate.h"

#include <cmath>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "core/matrix/entry_checks.h"

namespace factord {
namespace internal {

absl::Status EntryError(int64_t row, int64_t entry, int64_t col,
                        int64_t previous_col, double value, int64_t cols,
                        bool lower_only) {
  const std::string where = absl::StrCat("row ", row, ", entry ", entry, ": ");
  if (col < 0 || col >= cols) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "column ", col, " out of range [0, ", cols, ")"));
  }
  if (col == previous_col) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "duplicate column ", col));
  }
  if (col < previous_col) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "column ", col, " after column ", previous_col,
                     ": columns must be sorted within a row"));
  }
  if (lower_only && col > row) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, "column ", col,
        " is above the diagonal: symmetric matrices store the lower triangle "
        "(column <= row)"));
  }
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "value ", value, " is not finite"));
  }
  return absl::OkStatus();
}

}  // namespace internal

absl::Status ValidateCsr(const CsrMatrix& a) {
  if (a.rows < 0 || a.cols < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("negative dimensions ", a.rows, " x ", a.cols));
  }
  if (a.cols > internal::kMaxColumns) {
    return absl::InvalidArgumentError(
        absl::StrCat("cols ", a.cols, " exceeds the 32-bit column index limit ",
                     internal::kMaxColumns));
  }
  const bool lower_only = IsSymmetric(a.structure);
  if (lower_only && a.rows != a.cols) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a symmetric matrix must be square, got ", a.rows, " x ", a.cols));
  }
  if (static_cast<int64_t>(a.row_ptr.size()) != a.rows + 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("row_ptr has ", a.row_ptr.size(),
                     " entries, expected rows + 1 = ", a.rows + 1));
  }
  if (a.values.size() != a.col_idx.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("values has ", a.values.size(),
                     " entries but col_idx has ", a.col_idx.size()));
  }
  if (a.row_ptr[0] != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("row_ptr[0] is ", a.row_ptr[0], ", expected 0"));
  }
  for (int64_t i = 0; i < a.rows; ++i) {
    if (a.row_ptr[i + 1] < a.row_ptr[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("row ", i, ": row_ptr decreases from ", a.row_ptr[i],
                       " to ", a.row_ptr[i + 1]));
    }
  }
  if (a.row_ptr[a.rows] != a.nnz()) {
    return absl::InvalidArgumentError(
        absl::StrCat("row_ptr[rows] is ", a.row_ptr[a.rows],
                     " but col_idx has ", a.nnz(), " entries"));
  }
  for (int64_t i = 0; i < a.rows; ++i) {
    int64_t previous_col = -1;
    const int64_t begin = a.row_ptr[i];
    for (int64_t k = begin; k < a.row_ptr[i + 1]; ++k) {
      const int64_t col = a.col_idx[k];
      absl::Status status = internal::CheckEntry(
          i, k - begin, col, previous_col, a.values[k], a.cols, lower_only);
      if (!status.ok()) return status;
      previous_col = col;
    }
  }
  return absl::OkStatus();
}

}  // namespace factord
