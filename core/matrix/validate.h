// Validation of a CSR matrix at the API boundary (docs/design.md,
// "Numerical pipeline").
//
// Everything downstream (kernels, UMFPACK, the caches) assumes a valid
// matrix, so invalid input is checked once, here, and the error names the
// first offending entry.
#ifndef FACTORD_MATRIX_VALIDATE_H_
#define FACTORD_MATRIX_VALIDATE_H_

#include "absl/status/status.h"
#include "core/matrix/csr.h"

namespace factord {

// OK when `a` is a well-formed CSR matrix:
//   - rows, cols >= 0, cols <= 2^31 (column indices are 32-bit);
//   - row_ptr has rows + 1 entries, row_ptr[0] == 0, row_ptr is
//     non-decreasing and row_ptr[rows] == col_idx.size() == values.size();
//   - every column index is in [0, cols), strictly increasing within a row
//     (sorted, no duplicates);
//   - every value is finite (explicit zeros are fine);
//   - symmetric structures are square and store the lower triangle only
//     (col <= row).
// Otherwise InvalidArgument naming the first problem, entries as
// "row 17, entry 3: column 1204 out of range [0, 1000)" (0-based row, and
// the 0-based position of the entry within its row). Reads `a` only; O(nnz).
absl::Status ValidateCsr(const CsrMatrix& a);

}  // namespace factord

#endif  // FACTORD_MATRIX_VALIDATE_H_
