// Fixed MPS / QPS reader. See mps_reader.h for the format and conventions.
// One pass over the lines builds name tables and triplets; a final pass
// sorts the triplets into columns, rejecting duplicates with their line.
#include "client/ipm/mps_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace factord::ipm {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kInfiniteBound = 1e30;  // MPS convention
constexpr int kObjectiveRow = -1;
constexpr int kDroppedRow = -2;

enum class Section {
  kNone,
  kName,
  kObjSense,
  kRows,
  kColumns,
  kRhs,
  kRanges,
  kBounds,
  kQuadObj,
  kQMatrix,
  kEnd
};

// The fields of one data line, named by fixed-MPS position.
struct Record {
  absl::string_view code, name1, name2, num1, name3, num2;
};

struct Triplet {
  int row, col;
  double value;
  int64_t line;
};

absl::string_view Field(absl::string_view line, size_t begin, size_t end) {
  if (begin >= line.size()) return {};
  return absl::StripAsciiWhitespace(line.substr(begin, end - begin));
}

// A line is read by fixed columns when the gaps between fields are blank.
bool IsFixedLine(absl::string_view line) {
  if (line.find('\t') != absl::string_view::npos) return false;
  for (size_t gap : {0, 3, 12, 13, 22, 23, 36, 37, 38, 47, 48}) {
    if (gap < line.size() && line[gap] != ' ') return false;
  }
  return true;
}

absl::Status LineError(int64_t line, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", what));
}

// Parses a number field. Accepts what strtod accepts except NaN; the whole
// field must be consumed.
bool ParseNumber(absl::string_view text, double* value) {
  if (text.empty() || text.size() > 64) return false;
  std::string copy(text);
  char* end = nullptr;
  *value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && !std::isnan(*value);
}

Record FixedRecord(absl::string_view line) {
  return Record{Field(line, 1, 3),   Field(line, 4, 12),  Field(line, 14, 22),
                Field(line, 24, 36), Field(line, 39, 47), Field(line, 49, 61)};
}

// Whether a line read by fixed columns has the fields its section needs. A
// short free-format line can have blank gap columns by chance ("    X R 1");
// it then fails this test and is split on whitespace instead.
bool PlausibleFixedRecord(const Record& r, Section section) {
  double ignored;
  auto number_ok = [&](absl::string_view s) {
    return s.empty() || ParseNumber(s, &ignored);
  };
  if (!number_ok(r.num1) || !number_ok(r.num2)) return false;
  if (r.name3.empty() != r.num2.empty()) return false;
  switch (section) {
    case Section::kRows:
      return !r.code.empty() && !r.name1.empty() && r.name2.empty() &&
             r.num1.empty() && r.name3.empty();
    case Section::kColumns:
    case Section::kQuadObj:
    case Section::kQMatrix:
      return r.code.empty() && !r.name1.empty() && !r.name2.empty() &&
             !r.num1.empty();
    case Section::kRhs:
    case Section::kRanges:
      return r.code.empty() && !r.name2.empty() && !r.num1.empty();
    case Section::kBounds: {
      const bool wants_value = !(r.code == "FR" || r.code == "MI" ||
                                 r.code == "PL" || r.code == "BV");
      return !r.code.empty() && !r.name2.empty() &&
             (!wants_value || !r.num1.empty()) && r.name3.empty();
    }
    default:
      return false;
  }
}

