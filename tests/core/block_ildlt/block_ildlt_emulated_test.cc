// The level-by-level block_ildlt numeric kernels (S1 §IV-B, Alg. 1 and 2;
// core/block_ildlt/kernels/cuda/block_ildlt_launch.cu) under the CPU emulation
// against the serial reference, bit for bit (factor values, kept blocks,
// pivot order and sizes, D, per-column counts) for several schedule seeds:
// planted cases first (each test checks that the case plants what its name
// says), then real matrices of tests/data; and BlockIldltFactor::Create
// on the emulated backend registered as kCuda, end to end: equal to the
// reference, device errors, cancellation between levels, and the count of
// non-finite columns (the same on every path).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "core/base/cancellation.h"
#include "core/base/device_context.h"
#include "core/base/timer.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/emulation/cuda_emulation.h"
#include "gtest/gtest.h"
#include "tests/core/block_ildlt/block_ildlt_cases.h"
#include "tests/core/block_ildlt/block_ildlt_emulated_run.h"
#include "tests/core/device/emulated_device_kernels.h"
#include "tests/core/linalg/reference_device_kernels.h"

namespace factord::emulation_testing {
namespace {

constexpr uint64_t kScheduleSeeds[] = {1, 2, 3, 1234567};

TEST(BlockIldltEmulated, PlantedCasesEqualTheReferenceBitForBit) {
  const std::vector<BlockIldltCase> cases = PlantedBlockIldltCases();
  EXPECT_EQ(cases.size(), 11u);
  for (const BlockIldltCase& c : cases) {
    const BlockIldltRun want = ReferenceBlockIldlt(c);
    ASSERT_EQ(want.error, "") << c.name;
    for (uint64_t seed : kScheduleSeeds) {
      EXPECT_EQ(FirstDifference(EmulatedBlockIldlt(c, seed), want, *c.s), "")
          << c.name << ", schedule seed " << seed;
    }
  }
}

// The tests' reference is the numeric phase's: BlockIldltFactor::Create on
// kReference leaves the same arrays and stats.
TEST(BlockIldltEmulated, TestReferenceIsTheLibraryReference) {
  ExecContext ctx;
  ctx.backend = Backend::kReference;
  for (const BlockIldltCase& c : PlantedBlockIldltCases()) {
    const BlockIldltRun want = ReferenceBlockIldlt(c);
    auto f = BlockIldltFactor::Create(c.a, c.s, c.options, ctx);
    ASSERT_TRUE(f.ok()) << c.name << ": " << f.status();
    BlockIldltRun got = want;
    got.values.assign((*f)->block_values().begin(), (*f)->block_values().end());
    got.kept.assign((*f)->kept().begin(), (*f)->kept().end());
    got.pivot_order.assign((*f)->pivot_order().begin(),
                           (*f)->pivot_order().end());
    got.pivot_size.assign((*f)->pivot_size().begin(), (*f)->pivot_size().end());
    got.d_diag.assign((*f)->d_diag().begin(), (*f)->d_diag().end());
    got.d_off.assign((*f)->d_off().begin(), (*f)->d_off().end());
    got.column_status.clear();
    for (int64_t j = 0; j < c.s->num_blocks(); ++j) {
      bool finite = true;
      for (int64_t e = c.s->value_ptr[c.s->col_ptr[j]];
           e < c.s->value_ptr[c.s->col_ptr[j + 1]]; ++e) {
        finite = finite && std::isfinite(want.values[e]);
      }
      for (int64_t k = c.s->block_ptr[j]; k < c.s->block_ptr[j + 1]; ++k) {
        finite = finite && std::isfinite(want.d_diag[k]);
      }
      got.column_status.push_back(finite ? 0 : 1);
    }
    EXPECT_EQ(FirstDifference(got, want, *c.s), "") << c.name;
    const BlockIldltStats& x = (*f)->stats();
    EXPECT_EQ(x.perturbed_pivots, want.stats.perturbed_pivots) << c.name;
    EXPECT_EQ(x.two_by_two_pivots, want.stats.two_by_two_pivots) << c.name;
    EXPECT_EQ(x.nnz_factor, want.stats.nnz_factor) << c.name;
    EXPECT_EQ(x.dropped_entries, want.stats.dropped_entries) << c.name;
    EXPECT_EQ(x.dropped_blocks, want.stats.dropped_blocks) << c.name;
  }
}

// Entries of column j of L (off-diagonal blocks) left nonzero.
int64_t KeptInColumn(const BlockIldltRun& run, const BlockIldltStructure& s,
                     int64_t j) {
  int64_t kept = 0;
  for (int64_t e = s.value_ptr[s.col_ptr[j] + 1];
       e < s.value_ptr[s.col_ptr[j + 1]]; ++e) {
    kept += run.values[e] != 0;
  }
  return kept;
}

TEST(BlockIldltEmulated, PlantedCasesPlantWhatTheirNamesSay) {
  {
    const BlockIldltCase c = PlantedBlockIldltCase("zero and tiny pivots");
    EXPECT_EQ(ReferenceBlockIldlt(c).stats.perturbed_pivots, 2);
  }
  {
    const BlockIldltCase c = PlantedBlockIldltCase("2x2 pivots");
    EXPECT_GE(ReferenceBlockIldlt(c).stats.two_by_two_pivots, 6);
  }
  {
    const BlockIldltCase c =
        PlantedBlockIldltCase("blocks of 1, one column per level");
    EXPECT_EQ(c.s->num_levels, c.s->num_blocks());
  }
  {
    const BlockIldltCase c = PlantedBlockIldltCase("tau drops every column");
    const BlockIldltRun run = ReferenceBlockIldlt(c);
    EXPECT_EQ(run.stats.dropped_blocks, c.s->num_slots() - c.s->num_blocks());
    EXPECT_GT(run.stats.dropped_entries, 0);
  }
  {
    // Granted in full (3 of 3), in part (2), refused (1, 1): S1 Alg. 2.
    const BlockIldltCase c =
        PlantedBlockIldltCase("leftover grants and refuses");
    const BlockIldltRun run = EmulatedBlockIldlt(c, 5);
    EXPECT_EQ(KeptInColumn(run, *c.s, 4), 3);
    EXPECT_EQ(KeptInColumn(run, *c.s, 5), 2);
    EXPECT_EQ(KeptInColumn(run, *c.s, 6), 1);
    EXPECT_EQ(KeptInColumn(run, *c.s, 7), 1);
  }
  {
    // Eight survivors of equal magnitude, four kept: the first four by
    // position (rows 1..4, blocks 1 and 2), block 3 dropped.
    const BlockIldltCase c = PlantedBlockIldltCase("ties cut by Finish");
    for (uint64_t seed : kScheduleSeeds) {
      const BlockIldltRun run = EmulatedBlockIldlt(c, seed);
      ASSERT_EQ(run.error, "");
      EXPECT_EQ(run.counts[0].survivors, 8);
      const int64_t first = c.s->value_ptr[c.s->col_ptr[0] + 1];
      for (int64_t r = 0; r < 8; ++r) {
        EXPECT_EQ(std::abs(run.values[first + r]), r < 4 ? 0.125 : 0.0)
            << "row " << r + 1 << ", seed " << seed;
      }
      EXPECT_EQ(run.kept[c.s->col_ptr[0] + 3], 0);
    }
  }
  {
    const BlockIldltCase c = PlantedBlockIldltCase("one level of 9 columns");
    EXPECT_EQ(c.s->num_levels, 1);
  }
  {
    const BlockIldltCase c = PlantedBlockIldltCase("blocks of 32, rook");
    EXPECT_EQ(c.s->block_size(0), 32);
  }
  {
    // Column 1 overflows: its status says so, the others' do not.
    const BlockIldltCase c = PlantedBlockIldltCase("overflow to Inf");
    const BlockIldltRun run = EmulatedBlockIldlt(c, 3);
    EXPECT_TRUE(std::isinf(run.d_diag[1])) << run.d_diag[1];
    ASSERT_EQ(run.column_status.size(), 3u);
    EXPECT_EQ(run.column_status[0], 0);
    EXPECT_EQ(run.column_status[1], 1);
  }
}

TEST(BlockIldltEmulated, RealMatricesEqualTheReferenceBitForBit) {
  const std::vector<BlockIldltCase> cases = RealBlockIldltCases();
  EXPECT_EQ(cases.size(), 4u);
  for (const BlockIldltCase& c : cases) {
    Timer reference_timer;
    const BlockIldltRun want = ReferenceBlockIldlt(c);
    const double reference_s = reference_timer.Seconds();
    ASSERT_EQ(want.error, "") << c.name;
    double emulated_s = 0;
    for (uint64_t seed : {uint64_t{1}, uint64_t{77}}) {
      Timer timer;
      const BlockIldltRun got = EmulatedBlockIldlt(c, seed);
      emulated_s = timer.Seconds();
      EXPECT_EQ(FirstDifference(got, want, *c.s), "")
          << c.name << ", schedule seed " << seed;
    }
    EXPECT_GT(want.stats.dropped_entries, 0) << c.name;  // dropping active
    std::printf(
        "[ measured ] %-18s n %5lld blocks %4lld levels %4d slots %5lld: "
        "nnzL %7lld dropped %6lld perturbed %3lld 2x2 %3lld; reference "
        "%.2f ms, emulated %.0f ms\n",
        c.name.c_str(), static_cast<long long>(c.s->n),
        static_cast<long long>(c.s->num_blocks()), c.s->num_levels,
        static_cast<long long>(c.s->num_slots()),
        static_cast<long long>(want.stats.nnz_factor),
        static_cast<long long>(want.stats.dropped_entries),
        static_cast<long long>(want.stats.perturbed_pivots),
        static_cast<long long>(want.stats.two_by_two_pivots), 1e3 * reference_s,
        1e3 * emulated_s);
  }
}

void ExpectSameFactor(const BlockIldltFactor& x, const BlockIldltFactor& y,
                      const std::string& what) {
  auto same = [](auto a, auto b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::memcmp(&a[i], &b[i], sizeof(a[i])) != 0) return false;
    }
    return true;
  };
  EXPECT_TRUE(same(x.block_values(), y.block_values())) << what;
  EXPECT_TRUE(same(x.kept(), y.kept())) << what;
  EXPECT_TRUE(same(x.pivot_order(), y.pivot_order())) << what;
  EXPECT_TRUE(same(x.pivot_size(), y.pivot_size())) << what;
  EXPECT_TRUE(same(x.d_diag(), y.d_diag())) << what;
  EXPECT_TRUE(same(x.d_off(), y.d_off())) << what;
  EXPECT_TRUE(same(x.scaling(), y.scaling())) << what;
  EXPECT_EQ(x.stats().perturbed_pivots, y.stats().perturbed_pivots) << what;
  EXPECT_EQ(x.stats().two_by_two_pivots, y.stats().two_by_two_pivots) << what;
  EXPECT_EQ(x.stats().nnz_factor, y.stats().nnz_factor) << what;
  EXPECT_EQ(x.stats().dropped_entries, y.stats().dropped_entries) << what;
  EXPECT_EQ(x.stats().dropped_blocks, y.stats().dropped_blocks) << what;
  EXPECT_EQ(x.stats().not_finite_columns, y.stats().not_finite_columns) << what;
  EXPECT_EQ(x.stats().first_not_finite_column,
            y.stats().first_not_finite_column)
      << what;
}

