// Assembles the lower triangle of a symmetric matrix, row by row, into the
// core's CsrMatrix (core/matrix/csr.h): the storage the model problems of
// bench/scale_benchmark.cc are handed to factord and to the peers in.
#ifndef FACTORD_BENCH_MODELS_LOWER_TRIANGLE_BUILDER_H_
#define FACTORD_BENCH_MODELS_LOWER_TRIANGLE_BUILDER_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/matrix/csr.h"

namespace factord::bench {

// Rows are added in order 0, 1, ..., n-1; within a row, Add may be called in
// any column order and more than once per column (the values are summed).
// Entries above the diagonal (col > row) are ignored, so a generator can add
// a symmetric stencil whole. An entry added with value 0 is kept: it is part
// of the pattern.
class LowerTriangleBuilder {
 public:
  LowerTriangleBuilder(int64_t n, Structure structure, int64_t nnz_hint);

  void Add(int64_t col, double value);
  // Closes the current row (sorting it and merging duplicates).
  void EndRow();
  // The matrix; every one of the n rows must have been closed.
  CsrMatrix Finish();

 private:
  CsrMatrix a_;
  std::vector<std::pair<int32_t, double>> row_;
};

}  // namespace factord::bench

#endif  // FACTORD_BENCH_MODELS_LOWER_TRIANGLE_BUILDER_H_