// Splits a free-format line into a Record according to the section.
absl::StatusOr<Record> FreeRecord(absl::string_view line, Section section,
                                  int64_t line_number) {
  std::vector<absl::string_view> t =
      absl::StrSplit(line, absl::ByAnyChar(" \t\r\v\f"), absl::SkipEmpty());
  Record r;
  const size_t n = t.size();
  auto bad = [&] { return LineError(line_number, "wrong number of fields"); };
  switch (section) {
    case Section::kRows:
      if (n != 2) return bad();
      r.code = t[0], r.name1 = t[1];
      break;
    case Section::kColumns:
    case Section::kQuadObj:
    case Section::kQMatrix:
      if (n != 3 && n != 5) return bad();
      r.name1 = t[0], r.name2 = t[1], r.num1 = t[2];
      if (n == 5) r.name3 = t[3], r.num2 = t[4];
      break;
    case Section::kRhs:
    case Section::kRanges: {
      if (n < 2 || n > 5) return bad();
      const size_t s = n % 2;  // odd: a set name comes first
      if (s) r.name1 = t[0];
      r.name2 = t[s], r.num1 = t[s + 1];
      if (n - s == 4) r.name3 = t[s + 2], r.num2 = t[s + 3];
      break;
    }
    case Section::kBounds: {
      if (n < 2 || n > 4) return bad();
      r.code = t[0];
      const bool wants_value =
          !(t[0] == "FR" || t[0] == "MI" || t[0] == "PL" || t[0] == "BV");
      // With a value: type [set] column value; without: type [set] column
      // (BV may carry a value, which is ignored).
      size_t has_set = wants_value ? (n == 4) : (n >= 3);
      if (t[0] == "BV" && n == 3) {
        double ignored;
        has_set = !ParseNumber(t[2], &ignored);
      }
      if (has_set) r.name1 = t[1];
      if (1 + has_set >= n) return bad();
      r.name2 = t[1 + has_set];
      if (2 + has_set < n) r.num1 = t[2 + has_set];
      break;
    }
    default:
      return bad();
  }
  return r;
}

class MpsParser {
 public:
  absl::StatusOr<QpProblem> Parse(absl::string_view text);

 private:
  absl::Status Header(absl::string_view line);
  absl::Status Data(absl::string_view line);
  absl::Status Rows(const Record& r);
  absl::Status Columns(const Record& r, absl::string_view line);
  absl::Status RhsOrRange(const Record& r, bool is_range);
  absl::Status Bounds(const Record& r);
  absl::Status Quadratic(const Record& r, bool full_matrix);
  absl::StatusOr<int> FindRow(absl::string_view name, absl::string_view where);
  absl::StatusOr<int> FindCol(absl::string_view name, absl::string_view where);
  absl::StatusOr<double> Number(absl::string_view text);
  absl::Status Finish();
  absl::Status BuildColumns(std::vector<Triplet>& triplets, int num_rows,
                            SparseColumns* out, absl::string_view what);

  QpProblem p_;
  Section section_ = Section::kNone;
  int64_t line_ = 0;
  bool have_objective_ = false;
  bool in_integer_block_ = false;
  std::unordered_map<std::string, int> row_index_;  // kObjectiveRow, ...
  std::unordered_map<std::string, int> col_index_;
  std::vector<char> row_type_;  // 'E', 'L', 'G' per constraint
  std::vector<double> rhs_, range_;
  std::vector<bool> has_range_, lower_set_;
  std::vector<Triplet> a_entries_, q_entries_;
  std::vector<double> objective_;  // per column
  std::string rhs_set_, range_set_, bound_set_;
  bool rhs_set_seen_ = false, range_set_seen_ = false, bound_set_seen_ = false;
};

absl::StatusOr<double> MpsParser::Number(absl::string_view text) {
  double value;
  if (!ParseNumber(text, &value)) {
    return LineError(line_, absl::StrCat("bad number '", text, "'"));
  }
  return value;
}

absl::StatusOr<int> MpsParser::FindRow(absl::string_view name,
                                       absl::string_view where) {
  auto it = row_index_.find(std::string(name));
  if (it == row_index_.end()) {
    return LineError(line_,
                     absl::StrCat("unknown row '", name, "' in ", where));
  }
  return it->second;
}

absl::StatusOr<int> MpsParser::FindCol(absl::string_view name,
                                       absl::string_view where) {
  auto it = col_index_.find(std::string(name));
  if (it == col_index_.end()) {
    return LineError(line_,
                     absl::StrCat("unknown column '", name, "' in ", where));
  }
  return it->second;
}