// BlockIldltFactor::Create on Backend::kCuda with the emulated backend:
// the device entry point runs (once per factorization, its bytes drawn from
// the budget and given back) and the factor is the reference's.
TEST(BlockIldltEmulated, CreateOnEmulatedCudaBackendEqualsReference) {
  emulation::SetScheduleSeed(9);
  auto kernels = MakeEmulatedCudaKernels();
  testing::ScopedCudaBackend backend(kernels);
  DeviceMemoryBudget budget(0);
  auto device = CreateDeviceContext(Backend::kCuda, &budget);
  ASSERT_TRUE(device.ok()) << device.status();
  ExecContext cuda;
  cuda.backend = Backend::kCuda;
  cuda.device = device->get();
  ExecContext reference;
  reference.backend = Backend::kReference;
  std::vector<BlockIldltCase> cases;
  cases.push_back(PlantedBlockIldltCase("chain with dropping"));
  cases.push_back(PlantedBlockIldltCase("2x2 pivots"));
  for (BlockIldltCase& c : RealBlockIldltCases()) {
    if (c.name == "dual1 KKT") cases.push_back(std::move(c));
  }
  int calls = 0;
  for (const BlockIldltCase& c : cases) {
    auto want = BlockIldltFactor::Create(c.a, c.s, c.options, reference);
    ASSERT_TRUE(want.ok()) << c.name << ": " << want.status();
    auto got = BlockIldltFactor::Create(c.a, c.s, c.options, cuda);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status();
    ++calls;
    EXPECT_EQ(kernels->calls("FactorBlockIldlt"), calls) << c.name;
    ExpectSameFactor(**got, **want, c.name);
    EXPECT_GE(budget.peak(), kernels::BlockIldltDeviceBytes(*c.s)) << c.name;
    EXPECT_EQ(budget.in_use(), 0) << c.name;
  }
}

