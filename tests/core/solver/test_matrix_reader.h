// A minimal Matrix Market reader for the iterative solver tests only
// (coordinate real/integer/pattern general|symmetric, and dense arrays),
// until the tests switch to factord/matrix/matrix_market.h. Symmetric files
// become Structure::kSymmetricLower (an upper entry is mirrored to the lower
// triangle); `spd` marks them kSpdLower.
#ifndef FACTORD_TESTS_CORE_SOLVER_TEST_MATRIX_READER_H_
#define FACTORD_TESTS_CORE_SOLVER_TEST_MATRIX_READER_H_

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "factord/matrix/csr.h"

namespace factord::testing {

inline bool ReadTestMatrix(const std::string& path, CsrMatrix* a,
                           bool spd = false) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  std::getline(in, line);
  const bool symmetric = line.find("symmetric") != std::string::npos;
  const bool pattern = line.find("pattern") != std::string::npos;
  while (std::getline(in, line) && !line.empty() && line[0] == '%') {
  }
  int64_t rows, cols, nnz;
  std::istringstream(line) >> rows >> cols >> nnz;
  std::vector<std::tuple<int64_t, int64_t, double>> entries;
  entries.reserve(nnz);
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t i, j;
    double v = 1.0;
    in >> i >> j;
    if (!pattern) in >> v;
    --i;
    --j;
    if (symmetric && j > i) std::swap(i, j);
    entries.emplace_back(i, j, v);
  }
  if (!in) return false;
  std::sort(entries.begin(), entries.end());
  a->rows = rows;
  a->cols = cols;
  a->structure = symmetric ? (spd ? Structure::kSpdLower
                                  : Structure::kSymmetricLower)
                           : Structure::kGeneral;
  a->row_ptr.assign(rows + 1, 0);
  a->col_idx.clear();
  a->values.clear();
  for (size_t k = 0; k < entries.size(); ++k) {
    const auto& [i, j, v] = entries[k];
    if (k > 0 && std::get<0>(entries[k - 1]) == i &&
        std::get<1>(entries[k - 1]) == j) {
      a->values.back() += v;  // duplicates add up
      continue;
    }
    a->col_idx.push_back(static_cast<int32_t>(j));
    a->values.push_back(v);
    ++a->row_ptr[i + 1];
  }
  for (int64_t i = 0; i < rows; ++i) a->row_ptr[i + 1] += a->row_ptr[i];
  return true;
}

inline bool ReadTestVector(const std::string& path, std::vector<double>* b) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line) && !line.empty() && line[0] == '%') {
  }
  int64_t rows = 0, cols = 1;
  std::istringstream(line) >> rows >> cols;
  b->resize(rows * cols);
  for (double& v : *b) in >> v;
  return static_cast<bool>(in);
}

}  // namespace factord::testing

#endif  // FACTORD_TESTS_CORE_SOLVER_TEST_MATRIX_READER_H_
