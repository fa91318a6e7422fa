// See pattern_check.h. One pass over the entries with a per-column marker
// (the row that last used it) to find duplicates: O(n + nnz).
#include "pardiso/pattern_check.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace factord::pardiso {

bool SupportedMatrixType(int mtype) {
  return mtype == -2 || mtype == 2 || mtype == 1 || mtype == 11;
}

std::string CheckPattern(int mtype, int n, const int* ia, const int* ja) {
  if (n <= 0) return absl::StrCat("n = ", n, ": it must be positive");
  if (ia == nullptr || ja == nullptr) return "ia or ja is NULL";
  if (ia[0] != 1) {
    return absl::StrCat("ia(1) = ", ia[0], ": it must be 1 (1-based CSR)");
  }
  for (int i = 0; i < n; ++i) {
    if (ia[i + 1] < ia[i]) {
      return absl::StrCat("ia is not monotone: ia(", i + 2, ") = ", ia[i + 1],
                          " < ia(", i + 1, ") = ", ia[i]);
    }
  }
  const bool upper = SymmetricType(mtype);
  std::vector<int> last_row(n, -1);
  for (int i = 0; i < n; ++i) {
    for (int p = ia[i] - 1; p < ia[i + 1] - 1; ++p) {
      const int j = ja[p];  // 1-based column
      if (j < 1 || j > n) {
        return absl::StrCat("ja(", p + 1, ") = ", j, " in row ", i + 1,
                            " is out of range 1..", n);
      }
      if (upper && j < i + 1) {
        return absl::StrCat("ja(", p + 1, ") = ", j, " in row ", i + 1,
                            " is in the lower triangle; matrix type ", mtype,
                            " takes the upper triangle");
      }
      if (last_row[j - 1] == i) {
        return absl::StrCat("ja(", p + 1, ") = ", j, " appears twice in row ",
                            i + 1);
      }
      last_row[j - 1] = i;
    }
  }
  return "";
}

}  // namespace factord::pardiso