// A budget too small for the factorization: RESOURCE_EXHAUSTED, nothing
// run; a failing device call: its error, not a silent host run.
TEST(BlockIldltEmulated, CreateOnEmulatedCudaBackendReportsDeviceErrors) {
  const BlockIldltCase c = PlantedBlockIldltCase("chain with dropping");
  auto kernels = MakeEmulatedCudaKernels();
  testing::ScopedCudaBackend backend(kernels);
  {
    DeviceMemoryBudget small(1000);
    auto device = CreateDeviceContext(Backend::kCuda, &small);
    ASSERT_TRUE(device.ok());
    ExecContext ctx;
    ctx.backend = Backend::kCuda;
    ctx.device = device->get();
    auto f = BlockIldltFactor::Create(c.a, c.s, c.options, ctx);
    EXPECT_EQ(f.status().code(), absl::StatusCode::kResourceExhausted)
        << f.status();
    EXPECT_EQ(kernels->calls("FactorBlockIldlt"), 0);
  }
  {
    kernels->FailFromCall(0, absl::InternalError("injected device failure"));
    auto device = CreateDeviceContext(Backend::kCuda, nullptr);
    ASSERT_TRUE(device.ok());
    ExecContext ctx;
    ctx.backend = Backend::kCuda;
    ctx.device = device->get();
    auto f = BlockIldltFactor::Create(c.a, c.s, c.options, ctx);
    EXPECT_EQ(f.status().code(), absl::StatusCode::kInternal) << f.status();
    EXPECT_NE(f.status().message().find("injected"), std::string::npos);
  }
}

