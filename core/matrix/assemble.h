// Building a CsrMatrix from what arrives on the wire: COO triplets in any
// order, or CSR rows in order, streamed in chunks (a row may be split across
// chunks). Both validate as they go, with the same entry errors as
// ValidateCsr, so the result is always a valid CsrMatrix.
//
// Symmetric structures are sent as their lower triangle with the diagonal
// (the wire convention): an entry above the diagonal is an error, never
// mirrored silently. Explicit zeros are kept.
#ifndef FACTORD_MATRIX_ASSEMBLE_H_
#define FACTORD_MATRIX_ASSEMBLE_H_

#include <cstdint>
#include <span>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/matrix/csr.h"

namespace factord {

// What the caller accepts, checked before anything is reserved. Exceeding
// a limit is ResourceExhausted; other bad sizes are InvalidArgument.
struct AssemblyLimits {
  int64_t max_dimension = (int64_t{1} << 31) - 1;  // rows and cols
  int64_t max_nnz = int64_t{1} << 40;              // stored entries
};

// CSR from COO triplets (row_idx[k], col_idx[k], values[k]), k < nnz, given
// in any order; 0-based indices. The three spans must have equal sizes.
// Errors name the 0-based position of the entry in the input:
// "entry 42: duplicate of entry 17 at (3, 2)". Reads the spans only; peak
// memory is the result plus 8 bytes per entry.
absl::StatusOr<CsrMatrix> AssembleFromCoo(int64_t rows, int64_t cols,
                                          Structure structure,
                                          std::span<const int32_t> row_idx,
                                          std::span<const int32_t> col_idx,
                                          std::span<const double> values,
                                          const AssemblyLimits& limits = {});

// CSR rows received in order, in chunks. Each chunk carries the entry
// counts of zero or more further rows (`row_nnz`) and zero or more further
// entries (`col_idx`, `values`, equal sizes) continuing where the previous
// chunk ended, so a long row can span chunks; an entry may not arrive before
// the count of its row. Entries are checked on arrival (column in range,
// sorted and unique within the row, finite, lower triangle for symmetric).
// After the first error every call returns that error.
class CsrBuilder {
 public:
  // Checks the declared sizes against `limits`, then reserves rows + 1 row
  // pointers and `nnz` entries.
  static absl::StatusOr<CsrBuilder> Create(int64_t rows, int64_t cols,
                                           Structure structure, int64_t nnz,
                                           const AssemblyLimits& limits = {});

  // Appends one chunk. Does not keep references to the spans.
  absl::Status Append(std::span<const int64_t> row_nnz,
                      std::span<const int32_t> col_idx,
                      std::span<const double> values);

  // The matrix, once every declared row and entry has arrived; otherwise
  // InvalidArgument saying what is missing. Leaves the builder empty.
  absl::StatusOr<CsrMatrix> Finish();

  int64_t rows_received() const {
    return static_cast<int64_t>(matrix_.row_ptr.size()) - 1;
  }
  int64_t entries_received() const { return matrix_.nnz(); }

 private:
  CsrBuilder() = default;
  absl::Status AppendEntries(std::span<const int32_t> col_idx,
                             std::span<const double> values);

  CsrMatrix matrix_;
  int64_t declared_nnz_ = 0;
  int64_t current_row_ = 0;  // the row the next entry belongs to
  absl::Status error_;
};

}  // namespace factord

#endif  // FACTORD_MATRIX_ASSEMBLE_H_
