// AssembleFromCoo (counting sort by row, then a sort within each row) and
// the streaming CsrBuilder. Both leave only valid CSR behind.
#include "core/matrix/assemble.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/matrix/entry_checks.h"

namespace factord {
namespace {

// rows x cols entries, or the lower triangle n(n+1)/2 (saturating).
int64_t Capacity(int64_t rows, int64_t cols, Structure structure) {
  using Wide = unsigned __int128;
  Wide capacity = static_cast<Wide>(rows) * static_cast<Wide>(cols);
  if (IsSymmetric(structure))
    capacity = static_cast<Wide>(rows) * (rows + 1) / 2;
  return static_cast<int64_t>(std::min(capacity, static_cast<Wide>(INT64_MAX)));
}

absl::Status CheckSizes(int64_t rows, int64_t cols, Structure structure,
                        int64_t nnz, const AssemblyLimits& limits) {
  if (rows < 0 || cols < 0 || nnz < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "negative size: ", rows, " x ", cols, " with ", nnz, " entries"));
  }
  if (rows > limits.max_dimension || cols > limits.max_dimension) {
    return absl::ResourceExhaustedError(
        absl::StrCat("a ", rows, " x ", cols, " matrix exceeds the limit of ",
                     limits.max_dimension, " rows and columns"));
  }
  if (cols > internal::kMaxColumns) {
    return absl::InvalidArgumentError(
        absl::StrCat("cols ", cols, " exceeds the 32-bit column index limit"));
  }
  if (nnz > limits.max_nnz) {
    return absl::ResourceExhaustedError(
        absl::StrCat(nnz, " entries exceed the limit of ", limits.max_nnz));
  }
  if (IsSymmetric(structure) && rows != cols) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a symmetric matrix must be square, got ", rows, " x ", cols));
  }
  const int64_t capacity = Capacity(rows, cols, structure);
  if (nnz > capacity) {
    return absl::InvalidArgumentError(absl::StrCat(
        nnz, " entries declared, more than the ", capacity, " a ", rows, " x ",
        cols, IsSymmetric(structure) ? " lower triangle" : " matrix",
        " can hold"));
  }
  return absl::OkStatus();
}

absl::Status CooEntryError(int64_t k, int64_t row, int64_t col, double value,
                           int64_t rows, int64_t cols, bool lower_only) {
  const std::string where = absl::StrCat("entry ", k, ": ");
  if (row < 0 || row >= rows) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "row ", row, " out of range [0, ", rows, ")"));
  }
  if (col < 0 || col >= cols) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "column ", col, " out of range [0, ", cols, ")"));
  }
  if (lower_only && col > row) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, "(", row, ", ", col,
        ") is above the diagonal: symmetric matrices are sent as their lower "
        "triangle (column <= row)"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat(where, "value ", value, " is not finite"));
}

}  // namespace

absl::StatusOr<CsrMatrix> AssembleFromCoo(int64_t rows, int64_t cols,
                                          Structure structure,
                                          std::span<const int32_t> row_idx,
                                          std::span<const int32_t> col_idx,
                                          std::span<const double> values,
                                          const AssemblyLimits& limits) {
  if (row_idx.size() != col_idx.size() || row_idx.size() != values.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "row_idx, col_idx and values differ in size (", row_idx.size(), ", ",
        col_idx.size(), ", ", values.size(), ")"));
  }
  const int64_t nnz = static_cast<int64_t>(row_idx.size());
  absl::Status status = CheckSizes(rows, cols, structure, nnz, limits);
  if (!status.ok()) return status;
  const bool lower_only = IsSymmetric(structure);
  for (int64_t k = 0; k < nnz; ++k) {
    const int64_t i = row_idx[k], j = col_idx[k];
    if (i < 0 || i >= rows || j < 0 || j >= cols || (lower_only && j > i) ||
        !std::isfinite(values[k])) {
      return CooEntryError(k, i, j, values[k], rows, cols, lower_only);
    }
  }
  CsrMatrix a;
  a.rows = rows;
  a.cols = cols;
  a.structure = structure;
  a.row_ptr.assign(rows + 1, 0);
  for (int64_t k = 0; k < nnz; ++k) ++a.row_ptr[row_idx[k] + 1];
  for (int64_t i = 0; i < rows; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  // source[slot]: the input position of the entry stored at `slot`.
  std::vector<int64_t> source(nnz);
  {
    std::vector<int64_t> next(a.row_ptr.begin(), a.row_ptr.end() - 1);
    for (int64_t k = 0; k < nnz; ++k) source[next[row_idx[k]]++] = k;
  }
  a.col_idx.resize(nnz);
  a.values.resize(nnz);
  for (int64_t i = 0; i < rows; ++i) {
    const auto begin = source.begin() + a.row_ptr[i];
    const auto end = source.begin() + a.row_ptr[i + 1];
    // Input positions increase within a row (stable scatter), so ties keep
    // the earlier entry first.
    std::stable_sort(begin, end, [&](int64_t x, int64_t y) {
      return col_idx[x] < col_idx[y];
    });
    for (auto it = begin; it != end; ++it) {
      if (it != begin && col_idx[*it] == col_idx[*(it - 1)]) {
        return absl::InvalidArgumentError(
            absl::StrCat("entry ", *it, ": duplicate of entry ", *(it - 1),
                         " at (", i, ", ", col_idx[*it], ")"));
      }
      const int64_t slot = it - source.begin();
      a.col_idx[slot] = col_idx[*it];
      a.values[slot] = values[*it];
    }
  }
  return a;
}

