// The block_ildlt numeric kernels (kernels/cuda/factor/block_ildlt_launch.h)
// under the CPU emulation on host arrays, with the same contract as
// DeviceKernels::FactorBlockIldlt (kernels/device/block_ildlt_device.h):
// what the emulated backend and the emulated tests run. Launches draw their
// block and fiber order from emulation::SetScheduleSeed.
#ifndef FACTORD_TESTS_EMULATION_BLOCK_ILDLT_EMULATED_RUN_H_
#define FACTORD_TESTS_EMULATION_BLOCK_ILDLT_EMULATED_RUN_H_

#include "absl/status/status.h"
#include "factord/factor/block_ildlt.h"
#include "kernels/device/block_ildlt_device.h"

namespace factord::emulation_testing {

// INTERNAL with the emulator's reason when a launch fails.
absl::Status EmulatedFactorBlockIldlt(
    const BlockIldltStructure& s,
    const kernels::BlockIldltNumericParams& params,
    const kernels::BlockIldltNumericArrays& arrays);

}  // namespace factord::emulation_testing

#endif  // FACTORD_TESTS_EMULATION_BLOCK_ILDLT_EMULATED_RUN_H_
