#include "tests/core/block_jacobi/block_jacobi_cases.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <utility>

namespace factord::emulation_testing {
namespace {

using Dense = std::vector<double>;

Dense RandomDense(int m, std::mt19937_64& rng, double zero_fraction,
                  double diagonal_shift) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  Dense d(static_cast<size_t>(m) * m);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      d[i * m + j] = coin(rng) < zero_fraction ? 0.0 : value(rng);
    }
    d[i * m + i] += diagonal_shift;
  }
  return d;
}

}  // namespace

kernels::BlockLayout BlockJacobiCase::Layout() const {
  return {block_ptr, block_rows, block_of_row, local_index, value_ptr};
}

kernels::cuda::DeviceBlockLayout BlockJacobiCase::DeviceLayout() const {
  kernels::cuda::DeviceBlockLayout d;
  d.num_blocks = static_cast<int64_t>(block_ptr.size()) - 1;
  d.block_ptr = block_ptr.data();
  d.block_rows = block_rows.data();
  d.block_of_row = block_of_row.data();
  d.local_index = local_index.data();
  d.value_ptr = value_ptr.data();
  return d;
}

BlockJacobiCase MakeCase(const std::string& name,
                         const std::vector<Dense>& dense_blocks, uint64_t seed,
                         bool keep_zeros) {
  std::mt19937_64 rng(seed);
  BlockJacobiCase c;
  c.name = name;
  c.block_ptr.push_back(0);
  c.value_ptr.push_back(0);
  for (const Dense& d : dense_blocks) {
    const int m = static_cast<int>(std::lround(std::sqrt(d.size())));
    c.block_ptr.push_back(c.block_ptr.back() + m);
    c.value_ptr.push_back(c.value_ptr.back() + int64_t{m} * m);
  }
  const int64_t n = c.block_ptr.back();
  c.block_rows.resize(n);
  std::iota(c.block_rows.begin(), c.block_rows.end(), 0);
  std::shuffle(c.block_rows.begin(), c.block_rows.end(), rng);
  c.block_of_row.resize(n);
  c.local_index.resize(n);
  for (size_t b = 0; b + 1 < c.block_ptr.size(); ++b) {
    for (int64_t pos = c.block_ptr[b]; pos < c.block_ptr[b + 1]; ++pos) {
      c.block_of_row[c.block_rows[pos]] = static_cast<int32_t>(b);
      c.local_index[c.block_rows[pos]] =
          static_cast<int32_t>(pos - c.block_ptr[b]);
    }
  }
  // Row-wise entries: the block's dense row plus a few off-block couplings.
  std::vector<std::vector<std::pair<int32_t, double>>> rows(n);
  for (size_t b = 0; b < dense_blocks.size(); ++b) {
    const int64_t first = c.block_ptr[b];
    const int64_t m = c.block_ptr[b + 1] - first;
    for (int64_t li = 0; li < m; ++li) {
      for (int64_t lj = 0; lj < m; ++lj) {
        const double v = dense_blocks[b][li * m + lj];
        if (v != 0 || keep_zeros) {
          rows[c.block_rows[first + li]].push_back(
              {c.block_rows[first + lj], v});
        }
      }
    }
  }
  std::uniform_int_distribution<int64_t> column(0, std::max<int64_t>(n - 1, 0));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      const int32_t j = static_cast<int32_t>(column(rng));
      if (c.block_of_row[j] == c.block_of_row[i]) continue;
      rows[i].push_back({j, value(rng)});
    }
    std::sort(rows[i].begin(), rows[i].end());
    rows[i].erase(std::unique(rows[i].begin(), rows[i].end(),
                              [](const auto& x, const auto& y) {
                                return x.first == y.first;
                              }),
                  rows[i].end());
  }
  c.a.rows = c.a.cols = n;
  c.a.structure = Structure::kGeneral;
  c.a.row_ptr.push_back(0);
  for (const auto& row : rows) {
    for (const auto& [j, v] : row) {
      c.a.col_idx.push_back(j);
      c.a.values.push_back(v);
    }
    c.a.row_ptr.push_back(static_cast<int64_t>(c.a.col_idx.size()));
  }
  return c;
}

