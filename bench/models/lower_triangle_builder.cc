#include "models/lower_triangle_builder.h"

#include <algorithm>

namespace factord::bench {

LowerTriangleBuilder::LowerTriangleBuilder(int64_t n, Structure structure,
                                           int64_t nnz_hint) {
  a_.rows = n;
  a_.cols = n;
  a_.structure = structure;
  a_.row_ptr.reserve(n + 1);
  a_.row_ptr.push_back(0);
  a_.col_idx.reserve(nnz_hint);
  a_.values.reserve(nnz_hint);
}

void LowerTriangleBuilder::Add(int64_t col, double value) {
  const int64_t row = static_cast<int64_t>(a_.row_ptr.size()) - 1;
  if (col > row) return;
  row_.emplace_back(static_cast<int32_t>(col), value);
}

void LowerTriangleBuilder::EndRow() {
  std::sort(row_.begin(), row_.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  for (size_t t = 0; t < row_.size(); ++t) {
    if (t > 0 && row_[t].first == row_[t - 1].first) {
      a_.values.back() += row_[t].second;
    } else {
      a_.col_idx.push_back(row_[t].first);
      a_.values.push_back(row_[t].second);
    }
  }
  row_.clear();
  a_.row_ptr.push_back(static_cast<int64_t>(a_.col_idx.size()));
}

CsrMatrix LowerTriangleBuilder::Finish() { return std::move(a_); }

}  // namespace factord::bench
