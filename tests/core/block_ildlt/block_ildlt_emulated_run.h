// The block_ildlt numeric kernels
// (core/block_ildlt/kernels/cuda/block_ildlt_launch.h) and solve kernels under
// the CPU emulation on host arrays, with the contracts of
// DeviceKernels::FactorBlockIldlt and ApplyBlockIldlt: what the emulated
// backend and the emulated tests run. Launches draw their block and fiber order
// from emulation::SetScheduleSeed.
#ifndef FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_EMULATED_RUN_H_
#define FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_EMULATED_RUN_H_

#include <functional>
#include <span>

#include "absl/status/status.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/block_ildlt/kernels/block_ildlt_device.h"
#include "tests/core/block_ildlt/block_ildlt_cases.h"

namespace factord::emulation_testing {

// The numeric kernels under the emulation on case c (block_ildlt_cases.h),
// schedule seeded with `seed`.
BlockIldltRun EmulatedBlockIldlt(const BlockIldltCase& c, uint64_t seed);

// INTERNAL with the emulator's reason when a launch fails; the first
// non-OK status of check_cancelled, called before every level's launches
// (the emulated launches run to completion when launched, so the check
// sees every level before it finished), unchanged.
absl::Status EmulatedFactorBlockIldlt(
    const BlockIldltStructure& s,
    const kernels::BlockIldltNumericParams& params,
    const kernels::BlockIldltNumericArrays& arrays,
    kernels::BlockIldltLevelCheck check_cancelled);

// Tests: `hook(level)` runs before each level's check_cancelled in
// EmulatedFactorBlockIldlt (e.g. to cancel the request after N levels);
// an empty function removes it. Not thread-safe.
void SetBlockIldltLevelHookForTesting(std::function<void(int level)> hook);

// The solve kernels (core/block_ildlt/kernels/cuda/block_ildlt_solve_launch.h)
// on the factor's host arrays, with the contract of
// DeviceKernels::ApplyBlockIldlt: y (n) the ordered, scaled right-hand side
// in, x out. A BlockIldltFactor converts to the view. Built into the
// executables that link the solve kernels only.
absl::Status EmulatedApplyBlockIldlt(const kernels::BlockIldltFactorView& f,
                                     std::span<double> y);

}  // namespace factord::emulation_testing

#endif  // FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_EMULATED_RUN_H_