absl::Status MpsParser::Header(absl::string_view line) {
  std::vector<absl::string_view> t =
      absl::StrSplit(line, absl::ByAnyChar(" \t\r\v\f"), absl::SkipEmpty());
  const absl::string_view key = t[0];
  if (section_ == Section::kEnd) {
    return LineError(line_, "data after ENDATA");
  }
  if (key == "NAME") {
    section_ = Section::kName;
    if (t.size() > 1) p_.name = std::string(t[1]);
  } else if (key == "OBJSENSE") {
    section_ = Section::kObjSense;
    if (t.size() > 1) return Data(absl::StrCat(" ", t[1]));
  } else if (key == "ROWS") {
    section_ = Section::kRows;
  } else if (key == "COLUMNS") {
    section_ = Section::kColumns;
  } else if (key == "RHS") {
    section_ = Section::kRhs;
  } else if (key == "RANGES") {
    section_ = Section::kRanges;
  } else if (key == "BOUNDS") {
    section_ = Section::kBounds;
  } else if (key == "QUADOBJ" || key == "QSECTION") {
    section_ = Section::kQuadObj;
  } else if (key == "QMATRIX") {
    section_ = Section::kQMatrix;
  } else if (key == "ENDATA") {
    section_ = Section::kEnd;
  } else {
    return LineError(line_, absl::StrCat("unknown section '", key, "'"));
  }
  return absl::OkStatus();
}

absl::Status MpsParser::Data(absl::string_view line) {
  if (section_ == Section::kObjSense) {
    const std::string sense =
        absl::AsciiStrToUpper(absl::StripAsciiWhitespace(line));
    if (sense == "MAX" || sense == "MAXIMIZE") {
      p_.maximize = true;
    } else if (sense == "MIN" || sense == "MINIMIZE") {
      p_.maximize = false;
    } else {
      return LineError(line_, absl::StrCat("bad OBJSENSE '", sense, "'"));
    }
    return absl::OkStatus();
  }
  if (section_ == Section::kNone || section_ == Section::kName) {
    return LineError(line_, "data line outside a section");
  }
  if (section_ == Section::kEnd) return LineError(line_, "data after ENDATA");
  if (section_ == Section::kColumns &&
      line.find("'MARKER'") != absl::string_view::npos) {
    return Columns(Record{}, line);
  }
  Record r;
  if (IsFixedLine(line) && PlausibleFixedRecord(FixedRecord(line), section_)) {
    r = FixedRecord(line);
  } else {
    absl::StatusOr<Record> free = FreeRecord(line, section_, line_);
    if (!free.ok()) return free.status();
    r = *free;
  }
  switch (section_) {
    case Section::kRows:
      return Rows(r);
    case Section::kColumns:
      return Columns(r, line);
    case Section::kRhs:
      return RhsOrRange(r, false);
    case Section::kRanges:
      return RhsOrRange(r, true);
    case Section::kBounds:
      return Bounds(r);
    case Section::kQuadObj:
      return Quadratic(r, false);
    case Section::kQMatrix:
      return Quadratic(r, true);
    default:
      return LineError(line_, "data line outside a section");
  }
}

absl::Status MpsParser::Rows(const Record& r) {
  if (r.name1.empty()) return LineError(line_, "row without a name");
  std::string name(r.name1);
  if (row_index_.count(name)) {
    return LineError(line_, absl::StrCat("duplicate row '", name, "'"));
  }
  if (r.code == "N") {
    row_index_[name] = have_objective_ ? kDroppedRow : kObjectiveRow;
    if (!have_objective_) p_.objective_name = name;
    have_objective_ = true;
  } else if (r.code == "E" || r.code == "L" || r.code == "G") {
    row_index_[name] = static_cast<int>(p_.row_names.size());
    p_.row_names.push_back(name);
    row_type_.push_back(r.code[0]);
  } else {
    return LineError(line_, absl::StrCat("unknown row type '", r.code, "'"));
  }
  return absl::OkStatus();
}

