// EmulatedFactorBlockIldlt: the launches on host arrays, as
// core/block_ildlt/kernels/cuda/block_ildlt_kernels.cc runs them on device
// copies.
#include "tests/core/block_ildlt/block_ildlt_emulated_run.h"

#include <functional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/emulation/cuda_emulation.h"
// The emulation header comes before the launch header.
#include "core/block_ildlt/kernels/cuda/block_ildlt_launch.h"

namespace factord::emulation_testing {
namespace {

std::function<void(int)>& LevelHook() {
  static std::function<void(int)> hook;
  return hook;
}

}  // namespace

void SetBlockIldltLevelHookForTesting(std::function<void(int level)> hook) {
  LevelHook() = std::move(hook);
}

absl::Status EmulatedFactorBlockIldlt(
    const BlockIldltStructure& s,
    const kernels::BlockIldltNumericParams& params,
    const kernels::BlockIldltNumericArrays& arrays,
    kernels::BlockIldltLevelCheck check_cancelled) {
  namespace cuda = kernels::cuda;
  if (s.num_blocks() == 0) return absl::OkStatus();
  const kernels::BlockIldltLevelSlots slots =
      kernels::MakeBlockIldltLevelSlots(s);
  std::vector<int64_t> keep(s.num_blocks(), -1);
  kernels::LeftoverPool pool;
  pool.fill_factor = params.fill_factor;
  cuda::DeviceBlockIldltStructure view;
  view.num_blocks = s.num_blocks();
  view.block_ptr = s.block_ptr.data();
  view.col_ptr = s.col_ptr.data();
  view.row_block = s.row_block.data();
  view.slot_col = slots.slot_col.data();
  view.value_ptr = s.value_ptr.data();
  view.row_ptr = s.row_ptr.data();
  view.row_slot = s.row_slot.data();
  view.row_slot_col = s.row_slot_col.data();
  view.a_offdiag_count = s.a_offdiag_count.data();
  view.level_blocks = s.level_blocks.data();
  view.level_slots = slots.level_slots.data();
  const cuda::HostBlockIldltLevels levels{s.num_levels, s.level_ptr.data(),
                                          slots.level_slot_ptr.data()};
  cuda::DeviceBlockIldltFactor factor;
  factor.values = arrays.values.data();
  factor.kept = arrays.kept.data();
  factor.pivot_order = arrays.pivot_order.data();
  factor.pivot_size = arrays.pivot_size.data();
  factor.d_diag = arrays.d_diag.data();
  factor.d_off = arrays.d_off.data();
  factor.counts = arrays.counts.data();
  factor.keep = keep.data();
  factor.pool = &pool;
  factor.status = arrays.column_status.data();
  for (int level = 0; level < s.num_levels; ++level) {
    if (LevelHook()) LevelHook()(level);
    if (absl::Status stop = check_cancelled(); !stop.ok()) return stop;
    const cudaError_t error = cuda::LaunchBlockIldltLevel(
        view, levels, level, params.pivots, params.tau, factor, nullptr);
    if (error != cudaSuccess) {
      return absl::InternalError(absl::StrCat("block_ildlt launch failed: ",
                                              emulation::LastLaunchError()));
    }
  }
  return absl::OkStatus();
}

BlockIldltRun EmulatedBlockIldlt(const BlockIldltCase& c, uint64_t seed) {
  BlockIldltRun run;
  kernels::BlockIldltNumericParams params;
  if (!PrepareBlockIldltRun(c, &run, &params)) return run;
  emulation::SetScheduleSeed(seed);
  const absl::Status st = EmulatedFactorBlockIldlt(
      *c.s, params,
      {run.values, run.kept, run.pivot_order, run.pivot_size, run.d_diag,
       run.d_off, run.counts, run.column_status},
      [] { return absl::OkStatus(); });
  if (!st.ok()) run.error = st.ToString();
  SumBlockIldltCounts(*c.s, &run);
  return run;
}

}  // namespace factord::emulation_testing