// Cancellation on the device path: ctx is checked before every level. The
// request is cancelled (or its deadline passes) while the levels run: Create
// returns CANCELLED (DEADLINE_EXCEEDED) from the next level on, launches
// nothing more, returns no factor and records no device error; without a
// stop every level runs and the factor is the reference's.
TEST(BlockIldltEmulated, CreateOnEmulatedCudaBackendStopsBetweenLevels) {
  const BlockIldltCase c =
      PlantedBlockIldltCase("blocks of 1, one column per level");
  ASSERT_GE(c.s->num_levels, 5);
  auto kernels = MakeEmulatedCudaKernels();
  testing::ScopedCudaBackend backend(kernels);
  DeviceMemoryBudget budget(0);
  ExecContext reference;
  reference.backend = Backend::kReference;
  auto want = BlockIldltFactor::Create(c.a, c.s, c.options, reference);
  ASSERT_TRUE(want.ok()) << want.status();

  constexpr int kStopLevel = 3;
  for (const bool deadline : {false, true}) {
    auto device = CreateDeviceContext(Backend::kCuda, &budget);
    ASSERT_TRUE(device.ok()) << device.status();
    Cancellation cancellation;
    ExecContext cuda;
    cuda.backend = Backend::kCuda;
    cuda.device = device->get();
    cuda.cancellation = &cancellation;
    int levels_reached = 0;
    SetBlockIldltLevelHookForTesting([&](int level) {
      EXPECT_EQ(level, levels_reached);
      ++levels_reached;
      if (level != kStopLevel) return;
      if (deadline) {
        cancellation.set_deadline(Cancellation::Clock::now() -
                                  std::chrono::seconds(1));
      } else {
        cancellation.Cancel();
      }
    });
    auto f = BlockIldltFactor::Create(c.a, c.s, c.options, cuda);
    SetBlockIldltLevelHookForTesting(nullptr);
    EXPECT_EQ(f.status().code(), deadline ? absl::StatusCode::kDeadlineExceeded
                                          : absl::StatusCode::kCancelled)
        << f.status();
    EXPECT_EQ(levels_reached, kStopLevel + 1);  // no level launched after
    EXPECT_TRUE((*device)->status().ok()) << (*device)->status();
    EXPECT_EQ(budget.in_use(), 0);
  }

  auto device = CreateDeviceContext(Backend::kCuda, &budget);
  ASSERT_TRUE(device.ok()) << device.status();
  Cancellation cancellation;
  ExecContext cuda;
  cuda.backend = Backend::kCuda;
  cuda.device = device->get();
  cuda.cancellation = &cancellation;
  int levels_reached = 0;
  SetBlockIldltLevelHookForTesting([&](int) { ++levels_reached; });
  auto f = BlockIldltFactor::Create(c.a, c.s, c.options, cuda);
  SetBlockIldltLevelHookForTesting(nullptr);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(levels_reached, c.s->num_levels);
  EXPECT_EQ(kernels->calls("FactorBlockIldlt"), 3);
  ExpectSameFactor(**f, **want, "uncancelled");
}