absl::Status MpsParser::Columns(const Record& r, absl::string_view line) {
  if (line.find("'MARKER'") != absl::string_view::npos) {
    if (line.find("'INTORG'") != absl::string_view::npos) {
      in_integer_block_ = true;
    } else if (line.find("'INTEND'") != absl::string_view::npos) {
      in_integer_block_ = false;
    } else {
      return LineError(line_, "MARKER without 'INTORG' or 'INTEND'");
    }
    return absl::OkStatus();
  }
  if (r.name1.empty()) return LineError(line_, "column without a name");
  std::string name(r.name1);
  auto [it, inserted] =
      col_index_.emplace(name, static_cast<int>(p_.col_names.size()));
  if (inserted) {
    p_.col_names.push_back(name);
    p_.is_integer.push_back(in_integer_block_);
  }
  const int col = it->second;
  for (auto [row_name, num] :
       {std::pair{r.name2, r.num1}, std::pair{r.name3, r.num2}}) {
    if (row_name.empty() && num.empty()) continue;
    absl::StatusOr<int> row = FindRow(row_name, "COLUMNS");
    if (!row.ok()) return row.status();
    absl::StatusOr<double> value = Number(num);
    if (!value.ok()) return value.status();
    if (!std::isfinite(*value)) return LineError(line_, "infinite coefficient");
    if (*row == kDroppedRow) continue;
    a_entries_.push_back({*row, col, *value, line_});
  }
  return absl::OkStatus();
}

absl::Status MpsParser::RhsOrRange(const Record& r, bool is_range) {
  std::string& set = is_range ? range_set_ : rhs_set_;
  bool& seen = is_range ? range_set_seen_ : rhs_set_seen_;
  if (!seen) set = std::string(r.name1), seen = true;
  if (r.name1 != set) return absl::OkStatus();  // a later set: skipped
  const absl::string_view where = is_range ? "RANGES" : "RHS";
  for (auto [row_name, num] :
       {std::pair{r.name2, r.num1}, std::pair{r.name3, r.num2}}) {
    if (row_name.empty() && num.empty()) continue;
    absl::StatusOr<int> row = FindRow(row_name, where);
    if (!row.ok()) return row.status();
    absl::StatusOr<double> value = Number(num);
    if (!value.ok()) return value.status();
    if (*row == kDroppedRow) continue;
    if (*row == kObjectiveRow) {
      if (is_range) continue;  // a range on the objective means nothing
      if (!std::isfinite(*value)) return LineError(line_, "infinite RHS");
      p_.objective_constant = -*value;  // RHS r on the objective: -r
      continue;
    }
    if (is_range) {
      range_[*row] = *value;
      has_range_[*row] = true;
    } else {
      if (!std::isfinite(*value)) return LineError(line_, "infinite RHS");
      rhs_[*row] = *value;
    }
  }
  return absl::OkStatus();
}

absl::Status MpsParser::Bounds(const Record& r) {
  if (!bound_set_seen_)
    bound_set_ = std::string(r.name1), bound_set_seen_ = true;
  if (r.name1 != bound_set_) return absl::OkStatus();
  absl::StatusOr<int> col = FindCol(r.name2, "BOUNDS");
  if (!col.ok()) return col.status();
  double& lower = p_.col_lower[*col];
  double& upper = p_.col_upper[*col];
  const absl::string_view type = r.code;
  if (type == "FR") {
    lower = -kInf, upper = kInf;
    return absl::OkStatus();
  }
  if (type == "MI") {
    lower = -kInf;
    lower_set_[*col] = true;
    return absl::OkStatus();
  }
  if (type == "PL") {
    upper = kInf;
    return absl::OkStatus();
  }
  if (type == "BV") {
    lower = 0, upper = 1;
    lower_set_[*col] = true;
    p_.is_integer[*col] = true;
    return absl::OkStatus();
  }
  absl::StatusOr<double> value = Number(r.num1);
  if (!value.ok()) return value.status();
  double v = *value;
  if (v >= kInfiniteBound) v = kInf;
  if (v <= -kInfiniteBound) v = -kInf;
  if (type == "UP" || type == "UI") {
    // Convention: a negative upper bound on a column whose lower bound is the
    // default 0 makes the lower bound -infinity.
    if (v < 0 && !lower_set_[*col] && lower == 0) lower = -kInf;
    upper = v;
  } else if (type == "LO" || type == "LI") {
    lower = v;
    lower_set_[*col] = true;
  } else if (type == "FX") {
    if (!std::isfinite(v)) return LineError(line_, "infinite FX bound");
    lower = upper = v;
    lower_set_[*col] = true;
  } else {
    return LineError(line_, absl::StrCat("unknown bound type '", type, "'"));
  }
  if (type == "UI" || type == "LI") p_.is_integer[*col] = true;
  return absl::OkStatus();
}

