// Small hand-made systems for the block_ildlt tests (the threaded-vs-serial
// tests and the emulated CUDA kernels' tests beside this file build their
// planted cases from these).
#ifndef FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_PLANTED_H_
#define FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_PLANTED_H_

#include <algorithm>
#include <tuple>
#include <vector>

#include "core/matrix/csr.h"
#include "core/solver/options.h"

namespace factord::testing {

using Entry = std::tuple<int, int, double>;  // row >= column

// Symmetric-lower CSR from (row, column, value) entries with row >= column;
// a row may be empty (no diagonal either).
inline CsrMatrix LowerFromEntries(int n, std::vector<Entry> entries) {
  std::sort(entries.begin(), entries.end());
  CsrMatrix a;
  a.rows = a.cols = n;
  a.structure = Structure::kSymmetricLower;
  a.row_ptr.assign(n + 1, 0);
  for (const auto& [i, j, v] : entries) {
    a.col_idx.push_back(j);
    a.values.push_back(v);
    ++a.row_ptr[i + 1];
  }
  for (int i = 0; i < n; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  return a;
}

// block_ildlt on the values as given: no scaling, complete fill, no
// dropping and no fill limit (each planted case sets what it tests).
inline FactorOptions Planted() {
  FactorOptions options;
  options.method = Method::kBlockIldlt;
  options.scaling = Scaling::kNone;
  options.fill_level = 1000;
  options.drop_tolerance = 0;
  options.fill_factor = 0;
  return options;
}

// A banded SPD-looking matrix of order n (bandwidth 3), entries depending on
// the position so that no two columns are alike.
inline std::vector<Entry> Banded(int n) {
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    e.push_back({i, i, 4.0 + 0.01 * i});
    for (int d = 1; d <= 3 && i - d >= 0; ++d) {
      e.push_back({i, i - d, 0.5 / d + 0.001 * i});
    }
  }
  return e;
}

}  // namespace factord::testing

#endif  // FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_PLANTED_H_
