#include "tests/core/trisolve/trisolve_cases.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <utility>

#include "core/block_jacobi/kernels/block_jacobi_kernels.h"
#include "core/incomplete/incomplete_numeric.h"
#include "core/incomplete/incomplete_symbolic.h"
#include "core/matrix/csr.h"
#include "core/matrix/matrix_market.h"
#include "core/trisolve/kernels/cuda/trisolve_launch.h"
#include "tests/test_data.h"

namespace factord::emulation_testing {

using kernels::cuda::kDeviceSweepNotFinite;
using kernels::cuda::kDeviceSweepOk;

TriangularBlocks TrisolveCase::Blocks() const {
  return TriangularBlocks{blocking.block_ptr, blocking.block_rows,
                          blocking.block_of_row, blocking.local_index,
                          blocking.value_ptr};
}

namespace {

BlockJacobiBlocking Consecutive(int64_t n, std::vector<int64_t> block_ptr) {
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  return *MakeBlockJacobiBlocking(std::move(order), std::move(block_ptr));
}

// Block sizes from `sizes` (cycled) after `leading`, ending in a block of
// `last` rows.
std::vector<int64_t> BlockPtr(int64_t n, const std::vector<int64_t>& leading,
                              const std::vector<int64_t>& sizes, int64_t last) {
  std::vector<int64_t> ptr{0};
  for (int64_t s : leading) ptr.push_back(ptr.back() + s);
  for (size_t k = 0; ptr.back() + sizes[k % sizes.size()] <= n - last; ++k) {
    ptr.push_back(ptr.back() + sizes[k % sizes.size()]);
  }
  if (ptr.back() < n - last) ptr.push_back(n - last);
  if (last > 0) ptr.push_back(n);
  return ptr;
}

void FillVectors(TrisolveCase* c) {
  c->b.resize(c->n());
  c->x0.resize(c->n());
  for (int64_t i = 0; i < c->n(); ++i) {
    c->b[i] = std::cos(0.3 * i) + 0.5;
    c->x0[i] = std::sin(0.7 * i);
  }
}

// A banded random factor: `width` is the half bandwidth, `tries` the
// number of random columns drawn per row.
void FillBanded(int64_t n, int width, int tries, uint64_t seed,
                const std::vector<int64_t>& no_lower,
                const std::vector<int64_t>& no_upper, TrisolveCase* c) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> off(-0.3, 0.3), pivot(1.0, 2.0);
  for (int64_t i = 0; i < n; ++i) {
    const bool skip_lower =
        std::find(no_lower.begin(), no_lower.end(), i) != no_lower.end();
    const bool skip_upper =
        std::find(no_upper.begin(), no_upper.end(), i) != no_upper.end();
    std::vector<int32_t> cols{static_cast<int32_t>(i)};
    for (int k = 0; k < tries; ++k) {
      const int64_t j =
          i + static_cast<int64_t>(rng() % (2 * width + 1)) - width;
      if (j < 0 || j >= n || j == i) continue;
      if ((skip_lower && j < i) || (skip_upper && j > i)) continue;
      cols.push_back(static_cast<int32_t>(j));
    }
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (int32_t col : cols) {
      if (col == i) c->diag.push_back(static_cast<int64_t>(c->col_idx.size()));
      c->col_idx.push_back(col);
      c->values.push_back(col == i ? pivot(rng) : off(rng));
    }
    c->row_ptr.push_back(static_cast<int64_t>(c->col_idx.size()));
  }
}

bool SameBits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

}  // namespace

TrisolveCase MakePlantedCase() {
  TrisolveCase c;
  c.name = "planted";
  const int64_t n = 1000;
  FillBanded(n, 40, 12, 11, {kPlantedEmptyLowerRow2}, {kPlantedEmptyUpperRow},
             &c);
  c.values[c.diag[kPlantedTinyPivotRow]] = 1e-10;
  c.blocking = Consecutive(n, BlockPtr(n, {1, 12, 32}, {3, 7, 32, 2, 20}, 17));
  FillVectors(&c);
  return c;
}

TrisolveCase MakeZeroPivotCase() {
  TrisolveCase c;
  c.name = "zero pivot";
  const int64_t n = 40;
  FillBanded(n, 3, 4, 5, {}, {}, &c);
  c.values[c.diag[7]] = 0.0;
  c.blocking = Consecutive(n, BlockPtr(n, {}, {8}, 0));
  FillVectors(&c);
  return c;
}