absl::Status MpsParser::Quadratic(const Record& r, bool full_matrix) {
  absl::StatusOr<int> first = FindCol(r.name1, "QUADOBJ");
  if (!first.ok()) return first.status();
  for (auto [col_name, num] :
       {std::pair{r.name2, r.num1}, std::pair{r.name3, r.num2}}) {
    if (col_name.empty() && num.empty()) continue;
    absl::StatusOr<int> second = FindCol(col_name, "QUADOBJ");
    if (!second.ok()) return second.status();
    absl::StatusOr<double> value = Number(num);
    if (!value.ok()) return value.status();
    if (!std::isfinite(*value)) return LineError(line_, "infinite coefficient");
    if (full_matrix && *first < *second) continue;  // upper triangle
    q_entries_.push_back(
        {std::max(*first, *second), std::min(*first, *second), *value, line_});
  }
  return absl::OkStatus();
}

absl::Status MpsParser::BuildColumns(std::vector<Triplet>& triplets,
                                     int num_rows, SparseColumns* out,
                                     absl::string_view what) {
  std::stable_sort(triplets.begin(), triplets.end(),
                   [](const Triplet& x, const Triplet& y) {
                     return x.col != y.col ? x.col < y.col : x.row < y.row;
                   });
  out->num_rows = num_rows;
  out->num_cols = p_.num_cols();
  out->col_start.assign(out->num_cols + 1, 0);
  out->row_index.clear();
  out->value.clear();
  for (size_t k = 0; k < triplets.size(); ++k) {
    const Triplet& t = triplets[k];
    if (k > 0 && triplets[k - 1].row == t.row && triplets[k - 1].col == t.col) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", t.line, ": duplicate ", what,
                       " entry for column '", p_.col_names[t.col], "'"));
    }
    out->col_start[t.col + 1]++;
    out->row_index.push_back(t.row);
    out->value.push_back(t.value);
  }
  for (int j = 0; j < out->num_cols; ++j) {
    out->col_start[j + 1] += out->col_start[j];
  }
  return absl::OkStatus();
}

absl::Status MpsParser::Finish() {
  if (section_ != Section::kEnd) {
    return LineError(line_, "missing ENDATA (truncated file?)");
  }
  if (!have_objective_) {
    return absl::InvalidArgumentError("no objective (N) row in ROWS");
  }
  const int n = p_.num_cols();
  const int m = p_.num_rows();
  rhs_.resize(m, 0.0);
  range_.resize(m, 0.0);
  has_range_.resize(m, false);
  p_.col_lower.resize(n, 0.0);
  p_.col_upper.resize(n, kInf);
  lower_set_.resize(n, false);
  p_.c.assign(n, 0.0);
  std::vector<Triplet> constraint_entries;
  std::vector<Triplet> objective_entries;
  for (const Triplet& t : a_entries_) {
    (t.row == kObjectiveRow ? objective_entries : constraint_entries)
        .push_back(t);
  }
  for (Triplet& t : objective_entries) t.row = 0;
  SparseColumns objective;
  absl::Status status =
      BuildColumns(objective_entries, 1, &objective, "objective");
  if (!status.ok()) return status;
  for (int j = 0; j < n; ++j) {
    for (int64_t k = objective.col_start[j]; k < objective.col_start[j + 1];
         ++k) {
      p_.c[j] = objective.value[k];
    }
  }
  status = BuildColumns(constraint_entries, m, &p_.a, "COLUMNS");
  if (!status.ok()) return status;
  status = BuildColumns(q_entries_, n, &p_.q, "QUADOBJ");
  if (!status.ok()) return status;

  p_.row_lower.resize(m);
  p_.row_upper.resize(m);
  for (int i = 0; i < m; ++i) {
    const double b = rhs_[i];
    double lower = b, upper = b;
    if (row_type_[i] == 'L') lower = -kInf;
    if (row_type_[i] == 'G') upper = kInf;
    if (has_range_[i]) {
      const double r = range_[i];
      const double mag = std::abs(r) >= kInfiniteBound ? kInf : std::abs(r);
      switch (row_type_[i]) {
        case 'L':
          lower = b - mag;
          break;
        case 'G':
          upper = b + mag;
          break;
        default:  // E: the sign of R decides the side
          if (r > 0) upper = b + mag;
          if (r < 0) lower = b - mag;
      }
    }
    p_.row_lower[i] = lower;
    p_.row_upper[i] = upper;
  }
  return absl::OkStatus();
}

