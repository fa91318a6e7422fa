#include "tests/core/dense/dense_batched_cases.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace factord::emulation_testing {

void DenseBlocks::Add(int m, const std::vector<double>& col_major) {
  size.push_back(m);
  value_offset.push_back(static_cast<int64_t>(values.size()));
  index_offset.push_back(static_cast<int64_t>(row_perm.size()));
  values.insert(values.end(), col_major.begin(), col_major.end());
  row_perm.resize(row_perm.size() + m, -99);
  col_perm.resize(col_perm.size() + m, -99);
  pivot_size.resize(pivot_size.size() + m, -99);
  d_diag.resize(d_diag.size() + m, -3.5e99);
  d_off.resize(d_off.size() + m, -3.5e99);
  status.push_back(-99);
  step.push_back(-99);
}

kernels::DenseBatch DenseBlocks::View() {
  return {size,       value_offset, index_offset, values, row_perm, col_perm,
          pivot_size, d_diag,       d_off,        status, step};
}

std::vector<double> RandomGeneral(int m, std::mt19937_64& rng,
                                  double zero_fraction) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<double> a(static_cast<size_t>(m) * m);
  for (double& v : a) v = coin(rng) < zero_fraction ? 0.0 : value(rng);
  return a;
}

std::vector<double> RandomSymmetric(int m, std::mt19937_64& rng,
                                    double zero_diagonal_fraction) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<double> a(static_cast<size_t>(m) * m);
  for (int j = 0; j < m; ++j) {
    for (int i = j; i < m; ++i) {
      double v = value(rng);
      if (i == j && coin(rng) < zero_diagonal_fraction) v = 0.0;
      a[j * m + i] = a[i * m + j] = v;
    }
  }
  return a;
}

std::vector<double> RandomSpd(int m, std::mt19937_64& rng) {
  const std::vector<double> b = RandomGeneral(m, rng, 0.0);
  std::vector<double> a(static_cast<size_t>(m) * m);
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < m; ++i) {
      double v = i == j ? m : 0.0;
      for (int k = 0; k < m; ++k) v += b[k * m + i] * b[k * m + j];
      a[j * m + i] = v;
    }
  }
  return a;
}

namespace {

// Column-major block from a function of (i, j).
template <typename F>
std::vector<double> Block(int m, F entry) {
  std::vector<double> a(static_cast<size_t>(m) * m);
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < m; ++i) a[j * m + i] = entry(i, j);
  }
  return a;
}

}  // namespace

DenseBlocks PlantedDenseBlocks() {
  std::mt19937_64 rng(2024);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DenseBlocks blocks;
  blocks.Add(1, {4.0});
  blocks.Add(1, {0.0});
  blocks.Add(1, {-2.0});
  blocks.Add(2, {0.0, 1.0, 1.0, 0.0});  // zero leading pivot; LDL^T 2x2
  blocks.Add(2, {0.0, 0.0, 0.0, 0.0});
  blocks.Add(2, {1.0, 2.0, 2.0, 4.0});         // zero pivot at step 1
  blocks.Add(3, std::vector<double>(9, 1.0));  // rank one, all ties
  blocks.Add(2, {1e-20, 1.0, 1.0, 1e-20});     // tiny diagonal
  blocks.Add(8, Block(8, [](int i, int j) {    // KKT [H A^T; A 0]
               const int r = i > j ? i : j, c = i > j ? j : i;
               if (r < 5) return r == c ? 2.0 + r : 0.1 * (r - c);
               if (c < 5) return ((r + 2 * c) % 3) - 1.0;
               return 0.0;
             }));
  blocks.Add(3, Block(3, [&](int i, int j) {  // NaN in the lower triangle
               return (i == 2 && j == 1) ? nan : (i == j ? 1.0 : 0.0);
             }));
  blocks.Add(2, {1e-300, 1e300, 1e300, 1.0});  // static pivot overflows
  blocks.Add(5, Block(5, [](int i, int j) {    // +-1 and 0: ties
               return ((i * j) % 3) - 1.0;
             }));
  blocks.Add(17, RandomGeneral(17, rng, 0.2));
  blocks.Add(17, RandomSymmetric(17, rng, 0.3));
  blocks.Add(17, RandomSpd(17, rng));
  blocks.Add(31, RandomSymmetric(31, rng, 0.2));
  blocks.Add(32, RandomGeneral(32, rng, 0.0));
  blocks.Add(32, RandomSpd(32, rng));
  blocks.Add(32, RandomSymmetric(32, rng, 1.0));  // zero diagonal throughout
  blocks.Add(4, {2.0, 1.0, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0,  // zero Schur pivot
                 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 3.0, 0.0});
  {
    const double v[6] = {1, -2, 3, 0.5, -1, 2};
    blocks.Add(6, Block(6, [&](int i, int j) { return v[i] * v[j]; }));
  }
  blocks.Add(12, RandomGeneral(12, rng, 0.6));
  return blocks;
}