BlockJacobiCase MakePlantedEdgeCases() {
  std::mt19937_64 rng(2024);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<Dense> blocks = {
      {4.0},                                     // size 1
      {0.0},                                     // size 1, zero: singular
      {0.0, 1.0, 1.0, 0.0},                      // zero leading pivot
      {2.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0,   // indefinite, zero middle
       2.0},                                     // diagonal: a 2x2 pivot
      {0.0, 3.0, 3.0, 0.0},                      // a pure 2x2 pivot block
      {1.0, 2.0, 3.0, -1.0, 5.0, 1.0, 1.0, 1.0,  // tied |pivots| in
       7.0},                                     // column 0
      {1.0, 2.0, 2.0, 4.0},                      // exactly singular
      {1.0, 2.0, 3.0, 4.0, 2.0, 4.0, 6.0, 8.0, 0.5, 0.1, 0.2, 0.3, 1.0, 1.0,
       1.0, 1.0},                   // rank deficient (row 1 = 2 row 0)
      {1.0, inf, 0.0, 1.0},         // non-finite entry
      {1e-200, 1e200, 1e200, 1.0},  // extreme magnitudes
      {1e-300, 0.0, 0.0, 1e-300},   // tiny but regular
      {0.0, 0.0, 0.0, 5.0},         // zero row and column
  };
  blocks.push_back(RandomDense(32, rng, 0.0, 8.0));  // full warp, dominant
  blocks.push_back(RandomDense(32, rng, 0.3, 0.0));  // full warp, pivoting
  blocks.push_back(RandomDense(31, rng, 0.2, 0.0));  // one idle lane
  blocks.push_back(RandomDense(17, rng, 0.5, 0.0));
  blocks.push_back(RandomDense(5, rng, 0.0, 0.0));
  // A 6x6 block whose rows 2 and 4 coincide after one elimination step.
  Dense dependent = RandomDense(6, rng, 0.0, 0.0);
  for (int j = 0; j < 6; ++j) dependent[4 * 6 + j] = dependent[2 * 6 + j];
  blocks.push_back(dependent);
  // 19 blocks: the last CUDA block of 4 warps runs 3 idle warps.
  blocks.push_back({-2.5});
  return MakeCase("planted", blocks, 7, /*keep_zeros=*/true);
}

BlockJacobiCase MakeRandomCase(int num_blocks, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> size(1, 32);
  std::vector<Dense> blocks;
  for (int b = 0; b < num_blocks; ++b) {
    blocks.push_back(RandomDense(size(rng), rng, 0.25, 0.0));
  }
  return MakeCase("random" + std::to_string(seed), blocks, seed + 1);
}

BlockJacobiCase MakeCaseFromMatrix(const std::string& name, const CsrMatrix& a,
                                   int block_size) {
  BlockJacobiCase c;
  c.name = name;
  c.a = a;
  const int64_t n = a.rows;
  c.block_ptr.push_back(0);
  c.value_ptr.push_back(0);
  for (int64_t first = 0; first < n; first += block_size) {
    const int64_t m = std::min<int64_t>(block_size, n - first);
    c.block_ptr.push_back(first + m);
    c.value_ptr.push_back(c.value_ptr.back() + m * m);
  }
  c.block_rows.resize(n);
  std::iota(c.block_rows.begin(), c.block_rows.end(), 0);
  c.block_of_row.resize(n);
  c.local_index.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    c.block_of_row[i] = static_cast<int32_t>(i / block_size);
    c.local_index[i] = static_cast<int32_t>(i % block_size);
  }
  return c;
}

}  // namespace factord::emulation_testing