absl::StatusOr<QpProblem> MpsParser::Parse(absl::string_view text) {
  size_t pos = 0;
  Section previous = Section::kNone;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == absl::string_view::npos) end = text.size();
    absl::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
      line.remove_suffix(1);
    }
    if (line.empty() || line[0] == '*') continue;
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    absl::Status status;
    if (line[0] != ' ' && line[0] != '\t') {
      status = Header(line);
      // Sizes of per-row and per-column arrays are fixed once ROWS and
      // COLUMNS are over.
      if (status.ok() && previous == Section::kRows) {
        rhs_.assign(p_.num_rows(), 0.0);
        range_.assign(p_.num_rows(), 0.0);
        has_range_.assign(p_.num_rows(), false);
      }
      if (status.ok() && section_ != Section::kColumns &&
          p_.col_lower.size() != p_.col_names.size()) {
        p_.col_lower.resize(p_.num_cols(), 0.0);
        p_.col_upper.resize(p_.num_cols(), kInf);
        lower_set_.resize(p_.num_cols(), false);
      }
      if (status.ok() && previous != section_ && section_ != Section::kEnd &&
          section_ > Section::kRows && previous < Section::kRows) {
        return LineError(line_, "ROWS must come before this section");
      }
      if (status.ok() && section_ == Section::kRows &&
          previous > Section::kRows) {
        return LineError(line_, "ROWS after later sections");
      }
      if (status.ok() && section_ == Section::kColumns &&
          previous > Section::kColumns) {
        return LineError(line_, "COLUMNS after later sections");
      }
      previous = section_;
    } else {
      if ((section_ == Section::kRhs || section_ == Section::kRanges) &&
          rhs_.size() != static_cast<size_t>(p_.num_rows())) {
        return LineError(line_, "internal: row arrays not sized");
      }
      status = Data(line);
    }
    if (!status.ok()) return status;
  }
  absl::Status status = Finish();
  if (!status.ok()) return status;
  return std::move(p_);
}

}  // namespace

absl::StatusOr<QpProblem> ParseMps(absl::string_view text) {
  MpsParser parser;
  return parser.Parse(text);
}

absl::StatusOr<QpProblem> ReadMpsFile(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) {
    return absl::NotFoundError(absl::StrCat("cannot open '", path, "'"));
  }
  std::string text;
  char buffer[1 << 16];
  while (true) {
    const int got = gzread(file, buffer, sizeof(buffer));
    if (got < 0) {
      int code = 0;
      std::string message = gzerror(file, &code);
      gzclose(file);
      return absl::InvalidArgumentError(
          absl::StrCat("'", path, "': ", message));
    }
    if (got == 0) break;
    if (text.size() + got > (size_t{2} << 30)) {
      gzclose(file);
      return absl::ResourceExhaustedError(
          absl::StrCat("'", path, "': more than 2 GiB of text"));
    }
    text.append(buffer, got);
  }
  gzclose(file);
  absl::StatusOr<QpProblem> problem = ParseMps(text);
  if (!problem.ok()) {
    return absl::Status(problem.status().code(),
                        absl::StrCat(path, ": ", problem.status().message()));
  }
  return problem;
}

}  // namespace factord::ipm
