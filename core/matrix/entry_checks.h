// The per-entry checks shared by ValidateCsr and the streaming CsrBuilder, so
// that a bad entry reads the same whichever path found it:
//   "row 17, entry 3: column 1204 out of range [0, 1000)".
#ifndef FACTORD_MATRIX_ENTRY_CHECKS_H_
#define FACTORD_MATRIX_ENTRY_CHECKS_H_

#include <cmath>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace factord::internal {

// The largest column count a CsrMatrix can index (int32 column indices).
inline constexpr int64_t kMaxColumns = int64_t{1} << 31;

// Checks entry `entry` (0-based position within the row) of row `row`:
// column `col` in [0, cols), greater than `previous_col` (-1 for the first
// entry of a row), value finite, and col <= row when `lower_only`.
absl::Status EntryError(int64_t row, int64_t entry, int64_t col,
                        int64_t previous_col, double value, int64_t cols,
                        bool lower_only);

inline absl::Status CheckEntry(int64_t row, int64_t entry, int64_t col,
                               int64_t previous_col, double value, int64_t cols,
                               bool lower_only) {
  // The fast path: one predictable branch per entry.
  if (col > previous_col && col < cols && (!lower_only || col <= row) &&
      std::isfinite(value)) {
    return absl::OkStatus();
  }
  return EntryError(row, entry, col, previous_col, value, cols, lower_only);
}

}  // namespace factord::internal

#endif  // FACTORD_MATRIX_ENTRY_CHECKS_H_