// Non-finite columns (an update overflows to Inf): every path keeps the
// values, as the reference does, and counts the same columns in its stats,
// the device path from the kernels' column status.
TEST(BlockIldltEmulated, NotFiniteColumnsCountedOnEveryPath) {
  const BlockIldltCase c = PlantedBlockIldltCase("overflow to Inf");
  auto kernels = MakeEmulatedCudaKernels();
  testing::ScopedCudaBackend backend(kernels);
  auto device = CreateDeviceContext(Backend::kCuda, nullptr);
  ASSERT_TRUE(device.ok()) << device.status();
  ExecContext reference;
  reference.backend = Backend::kReference;
  ExecContext cpu;
  cpu.backend = Backend::kCpu;
  cpu.threads = 2;
  ExecContext cuda;
  cuda.backend = Backend::kCuda;
  cuda.device = device->get();

  auto want = BlockIldltFactor::Create(c.a, c.s, c.options, reference);
  ASSERT_TRUE(want.ok()) << want.status();
  // Column 0 is finite, column 1 holds D_1 = -Inf; every not-finite column
  // is counted, the first named.
  const BlockIldltRun run = ReferenceBlockIldlt(c);
  int64_t expected = 0;
  for (int64_t j = 0; j < c.s->num_blocks(); ++j) {
    bool finite = true;
    for (int64_t e = c.s->value_ptr[c.s->col_ptr[j]];
         e < c.s->value_ptr[c.s->col_ptr[j + 1]]; ++e) {
      finite = finite && std::isfinite(run.values[e]);
    }
    for (int64_t k = c.s->block_ptr[j]; k < c.s->block_ptr[j + 1]; ++k) {
      finite =
          finite && std::isfinite(run.d_diag[k]) && std::isfinite(run.d_off[k]);
    }
    expected += finite ? 0 : 1;
  }
  EXPECT_TRUE(std::isinf((*want)->d_diag()[1]));
  EXPECT_GE(expected, 1);
  EXPECT_EQ((*want)->stats().not_finite_columns, expected);
  EXPECT_EQ((*want)->stats().first_not_finite_column, 1);

  auto threaded = BlockIldltFactor::Create(c.a, c.s, c.options, cpu);
  ASSERT_TRUE(threaded.ok()) << threaded.status();
  ExpectSameFactor(**threaded, **want, "kCpu, 2 threads");
  auto got = BlockIldltFactor::Create(c.a, c.s, c.options, cuda);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(kernels->calls("FactorBlockIldlt"), 1);
  ExpectSameFactor(**got, **want, "emulated kCuda");

  // A finite factor counts none.
  const BlockIldltCase finite = PlantedBlockIldltCase("2x2 pivots");
  auto clean =
      BlockIldltFactor::Create(finite.a, finite.s, finite.options, cuda);
  ASSERT_TRUE(clean.ok()) << clean.status();
  EXPECT_EQ((*clean)->stats().not_finite_columns, 0);
  EXPECT_EQ((*clean)->stats().first_not_finite_column, -1);
}

}  // namespace
}  // namespace factord::emulation_testing
