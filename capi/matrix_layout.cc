// The caller's layout -> the wire's (matrix_layout.h): one pass that checks
// every entry and maps it to its stored (row, column), a counting sort by
// row, a sort of each row by column, and a pass that finds duplicates.
// O(nnz log(row length)) time, about 24 bytes per entry of scratch.
#include "capi/matrix_layout.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"

namespace factord::capi {
namespace {

// The integer a caller stored in an enumeration field, read without loading
// the field as the enumeration (a value outside it would be undefined
// behaviour in C++; a C caller may store any int there).
template <typename Enum>
int RawValue(const Enum& field) {
  static_assert(sizeof(Enum) == sizeof(int));
  int value;
  std::memcpy(&value, &field, sizeof value);
  return value;
}

bool Refuse(Failure* failure, const char* reason, std::string message) {
  failure->code = FACTORD_ERR_INVALID_ARGUMENT;
  failure->reason = reason;
  failure->message = std::move(message);
  return false;
}

const char* TriangleName(int t) {
  return t == FACTORD_LOWER   ? "lower"
         : t == FACTORD_UPPER ? "upper"
         : t == FACTORD_FULL  ? "full"
                              : "unknown";
}

// Checks the fields that do not depend on the entries; after it the
// enumeration fields hold values of their enumerations.
bool CheckShape(const factord_matrix& m, Failure* failure) {
  if (m.n <= 0 || m.n > std::numeric_limits<int32_t>::max()) {
    return Refuse(failure, "INVALID_REQUEST",
                  absl::StrCat("n = ", m.n, " is out of range 1..2147483647"));
  }
  if (m.base != 0 && m.base != 1) {
    return Refuse(failure, "INVALID_REQUEST",
                  absl::StrCat("base = ", m.base, ": it must be 0 or 1"));
  }
  const int format = RawValue(m.format);
  const int structure = RawValue(m.structure);
  const int triangle = RawValue(m.triangle);
  if (format != FACTORD_CSR && format != FACTORD_COO) {
    return Refuse(failure, "INVALID_REQUEST",
                  absl::StrCat("format = ", format,
                               ": it must be FACTORD_CSR or FACTORD_COO"));
  }
  if (structure == FACTORD_GENERAL) {
    if (triangle != FACTORD_FULL) {
      return Refuse(failure, "INVALID_REQUEST",
                    absl::StrCat("a general matrix takes every entry "
                                 "(triangle FACTORD_FULL), not the ",
                                 TriangleName(triangle), " triangle"));
    }
  } else if (structure == FACTORD_SYMMETRIC || structure == FACTORD_SPD) {
    if (triangle != FACTORD_LOWER && triangle != FACTORD_UPPER) {
      return Refuse(failure, "INVALID_REQUEST",
                    "a symmetric matrix takes one triangle: "
                    "FACTORD_LOWER or FACTORD_UPPER");
    }
  } else {
    return Refuse(failure, "INVALID_REQUEST",
                  absl::StrCat("structure = ", structure,
                               ": it must be FACTORD_GENERAL, "
                               "FACTORD_SYMMETRIC or FACTORD_SPD"));
  }
  return true;
}

// Row pointer i of a CSR matrix, whichever width it came in.
int64_t RowPtr(const factord_matrix& m, int64_t i) {
  return m.row_ptr != nullptr ? m.row_ptr[i] : m.row_ptr32[i];
}

// The number of entries, after checking the arrays that give it.
bool CountEntries(const factord_matrix& m, int64_t* nnz, Failure* failure) {
  if (m.format == FACTORD_COO) {
    if (m.nnz < 0) {
      return Refuse(failure, "INVALID_REQUEST",
                    absl::StrCat("nnz = ", m.nnz, " is negative"));
    }
    if (m.nnz > 0 && m.row_idx == nullptr) {
      return Refuse(failure, "INVALID_REQUEST",
                    "row_idx is NULL (COO needs the row of each entry)");
    }
    *nnz = m.nnz;
    return true;
  }
  if ((m.row_ptr == nullptr) == (m.row_ptr32 == nullptr)) {
    return Refuse(failure, "INVALID_REQUEST",
                  "CSR needs exactly one of row_ptr and row_ptr32");
  }
  if (RowPtr(m, 0) != m.base) {
    return Refuse(failure, "INVALID_MATRIX",
                  absl::StrCat("row_ptr[0] = ", RowPtr(m, 0), ", expected ",
                               m.base, " (base ", m.base, ")"));
  }
  for (int64_t i = 0; i < m.n; ++i) {
    if (RowPtr(m, i + 1) < RowPtr(m, i)) {
      return Refuse(failure, "INVALID_MATRIX",
                    absl::StrCat("row_ptr[", i + 1, "] = ", RowPtr(m, i + 1),
                                 " < row_ptr[", i, "] = ", RowPtr(m, i),
                                 " (row pointers must not decrease)"));
    }
  }
  *nnz = RowPtr(m, m.n) - m.base;
  return true;
}

}  // namespace

void MatrixLayout::ToStored(const double* caller,
                            std::vector<double>* stored) const {
  stored->assign(col_idx.size(), 0.0);
  if (caller == nullptr) return;
  double* out = stored->data();
  const int64_t count = caller_nnz();
  if (sum_duplicates) {
    for (int64_t k = 0; k < count; ++k) out[position[k]] += caller[k];
  } else {
    for (int64_t k = 0; k < count; ++k) out[position[k]] = caller[k];
  }
}

bool BuildLayout(const factord_matrix& m, bool sum_duplicates,
                 MatrixLayout* layout, Failure* failure) {
  if (!CheckShape(m, failure)) return false;
  int64_t nnz = 0;
  if (!CountEntries(m, &nnz, failure)) return false;
  if (nnz > 0 && m.col_idx == nullptr) {
    return Refuse(failure, "INVALID_REQUEST", "col_idx is NULL");
  }
  const int64_t n = m.n;
  const int64_t base = m.base;
  const bool symmetric = m.structure != FACTORD_GENERAL;

  // Pass 1: check each entry and find its stored row (0-based).
  std::vector<int32_t> stored_row(nnz), stored_col(nnz);
  int64_t csr_row = 0;  // CSR: the row of entry k
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t row;
    if (m.format == FACTORD_CSR) {
      while (RowPtr(m, csr_row + 1) - base <= k) ++csr_row;
      row = csr_row + base;
    } else {
      row = m.row_idx[k];
    }
    const int64_t col = m.col_idx[k];
    auto where = [&] {
      return absl::StrCat("entry ", k, " (row ", row, ", column ", col, ")");
    };
    if (row < base || row >= n + base) {
      return Refuse(failure, "INVALID_MATRIX",
                    absl::StrCat(where(), ": row index ", row, " out of range ",
                                 base, "..", n - 1 + base));
    }
    if (col < base || col >= n + base) {
      return Refuse(failure, "INVALID_MATRIX",
                    absl::StrCat(where(), ": column index ", col,
                                 " out of range ", base, "..", n - 1 + base));
    }
    if ((m.triangle == FACTORD_LOWER && col > row) ||
        (m.triangle == FACTORD_UPPER && col < row)) {
      return Refuse(
          failure, "INVALID_MATRIX",
          absl::StrCat(where(), " is not in the ", TriangleName(m.triangle),
                       " triangle the matrix was declared with"));
    }
    int64_t r = row - base, c = col - base;
    if (symmetric && c > r) std::swap(r, c);  // upper -> lower
    stored_row[k] = static_cast<int32_t>(r);
    stored_col[k] = static_cast<int32_t>(c);
  }