DenseBlocks RandomDenseBlocks(DenseFactorKind kind, int num_blocks,
                              uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> size(1, 32);
  DenseBlocks blocks;
  for (int b = 0; b < num_blocks; ++b) {
    const int m = size(rng);
    if (kind == DenseFactorKind::kLu) {
      blocks.Add(m, RandomGeneral(m, rng, 0.1));
    } else if (kind == DenseFactorKind::kLlt) {
      blocks.Add(m, RandomSpd(m, rng));
    } else {
      blocks.Add(m, RandomSymmetric(m, rng, 0.4));
    }
  }
  return blocks;
}

DenseBlocks RunReference(const DenseBlocks& input,
                         const DenseBatchParams& params) {
  DenseBlocks out = input;
  ExecContext ctx;
  ctx.backend = Backend::kReference;
  kernels::reference::FactorDenseBatch(ctx, params, out.View());
  return out;
}

namespace {

template <typename T>
std::string FirstDifferenceIn(const std::vector<T>& got,
                              const std::vector<T>& want, const char* what) {
  if (got.size() != want.size()) return std::string(what) + ": sizes differ";
  for (size_t k = 0; k < got.size(); ++k) {
    if (std::memcmp(&got[k], &want[k], sizeof(T)) != 0) {
      std::ostringstream message;
      message << what << "[" << k << "]: " << +got[k] << " vs reference "
              << +want[k];
      return message.str();
    }
  }
  return "";
}

}  // namespace

std::string FirstDifference(const DenseBlocks& got, const DenseBlocks& want) {
  for (const std::string& d :
       {FirstDifferenceIn(got.status, want.status, "status"),
        FirstDifferenceIn(got.step, want.step, "step"),
        FirstDifferenceIn(got.row_perm, want.row_perm, "row_perm"),
        FirstDifferenceIn(got.col_perm, want.col_perm, "col_perm"),
        FirstDifferenceIn(got.pivot_size, want.pivot_size, "pivot_size"),
        FirstDifferenceIn(got.d_diag, want.d_diag, "d_diag"),
        FirstDifferenceIn(got.d_off, want.d_off, "d_off"),
        FirstDifferenceIn(got.values, want.values, "values")}) {
    if (!d.empty()) return d;
  }
  return "";
}

std::vector<NamedDenseParams> AllDenseParams() {
  std::vector<NamedDenseParams> all;
  const std::pair<DenseFactorKind, const char*> kinds[] = {
      {DenseFactorKind::kLu, "lu"},
      {DenseFactorKind::kLlt, "llt"},
      {DenseFactorKind::kLdlt, "ldlt"}};
  const std::pair<int, const char*> pivotings[] = {
      {kernels::kBlockPivotStatic, "static"},
      {kernels::kBlockPivotPartial, "partial"},
      {kernels::kBlockPivotFull, "full"},
      {kernels::kBlockPivotRook, "rook"}};
  for (const auto& [kind, kind_name] : kinds) {
    for (const auto& [pivoting, pivoting_name] : pivotings) {
      DenseBatchParams p;
      p.kind = kind;
      p.pivoting = pivoting;
      all.push_back({std::string(kind_name) + "/" + pivoting_name, p});
    }
  }
  DenseBatchParams absolute;  // LU, partial, thresholds not scaled
  absolute.relative = false;
  absolute.tiny = 1e-3;
  all.push_back({"lu/partial/absolute tiny 1e-3", absolute});
  DenseBatchParams strict;  // LDL^T, Bunch-Kaufman, u = 0.5
  strict.kind = DenseFactorKind::kLdlt;
  strict.threshold = 0.5;
  all.push_back({"ldlt/partial/u=0.5", strict});
  return all;
}

}  // namespace factord::emulation_testing
