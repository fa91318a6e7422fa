// The block_ildlt cases and comparisons; see the header.
#include "tests/core/block_ildlt/block_ildlt_cases.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <random>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/block_ildlt/block_ildlt_column.h"
#include "core/block_ildlt/block_ildlt_leftover.h"
#include "core/dense/pivot_params.h"
#include "core/matrix/matrix_market.h"
#include "test_data.h"
#include "tests/core/block_ildlt/block_ildlt_planted.h"

namespace factord::emulation_testing {
namespace {

using testing::Banded;
using testing::Entry;
using testing::LowerFromEntries;
using testing::Planted;

std::vector<int32_t> Regular(int n, int size) {
  std::vector<int32_t> block_ptr;
  for (int k = 0; k < n; k += size) block_ptr.push_back(k);
  block_ptr.push_back(n);
  return block_ptr;
}

BlockIldltCase Make(std::string name, int n, std::vector<Entry> entries,
                    FactorOptions options, std::vector<int32_t> block_ptr) {
  BlockIldltCase c;
  c.name = std::move(name);
  c.a = LowerFromEntries(n, std::move(entries));
  c.options = options;
  std::vector<int32_t> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  auto s = BuildBlockIldltStructureFromBlocks(c.a, options, std::move(perm),
                                              std::move(block_ptr));
  if (!s.ok()) std::abort();
  c.s = std::make_shared<const BlockIldltStructure>(*std::move(s));
  return c;
}

// A random sparse symmetric matrix, diagonally weighted by `diag` (small:
// indefinite, 2x2 pivots likely), with `per_row` entries below the diagonal.
std::vector<Entry> RandomEntries(int n, int per_row, double diag,
                                 uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<Entry> e;
  for (int i = 0; i < n; ++i) {
    e.push_back({i, i, diag * value(rng)});
    for (int k = 0; k < per_row && i > 0; ++k) {
      const int j = static_cast<int>(rng() % static_cast<uint64_t>(i));
      if (std::none_of(e.begin(), e.end(), [&](const Entry& x) {
            return std::get<0>(x) == i && std::get<1>(x) == j;
          })) {
        e.push_back({i, j, value(rng)});
      }
    }
  }
  return e;
}

}  // namespace

bool PrepareBlockIldltRun(const BlockIldltCase& c, BlockIldltRun* run,
                          kernels::BlockIldltNumericParams* params) {
  std::vector<double> scaling;
  const absl::Status st =
      ScatterScaledBlocks(c.a, *c.s, c.options, &scaling, &run->values);
  if (!st.ok()) {
    run->error = st.ToString();
    return false;
  }
  double max_abs = 0;
  for (double v : run->values) max_abs = std::max(max_abs, std::abs(v));
  run->stats.max_abs = max_abs;
  params->pivots = internal::DensePivotParams(
      c.options.pivoting, c.options.pivot_threshold, max_abs);
  params->pivots.force = true;
  params->tau = std::max(c.options.drop_tolerance, 0.0);
  params->fill_factor = c.options.fill_factor;
  const int64_t n = c.s->n, nb = c.s->num_blocks();
  run->kept.assign(c.s->num_slots(), 1);
  run->pivot_order.assign(n, -1);
  run->pivot_size.assign(n, -1);
  run->d_diag.assign(n, -1.0);
  run->d_off.assign(n, -1.0);
  run->counts.assign(nb, kernels::BlockColumnCounts{});
  run->column_status.assign(nb, 0xee);
  return true;
}

void SumBlockIldltCounts(const BlockIldltStructure& s, BlockIldltRun* run) {
  for (int64_t b = 0; b < s.num_blocks(); ++b) {
    const kernels::BlockColumnCounts& c = run->counts[s.level_blocks[b]];
    run->stats.perturbed_pivots += c.perturbed;
    run->stats.two_by_two_pivots += c.two_by_two;
    run->stats.nnz_factor += c.nnz_factor;
    run->stats.dropped_entries += c.dropped_entries;
    run->stats.dropped_blocks += c.dropped_blocks;
  }
}

namespace {

bool SameBits(double x, double y) {
  return std::bit_cast<uint64_t>(x) == std::bit_cast<uint64_t>(y);
}

template <typename T>
int64_t FirstIndex(const std::vector<T>& x, const std::vector<T>& y) {
  if (x.size() != y.size()) return -2;
  for (size_t i = 0; i < x.size(); ++i) {
    if constexpr (std::is_same_v<T, double>) {
      if (!SameBits(x[i], y[i])) return static_cast<int64_t>(i);
    } else {
      if (x[i] != y[i]) return static_cast<int64_t>(i);
    }
  }
  return -1;
}

}  // namespace

std::vector<BlockIldltCase> PlantedBlockIldltCases() {
  std::vector<BlockIldltCase> cases;
  {  // Row 5 zero (a zero pivot in block 1), row 9 a diagonal of 1e-20.
    std::vector<Entry> e = Banded(16);
    for (auto& [i, j, v] : e) {
      if (i == 5 && j == 5) v = 0.0;
      if (i == 9 && j == 9) v = 1e-20;
    }
    std::erase_if(e, [](const Entry& x) {
      const auto [i, j, v] = x;
      return i != j && (i == 5 || j == 5 || i == 9 || j == 9);
    });
    cases.push_back(
        Make("zero and tiny pivots", 16, e, Planted(), {0, 3, 6, 8, 12, 16}));
  }
  {  // [[0 b]; [b 0]] diagonal blocks: Bunch-Kaufman takes 2x2 pivots.
    std::vector<Entry> e;
    for (int b = 0; b < 12; b += 2) {
      e.push_back({b, b, 0.0});
      e.push_back({b + 1, b, 1.0 + 0.1 * b});
      e.push_back({b + 1, b + 1, 0.0});
      if (b >= 2) e.push_back({b, b - 2, 0.3});
      if (b >= 2) e.push_back({b + 1, b - 1, -0.2});
    }
    cases.push_back(Make("2x2 pivots", 12, e, Planted(), Regular(12, 2)));
  }
  // Blocks of size 1, a chain: one column per level.
  cases.push_back(Make("blocks of 1, one column per level", 10, Banded(10),
                       Planted(), Regular(10, 1)));
  {  // tau = 1 drops every off-diagonal entry (|l| <= ||l_c||_2 always).
    FactorOptions options = Planted();
    options.drop_tolerance = 1.0;
    cases.push_back(Make("tau drops every column", 24, Banded(24), options,
                         Regular(24, 4)));
  }
  {  // Level 1's columns 4..7 share column 0's leftover in block order:
     // keeps 3, 2, 1, 1 (granted, granted in part, refused, refused).
    std::vector<Entry> e;
    for (int i = 0; i < 12; ++i) e.push_back({i, i, 4.0 + 0.1 * i});
    for (int i = 4; i < 8; ++i) e.push_back({i, 0, 0.0});
    for (int j = 4; j < 8; ++j) {
      for (int i = 8; i < 11; ++i) {
        e.push_back({i, j, 0.2 + 0.05 * i - 0.03 * j});
      }
    }
    FactorOptions options = Planted();
    options.fill_level = 0;
    options.fill_factor = 0.5;
    cases.push_back(
        Make("leftover grants and refuses", 12, e, options, Regular(12, 1)));
  }
  {  // Column 0 holds eight L entries of magnitude 0.125 (signs alternate)
     // in three row blocks; the fill factor keeps four: Finish cuts a tie.
    std::vector<Entry> e;
    for (int i = 0; i < 9; ++i)
      e.push_back({i, i, i == 0 ? 4.0 : 3.0 + 0.1 * i});
    for (int i = 1; i < 9; ++i) e.push_back({i, 0, i % 2 ? 0.5 : -0.5});
    for (int i = 2; i < 9; ++i) e.push_back({i, i - 1, 0.1 * i});
    FactorOptions options = Planted();
    options.fill_factor = 0.5;
    cases.push_back(Make("ties cut by Finish", 9, e, options, {0, 1, 3, 5, 9}));
  }
  {  // 9 uncoupled blocks of 3: one level of 9 columns.
    std::vector<Entry> e;
    for (int b = 0; b < 9; ++b) {
      const int o = 3 * b;
      e.push_back({o, o, b % 2 ? -2.0 : 3.0});
      e.push_back({o + 1, o, 1.0});
      e.push_back({o + 1, o + 1, 0.5 * b - 1.0});
      e.push_back({o + 2, o + 1, 2.0});
      e.push_back({o + 2, o + 2, 1.0 + b});
    }
    cases.push_back(
        Make("one level of 9 columns", 27, e, Planted(), Regular(27, 3)));
  }
  {  // Both dropping rules on a chain of blocks of 4.
    FactorOptions options = Planted();
    options.drop_tolerance = 0.05;
    options.fill_factor = 0.5;
    cases.push_back(
        Make("chain with dropping", 40, Banded(40), options, Regular(40, 4)));
  }
  {  // Blocks of 32 (a full warp, 1024-entry slots) and of 1 and 6.
    FactorOptions options = Planted();
    options.pivoting = Pivoting::kRook;
    cases.push_back(Make("blocks of 32, rook", 71, RandomEntries(71, 4, 0.5, 7),
                         options, {0, 32, 33, 65, 71}));
  }
  {  // Uneven blocks, level of fill 1, both rules, indefinite.
    FactorOptions options = Planted();
    options.fill_level = 1;
    options.drop_tolerance = 0.02;
    options.fill_factor = 1.0;
    cases.push_back(Make("uneven blocks, fill level 1, dropping", 60,
                         RandomEntries(60, 3, 0.3, 11), options,
                         {0, 5, 6, 13, 20, 21, 27, 34, 40, 47, 53, 60}));
  }
  {  // |L(1,0)| = 1e12 and D_0 = 1e288: the update of A(1,1) overflows, so
     // D_1 is -Inf and column 1 is not finite (status flagged).
    std::vector<Entry> e = {
        {0, 0, 1e288}, {1, 0, 1e300}, {1, 1, 1.0}, {2, 1, 1.0}, {2, 2, 2.0}};
    cases.push_back(Make("overflow to Inf", 3, e, Planted(), Regular(3, 1)));
  }
  return cases;
}

BlockIldltCase PlantedBlockIldltCase(const std::string& name) {
  for (BlockIldltCase& c : PlantedBlockIldltCases()) {
    if (c.name == name) return std::move(c);
  }
  std::abort();
}

std::vector<BlockIldltCase> RealBlockIldltCases() {
  std::vector<BlockIldltCase> cases;
  const std::vector<std::pair<std::string, std::string>> files = {
      {"494_bus (SPD)", testing::TestDataPath("494_bus.mtx")},
      {"dual1 KKT", testing::TestDataPath("kkt/dual1/2x2/iter_5/K_5.mtx")},
      {"cvxqp1_s KKT 3x3",
       testing::TestDataPath("kkt/cvxqp1_s/3x3/iter_10/K_10.mtx")},
      {"qpcboei1 KKT",
       testing::TestDataPath("kkt/qpcboei1/2x2/iter_10/K_10.mtx")}};
  for (const auto& [name, path] : files) {
    auto a = ReadMatrixMarket(path);
    if (!a.ok()) std::abort();
    BlockIldltCase c;
    c.name = name;
    c.a = *std::move(a);
    c.options.method = Method::kBlockIldlt;
    auto s = BuildBlockIldltStructure(c.a, c.options);
    if (!s.ok()) std::abort();
    c.s = std::make_shared<const BlockIldltStructure>(*std::move(s));
    cases.push_back(std::move(c));
  }
  return cases;
}

BlockIldltRun ReferenceBlockIldlt(const BlockIldltCase& c) {
  BlockIldltRun run;
  kernels::BlockIldltNumericParams params;
  if (!PrepareBlockIldltRun(c, &run, &params)) return run;
  const BlockIldltStructure& s = *c.s;
  const internal::BlockColumnFactorizer columns(
      s, params.pivots, params.tau,
      {run.values.data(), run.kept.data(), run.pivot_order.data(),
       run.pivot_size.data(), run.d_diag.data(), run.d_off.data()});
  internal::BlockColumnScratch scratch(s);
  internal::LevelLeftover leftover(params.fill_factor);  // S1 Alg. 2
  for (int level = 0; level < s.num_levels; ++level) {
    for (int64_t b = s.level_ptr[level]; b < s.level_ptr[level + 1]; ++b) {
      const int32_t j = s.level_blocks[b];
      columns.Prepare(j, &scratch, &run.counts[j]);
      const int64_t keep =
          leftover.Keep(s.a_offdiag_count[j], run.counts[j].survivors);
      columns.Finish(j, keep, &scratch, &run.counts[j]);
    }
    leftover.EndLevel();
  }
  run.column_status.clear();
  SumBlockIldltCounts(s, &run);
  return run;
}

std::string FirstDifference(const BlockIldltRun& got, const BlockIldltRun& want,
                            const BlockIldltStructure& s) {
  if (!got.error.empty()) return "error: " + got.error;
  if (!want.error.empty()) return "reference error: " + want.error;
  if (int64_t i = FirstIndex(got.values, want.values); i != -1) {
    return absl::StrCat(
        "values[", i, "]: ",
        i >= 0 ? absl::StrCat(got.values[i], " vs ", want.values[i]) : "size");
  }
  if (int64_t i = FirstIndex(got.kept, want.kept); i != -1) {
    return absl::StrCat("kept[", i, "]");
  }
  if (int64_t i = FirstIndex(got.pivot_order, want.pivot_order); i != -1) {
    return absl::StrCat("pivot_order[", i, "]");
  }
  if (int64_t i = FirstIndex(got.pivot_size, want.pivot_size); i != -1) {
    return absl::StrCat("pivot_size[", i, "]");
  }
  if (int64_t i = FirstIndex(got.d_diag, want.d_diag); i != -1) {
    return absl::StrCat("d_diag[", i, "]");
  }
  if (int64_t i = FirstIndex(got.d_off, want.d_off); i != -1) {
    return absl::StrCat("d_off[", i, "]");
  }
  for (int64_t j = 0; j < s.num_blocks(); ++j) {
    const kernels::BlockColumnCounts &x = got.counts[j], &y = want.counts[j];
    if (x.perturbed != y.perturbed || x.two_by_two != y.two_by_two ||
        x.nnz_factor != y.nnz_factor ||
        x.dropped_entries != y.dropped_entries ||
        x.dropped_blocks != y.dropped_blocks || x.survivors != y.survivors) {
      return absl::StrCat("counts of column ", j);
    }
    // The status flags exactly the columns whose D or L is not finite.
    bool finite = true;
    for (int64_t k = s.block_ptr[j]; k < s.block_ptr[j + 1]; ++k) {
      finite = finite && std::isfinite(want.d_diag[k]) &&
               std::isfinite(want.d_off[k]);
    }
    for (int64_t e = s.value_ptr[s.col_ptr[j]];
         e < s.value_ptr[s.col_ptr[j + 1]]; ++e) {
      finite = finite && std::isfinite(want.values[e]);
    }
    if (got.column_status.size() != static_cast<size_t>(s.num_blocks()) ||
        got.column_status[j] != (finite ? 0 : 1)) {
      return absl::StrCat("status of column ", j);
    }
  }
  return "";
}

}  // namespace factord::emulation_testing