TrisolveCase Make494BusIc0Case() {
  TrisolveCase c;
  auto lower = ReadMatrixMarket(testing::TestDataPath("494_bus.mtx"));
  if (!lower.ok()) return c;
  const CsrMatrix a = ExpandSymmetric(*lower);
  const ExecContext ctx{.backend = Backend::kReference};
  auto pattern = internal::SymbolicIlu(a, 0, ctx);
  if (!pattern.ok()) return c;
  auto values = internal::FactorIncompleteValues(*pattern, a, /*ic=*/true, ctx);
  if (!values.ok()) return c;
  c.name = "494_bus IC(0)";
  c.row_ptr = pattern->row_ptr;
  c.col_idx = pattern->col_idx;
  c.diag = pattern->diag;
  c.values = values->lu;
  c.blocking = Consecutive(c.n(), BlockPtr(c.n(), {}, {12, 5, 1, 32, 8}, 0));
  FillVectors(&c);
  return c;
}

std::vector<double> ReferenceInverses(const TrisolveCase& c, Triangle triangle,
                                      std::vector<uint8_t>* status) {
  const ExecContext ctx{.backend = Backend::kReference};
  const TriangularBlocks blocks = c.Blocks();
  std::vector<double> dense(c.blocking.value_ptr.back());
  std::vector<double> inverses(dense.size());
  status->assign(blocks.num_blocks(), 0);
  kernels::reference::ExtractTriangularBlocks(ctx, c.View(), triangle, blocks,
                                              dense);
  kernels::reference::InvertDiagonalBlocks(ctx, blocks, dense, inverses,
                                           *status);
  return inverses;
}

SweepRun ReferenceJacobi(const TrisolveCase& c, Triangle triangle, int sweeps) {
  const ExecContext ctx{.backend = Backend::kReference};
  SweepRun run;
  std::vector<double> x = c.x0;
  for (int k = 0; k < sweeps; ++k) {
    std::vector<double> next(c.n());
    kernels::reference::JacobiSweep(ctx, c.View(), triangle, c.b, x, next);
    run.iterates.push_back(next);
    x = std::move(next);
  }
  for (double v : x) {
    run.status.push_back(std::isfinite(v) ? kDeviceSweepOk
                                          : kDeviceSweepNotFinite);
  }
  return run;
}

SweepRun ReferenceBlockJacobi(const TrisolveCase& c, Triangle triangle,
                              const std::vector<double>& inverses, int sweeps) {
  const ExecContext ctx{.backend = Backend::kReference};
  SweepRun run;
  std::vector<double> x = c.x0;
  for (int k = 0; k < sweeps; ++k) {
    std::vector<double> next(c.n());
    kernels::reference::BlockJacobiSweep(ctx, c.View(), triangle, c.Blocks(),
                                         inverses, c.b, x, next);
    run.iterates.push_back(next);
    x = std::move(next);
  }
  const auto& ptr = c.blocking.block_ptr;
  for (size_t k = 0; k + 1 < ptr.size(); ++k) {
    bool finite = true;
    for (int64_t i = ptr[k]; i < ptr[k + 1]; ++i) {
      finite = finite && std::isfinite(x[i]);
    }
    run.status.push_back(finite ? kDeviceSweepOk : kDeviceSweepNotFinite);
  }
  return run;
}

std::string FirstDifference(const SweepRun& got, const SweepRun& want) {
  if (!got.error.empty()) return "launch: " + got.error;
  if (got.iterates.size() != want.iterates.size()) return "sweep count";
  for (size_t k = 0; k < want.iterates.size(); ++k) {
    const auto& g = got.iterates[k];
    const auto& w = want.iterates[k];
    if (g.size() != w.size()) return "vector size";
    for (size_t i = 0; i < w.size(); ++i) {
      if (!SameBits(g[i], w[i])) {
        return "sweep " + std::to_string(k + 1) + " x[" + std::to_string(i) +
               "]: " + std::to_string(g[i]) + " vs " + std::to_string(w[i]);
      }
    }
  }
  if (got.status != want.status) {
    for (size_t i = 0; i < want.status.size() && i < got.status.size(); ++i) {
      if (got.status[i] != want.status[i]) {
        return "status[" + std::to_string(i) +
               "]: " + std::to_string(got.status[i]) + " vs " +
               std::to_string(want.status[i]);
      }
    }
    return "status size";
  }
  return "";
}

}  // namespace factord::emulation_testing
