// Matrix Market parser: header, size line, entries -> COO -> sorted CSR.
//
// One pass over the text with std::from_chars, entries stored as
// (int32 row, int32 col, double value) triplets in file order, then a
// counting sort by row; rows that a file gives out of column order are
// sorted, and equal neighbours are duplicates. Line numbers of duplicates are
// recovered by a second scan of the text, so that no per-entry line number is
// stored. Reservations are capped by the input size: a lying header cannot
// make the parser allocate more than a small multiple of the text.
#include "core/matrix/matrix_market.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/matrix/text_lines.h"

namespace factord {
namespace {

using internal::Quote;
using internal::TextLines;
using internal::Tokens;

template <typename... Args>
absl::Status LineError(int64_t line, const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", args...));
}

absl::string_view SymmetryName(MatrixMarketSymmetry s) {
  switch (s) {
    case MatrixMarketSymmetry::kGeneral:
      return "general";
    case MatrixMarketSymmetry::kSymmetric:
      return "symmetric";
    case MatrixMarketSymmetry::kSkewSymmetric:
      return "skew-symmetric";
  }
  return "?";
}

constexpr absl::string_view kHeaderForm =
    "expected '%%MatrixMarket matrix <coordinate|array> "
    "<real|integer|pattern> <general|symmetric|skew-symmetric>'";

absl::Status ParseHeader(TextLines& lines, MatrixMarketInfo* info) {
  absl::string_view line;
  if (!lines.Next(&line)) {
    return LineError(1, "empty input, ", kHeaderForm);
  }
  Tokens tokens(line);
  absl::string_view words[5];
  int count = 0;
  absl::string_view token;
  while (count < 6 && tokens.Next(&token)) {
    if (count < 5) words[count] = token;
    ++count;
  }
  const int64_t n = lines.line_number();
  if (count == 0 || !absl::EqualsIgnoreCase(words[0], "%%MatrixMarket")) {
    return LineError(n, "missing %%MatrixMarket header, ", kHeaderForm);
  }
  if (count != 5) return LineError(n, "malformed header, ", kHeaderForm);
  if (!absl::EqualsIgnoreCase(words[1], "matrix")) {
    return LineError(n, "unsupported object ", Quote(words[1]),
                     " (only 'matrix')");
  }
  if (absl::EqualsIgnoreCase(words[2], "coordinate")) {
    info->format = MatrixMarketFormat::kCoordinate;
  } else if (absl::EqualsIgnoreCase(words[2], "array")) {
    info->format = MatrixMarketFormat::kArray;
  } else {
    return LineError(n, "unsupported format ", Quote(words[2]),
                     " (coordinate or array)");
  }
  if (absl::EqualsIgnoreCase(words[3], "real")) {
    info->field = MatrixMarketField::kReal;
  } else if (absl::EqualsIgnoreCase(words[3], "integer")) {
    info->field = MatrixMarketField::kInteger;
  } else if (absl::EqualsIgnoreCase(words[3], "pattern")) {
    info->field = MatrixMarketField::kPattern;
  } else {
    return LineError(n, "unsupported field ", Quote(words[3]),
                     " (real, integer or pattern)");
  }
  if (absl::EqualsIgnoreCase(words[4], "general")) {
    info->symmetry = MatrixMarketSymmetry::kGeneral;
  } else if (absl::EqualsIgnoreCase(words[4], "symmetric")) {
    info->symmetry = MatrixMarketSymmetry::kSymmetric;
  } else if (absl::EqualsIgnoreCase(words[4], "skew-symmetric")) {
    info->symmetry = MatrixMarketSymmetry::kSkewSymmetric;
  } else {
    return LineError(n, "unsupported symmetry ", Quote(words[4]),
                     " (general, symmetric or skew-symmetric)");
  }
  if (info->format == MatrixMarketFormat::kArray && info->pattern_only()) {
    return LineError(n, "the pattern field needs the coordinate format");
  }
  return absl::OkStatus();
}

// The entries a matrix of this shape and symmetry can hold (saturating).
int64_t Capacity(int64_t rows, int64_t cols, MatrixMarketSymmetry s) {
  using Wide = unsigned __int128;
  Wide capacity = static_cast<Wide>(rows) * static_cast<Wide>(cols);
  if (s == MatrixMarketSymmetry::kSymmetric) {
    capacity = static_cast<Wide>(rows) * (rows + 1) / 2;
  } else if (s == MatrixMarketSymmetry::kSkewSymmetric) {
    capacity = rows > 0 ? static_cast<Wide>(rows) * (rows - 1) / 2 : 0;
  }
  const Wide kMax = static_cast<Wide>(INT64_MAX);
  return static_cast<int64_t>(std::min(capacity, kMax));
}

absl::Status ParseSizeLine(TextLines& lines, size_t text_size,
                           const MatrixMarketLimits& limits,
                           MatrixMarketInfo* info) {
  absl::string_view line;
  do {
    if (!lines.Next(&line)) {
      return LineError(lines.end_line_number(), "missing size line");
    }
  } while (internal::IsBlankOrComment(line));
  const int64_t n = lines.line_number();
  const bool coordinate = info->format == MatrixMarketFormat::kCoordinate;
  const absl::string_view form =
      coordinate ? "expected 'rows cols entries'" : "expected 'rows cols'";
  Tokens tokens(line);
  int64_t numbers[3] = {0, 0, 0};
  int count = 0;
  absl::string_view token;
  while (tokens.Next(&token)) {
    if (count == 3 || !internal::ParseInt64(token, &numbers[count]) ||
        numbers[count] < 0) {
      return LineError(n, "malformed size line, ", form, ", found ",
                       Quote(token));
    }
    ++count;
  }
  // An array size line "n" (as some tools write vectors) reads as n x 1.
  if (!coordinate && count == 1) numbers[count++] = 1;
  if (count != (coordinate ? 3 : 2)) {
    return LineError(n, "malformed size line, ", form, ", found ", count,
                     count == 1 ? " number" : " numbers");
  }
  info->rows = numbers[0];
  info->cols = numbers[1];
  for (int d = 0; d < 2; ++d) {
    if (numbers[d] > limits.max_dimension) {
      return LineError(n, d == 0 ? "rows " : "cols ", numbers[d],
                       " exceeds the limit ", limits.max_dimension);
    }
  }
  // The row pointer costs 8 bytes a row whatever the entries (and a dense
  // vector 8 bytes a column): refuse a size the input cannot plausibly
  // describe instead of allocating it.
  const int64_t budget =
      std::max<int64_t>(int64_t{1} << 20, 16 * static_cast<int64_t>(text_size));
  for (int d = 0; d < 2; ++d) {
    if (numbers[d] > budget) {
      return LineError(n, numbers[d], d == 0 ? " rows" : " cols",
                       " is implausible for ", text_size, " bytes of input");
    }
  }
  if (info->symmetry != MatrixMarketSymmetry::kGeneral &&
      info->rows != info->cols) {
    return LineError(n, "a ", SymmetryName(info->symmetry),
                     " matrix must be square, got ", info->rows, " x ",
                     info->cols);
  }
  const int64_t capacity = Capacity(info->rows, info->cols, info->symmetry);
  info->entries = coordinate ? numbers[2] : capacity;
  if (coordinate && info->entries > capacity) {
    return LineError(n, info->entries, " entries declared, more than the ",
                     capacity, " a ", info->rows, " x ", info->cols, " ",
                     SymmetryName(info->symmetry), " matrix can hold");
  }
  if (info->entries > limits.max_entries) {
    return LineError(n, info->entries, " entries exceed the limit ",
                     limits.max_entries);
  }
  return absl::OkStatus();
}

// Entries in file order: one triangle for (skew-)symmetric files, mirrored
// into the lower triangle.
struct Triplets {
  std::vector<int32_t> row;
  std::vector<int32_t> col;
  std::vector<double> value;
};

absl::Status ParseValue(const MatrixMarketInfo& info, absl::string_view token,
                        int64_t line, double* value) {
  if (info.field == MatrixMarketField::kInteger) {
    int64_t integer = 0;
    if (!internal::ParseInt64(token, &integer)) {
      return LineError(line, "value ", Quote(token), " is not an integer");
    }
    *value = static_cast<double>(integer);
    return absl::OkStatus();
  }
  switch (internal::ParseReal(token, value)) {
    case internal::RealParse::kOk:
      return absl::OkStatus();
    case internal::RealParse::kNotFinite:
      return LineError(line, "value ", Quote(token), " is not finite");
    case internal::RealParse::kMalformed:
      break;
  }
  return LineError(line, "value ", Quote(token), " is not a number");
}

absl::Status ParseIndex(absl::string_view token, absl::string_view what,
                        int64_t limit, int64_t line, int64_t* index) {
  if (!internal::ParseInt64(token, index)) {
    return LineError(line, what, " index ", Quote(token), " is not an integer");
  }
  if (*index < 1 || *index > limit) {
    return LineError(line, what, " index ", *index, " out of range 1..", limit);
  }
  --*index;
  return absl::OkStatus();
}

absl::Status ParseCoordinateEntries(TextLines& lines,
                                    const MatrixMarketInfo& info, Triplets* t) {
  const bool pattern = info.pattern_only();
  const int fields = pattern ? 2 : 3;
  const absl::string_view form =
      pattern ? "(row column)" : "(row column value)";
  int64_t count = 0;
  absl::string_view line;
  while (lines.Next(&line)) {
    if (internal::IsBlankOrComment(line)) continue;
    const int64_t n = lines.line_number();
    if (count == info.entries) {
      return LineError(n, "more entries than the ", info.entries, " declared");
    }
    Tokens tokens(line);
    absl::string_view token[3];
    int found = 0;
    while (found < fields && tokens.Next(&token[found])) ++found;
    found += tokens.CountRest();
    if (found != fields) {
      return LineError(n, "expected ", fields, " fields ", form, ", found ",
                       found);
    }
    int64_t row = 0, col = 0;
    double value = 1.0;
    absl::Status status = ParseIndex(token[0], "row", info.rows, n, &row);
    if (status.ok())
      status = ParseIndex(token[1], "column", info.cols, n, &col);
    if (status.ok() && !pattern) status = ParseValue(info, token[2], n, &value);
    if (!status.ok()) return status;
    if (info.symmetry == MatrixMarketSymmetry::kSkewSymmetric) {
      if (row == col) {
        return LineError(n, "diagonal entry (", row + 1, ", ", col + 1,
                         ") in a skew-symmetric matrix (its diagonal is 0)");
      }
      // a_ij above the diagonal is -a_ji below it.
      if (col > row) {
        std::swap(row, col);
        value = -value;
      }
    } else if (info.symmetry == MatrixMarketSymmetry::kSymmetric && col > row) {
      std::swap(row, col);
    }
    t->row.push_back(static_cast<int32_t>(row));
    t->col.push_back(static_cast<int32_t>(col));
    t->value.push_back(value);
    ++count;
  }
  if (count < info.entries) {
    return LineError(lines.end_line_number(), "expected ", info.entries,
                     " entries, found ", count);
  }
  return absl::OkStatus();
}

// Column-major values: all of them, or the lower (strictly lower for skew)
// triangle column by column. Any number of values per line.
absl::Status ParseArrayEntries(TextLines& lines, const MatrixMarketInfo& info,
                               Triplets* t) {
  const int64_t first_offset =
      info.symmetry == MatrixMarketSymmetry::kGeneral     ? -1
      : info.symmetry == MatrixMarketSymmetry::kSymmetric ? 0
                                                          : 1;
  int64_t count = 0;
  int64_t row = 0, col = 0;
  // The first row of column `col`: 0, or col + offset for a triangle.
  auto first_row = [&](int64_t j) {
    return first_offset < 0 ? 0 : j + first_offset;
  };
  row = first_row(0);
  absl::string_view line;
  while (lines.Next(&line)) {
    if (internal::IsBlankOrComment(line)) continue;
    const int64_t n = lines.line_number();
    Tokens tokens(line);
    absl::string_view token;
    while (tokens.Next(&token)) {
      if (count == info.entries) {
        return LineError(n, "more entries than the ", info.entries, " of a ",
                         info.rows, " x ", info.cols, " ",
                         SymmetryName(info.symmetry), " array");
      }
      double value = 0;
      absl::Status status = ParseValue(info, token, n, &value);
      if (!status.ok()) return status;
      while (row >= info.rows) row = first_row(++col);
      t->row.push_back(static_cast<int32_t>(row));
      t->col.push_back(static_cast<int32_t>(col));
      t->value.push_back(value);
      ++row;
      ++count;
    }
  }
  if (count < info.entries) {
    return LineError(lines.end_line_number(), "expected ", info.entries,
                     " entries, found ", count);
  }
  return absl::OkStatus();
}

// The line of the `ordinal`-th entry line (0-based) of a coordinate file.
int64_t LineOfEntry(absl::string_view text, int64_t ordinal) {
  TextLines lines(text);
  absl::string_view line;
  lines.Next(&line);  // header
  bool size_seen = false;
  int64_t count = 0;
  while (lines.Next(&line)) {
    if (internal::IsBlankOrComment(line)) continue;
    if (!size_seen) {
      size_seen = true;
      continue;
    }
    if (count++ == ordinal) return lines.line_number();
  }
  return 0;
}

// The file-order ordinal of the q-th entry that lands in row `row`.
int64_t OrdinalOfRowEntry(const Triplets& t, bool skew, int64_t row,
                          int64_t q) {
  int64_t seen = 0;
  for (size_t k = 0; k < t.row.size(); ++k) {
    if (t.row[k] == row && seen++ == q) return static_cast<int64_t>(k);
    if (skew && t.col[k] == row && seen++ == q) return static_cast<int64_t>(k);
  }
  return -1;
}

absl::Status DuplicateError(absl::string_view text, const Triplets& t,
                            const MatrixMarketInfo& info, int64_t row,
                            int64_t col, int64_t q_first, int64_t q_second) {
  const bool skew = info.symmetry == MatrixMarketSymmetry::kSkewSymmetric;
  const int64_t first =
      LineOfEntry(text, OrdinalOfRowEntry(t, skew, row, q_first));
  const int64_t second =
      LineOfEntry(text, OrdinalOfRowEntry(t, skew, row, q_second));
  const bool mirrored = info.symmetry != MatrixMarketSymmetry::kGeneral;
  return LineError(second, "duplicate entry (", row + 1, ", ", col + 1,
                   "), first given on line ", first,
                   mirrored ? " (an entry above the diagonal stands for its "
                              "mirror below it)"
                            : "");
}

absl::StatusOr<CsrMatrix> BuildCsr(absl::string_view text,
                                   const MatrixMarketInfo& info,
                                   const Triplets& t) {
  const bool skew = info.symmetry == MatrixMarketSymmetry::kSkewSymmetric;
  CsrMatrix a;
  a.rows = info.rows;
  a.cols = info.cols;
  a.structure = info.symmetry == MatrixMarketSymmetry::kSymmetric
                    ? Structure::kSymmetricLower
                    : Structure::kGeneral;
  a.row_ptr.assign(a.rows + 1, 0);
  for (size_t k = 0; k < t.row.size(); ++k) {
    ++a.row_ptr[t.row[k] + 1];
    if (skew) ++a.row_ptr[t.col[k] + 1];
  }
  for (int64_t i = 0; i < a.rows; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  const int64_t nnz = a.row_ptr[a.rows];
  a.col_idx.resize(nnz);
  a.values.resize(nnz);
  {
    std::vector<int64_t> next(a.row_ptr.begin(), a.row_ptr.end() - 1);
    for (size_t k = 0; k < t.row.size(); ++k) {
      int64_t slot = next[t.row[k]]++;
      a.col_idx[slot] = t.col[k];
      a.values[slot] = t.value[k];
      if (skew) {
        slot = next[t.col[k]]++;
        a.col_idx[slot] = t.row[k];
        a.values[slot] = -t.value[k];
      }
    }
  }
  // Rows come out in file order; most files are column-major, so rows are
  // usually sorted already and only checked.
  std::vector<std::pair<int32_t, int64_t>> order;
  std::vector<double> sorted_values;
  for (int64_t i = 0; i < a.rows; ++i) {
    const int64_t begin = a.row_ptr[i], end = a.row_ptr[i + 1];
    bool increasing = true;
    for (int64_t k = begin + 1; k < end && increasing; ++k) {
      increasing = a.col_idx[k] > a.col_idx[k - 1];
    }
    if (increasing) continue;
    order.clear();
    for (int64_t k = begin; k < end; ++k)
      order.emplace_back(a.col_idx[k], k - begin);
    std::sort(order.begin(), order.end());
    for (size_t s = 1; s < order.size(); ++s) {
      if (order[s].first == order[s - 1].first) {
        return DuplicateError(text, t, info, i, order[s].first,
                              order[s - 1].second, order[s].second);
      }
    }
    sorted_values.resize(order.size());
    for (size_t s = 0; s < order.size(); ++s) {
      sorted_values[s] = a.values[begin + order[s].second];
      a.col_idx[begin + s] = order[s].first;
    }
    std::copy(sorted_values.begin(), sorted_values.end(),
              a.values.begin() + begin);
  }
  return a;
}

}  // namespace

absl::StatusOr<CsrMatrix> ParseMatrixMarket(absl::string_view text,
                                            MatrixMarketInfo* info,
                                            const MatrixMarketLimits& limits) {
  MatrixMarketInfo local;
  if (info == nullptr) info = &local;
  *info = MatrixMarketInfo();
  TextLines lines(text);
  absl::Status status = ParseHeader(lines, info);
  if (status.ok()) status = ParseSizeLine(lines, text.size(), limits, info);
  if (!status.ok()) return status;
  Triplets t;
  // A coordinate entry takes at least 4 bytes ("1 1\n"), an array value 2.
  const int64_t reserve = std::min<int64_t>(
      info->entries, static_cast<int64_t>(text.size()) / 2 + 1);
  t.row.reserve(reserve);
  t.col.reserve(reserve);
  t.value.reserve(reserve);
  status = info->format == MatrixMarketFormat::kCoordinate
               ? ParseCoordinateEntries(lines, *info, &t)
               : ParseArrayEntries(lines, *info, &t);
  if (!status.ok()) return status;
  return BuildCsr(text, *info, t);
}

absl::StatusOr<CsrMatrix> ParseMatrixMarket(absl::string_view text) {
  return ParseMatrixMarket(text, nullptr, MatrixMarketLimits());
}

}  // namespace factord