absl::StatusOr<CsrBuilder> CsrBuilder::Create(int64_t rows, int64_t cols,
                                              Structure structure, int64_t nnz,
                                              const AssemblyLimits& limits) {
  absl::Status status = CheckSizes(rows, cols, structure, nnz, limits);
  if (!status.ok()) return status;
  CsrBuilder builder;
  builder.matrix_.rows = rows;
  builder.matrix_.cols = cols;
  builder.matrix_.structure = structure;
  builder.matrix_.row_ptr.reserve(rows + 1);
  builder.matrix_.row_ptr.push_back(0);
  builder.matrix_.col_idx.reserve(nnz);
  builder.matrix_.values.reserve(nnz);
  builder.declared_nnz_ = nnz;
  return builder;
}

absl::Status CsrBuilder::Append(std::span<const int64_t> row_nnz,
                                std::span<const int32_t> col_idx,
                                std::span<const double> values) {
  if (!error_.ok()) return error_;
  if (col_idx.size() != values.size()) {
    error_ = absl::InvalidArgumentError(
        absl::StrCat("a chunk has ", col_idx.size(), " column indices but ",
                     values.size(), " values"));
    return error_;
  }
  std::vector<int64_t>& row_ptr = matrix_.row_ptr;
  for (int64_t count : row_nnz) {
    const int64_t row = rows_received();
    if (row == matrix_.rows) {
      error_ = absl::InvalidArgumentError(absl::StrCat(
          "row ", row, ": more rows than the ", matrix_.rows, " declared"));
      return error_;
    }
    if (count < 0 || count > declared_nnz_ - row_ptr.back()) {
      error_ = absl::InvalidArgumentError(absl::StrCat(
          "row ", row, ": ", count, " entries ",
          count < 0
              ? "is negative"
              : absl::StrCat("exceed the ", declared_nnz_, " declared in all (",
                             declared_nnz_ - row_ptr.back(), " left)")));
      return error_;
    }
    row_ptr.push_back(row_ptr.back() + count);
  }
  error_ = AppendEntries(col_idx, values);
  return error_;
}

absl::Status CsrBuilder::AppendEntries(std::span<const int32_t> col_idx,
                                       std::span<const double> values) {
  const std::vector<int64_t>& row_ptr = matrix_.row_ptr;
  const bool lower_only = IsSymmetric(matrix_.structure);
  for (size_t k = 0; k < col_idx.size(); ++k) {
    const int64_t position = matrix_.nnz();
    if (position == row_ptr.back()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "entry ", position, " arrives before the count of its row (only ",
          rows_received(), " rows counted so far)"));
    }
    // Skip the rows that are complete (empty ones included).
    while (row_ptr[current_row_ + 1] <= position) ++current_row_;
    const int64_t begin = row_ptr[current_row_];
    const int64_t previous_col =
        position > begin ? matrix_.col_idx[position - 1] : -1;
    absl::Status status =
        internal::CheckEntry(current_row_, position - begin, col_idx[k],
                             previous_col, values[k], matrix_.cols, lower_only);
    if (!status.ok()) return status;
    matrix_.col_idx.push_back(col_idx[k]);
    matrix_.values.push_back(values[k]);
  }
  return absl::OkStatus();
}

absl::StatusOr<CsrMatrix> CsrBuilder::Finish() {
  if (!error_.ok()) return error_;
  if (rows_received() != matrix_.rows) {
    return absl::InvalidArgumentError(absl::StrCat("received the counts of ",
                                                   rows_received(), " rows of ",
                                                   matrix_.rows, " declared"));
  }
  if (matrix_.nnz() != declared_nnz_) {
    return absl::InvalidArgumentError(absl::StrCat("received ", matrix_.nnz(),
                                                   " entries of ",
                                                   declared_nnz_, " declared"));
  }
  CsrMatrix result = std::move(matrix_);
  matrix_ = CsrMatrix();
  error_ = absl::FailedPreconditionError("CsrBuilder already finished");
  return result;
}

}  // namespace factord