  // Pass 2: counting sort by stored row, entries of a row in caller order.
  std::vector<int64_t> row_start(n + 1, 0);
  for (int64_t k = 0; k < nnz; ++k) ++row_start[stored_row[k] + 1];
  for (int64_t i = 0; i < n; ++i) row_start[i + 1] += row_start[i];
  std::vector<std::pair<int32_t, int64_t>> by_row(nnz);  // (column, k)
  {
    std::vector<int64_t> next(row_start.begin(), row_start.end() - 1);
    for (int64_t k = 0; k < nnz; ++k) {
      by_row[next[stored_row[k]]++] = {stored_col[k], k};
    }
  }
  stored_row = {};
  stored_col = {};

  // Pass 3: sort each row by column (ties by caller order), merge or refuse
  // duplicates.
  layout->n = n;
  layout->structure = m.structure;
  layout->wire_structure = m.structure == FACTORD_GENERAL ? "general"
                           : m.structure == FACTORD_SPD   ? "spd_lower"
                                                          : "symmetric_lower";
  layout->sum_duplicates = sum_duplicates;
  layout->row_ptr.assign(n + 1, 0);
  layout->col_idx.clear();
  layout->col_idx.reserve(nnz);
  layout->position.assign(nnz, 0);
  for (int64_t i = 0; i < n; ++i) {
    auto first = by_row.begin() + row_start[i];
    auto last = by_row.begin() + row_start[i + 1];
    std::sort(first, last);
    for (auto it = first; it != last; ++it) {
      if (it != first && it->first == (it - 1)->first) {
        if (!sum_duplicates) {
          const int64_t k0 = (it - 1)->second, k1 = it->second;
          return Refuse(failure, "INVALID_MATRIX",
                        absl::StrCat("entries ", k0, " and ", k1,
                                     " are both at stored (row ", i + base,
                                     ", column ", it->first + base,
                                     "); give each entry once or upload with "
                                     "FACTORD_UPLOAD_SUM_DUPLICATES"));
        }
        layout->position[it->second] = layout->stored_nnz() - 1;
        continue;
      }
      layout->position[it->second] = layout->stored_nnz();
      layout->col_idx.push_back(it->first);
    }
    layout->row_ptr[i + 1] = layout->stored_nnz();
  }
  layout->col_idx.shrink_to_fit();
  return true;
}

}  // namespace factord::capi
