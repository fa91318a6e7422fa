// block_ildlt's numeric phase on the request's device (Backend::kCuda with
// a device context): the host scales and scatters A as for the other
// backends, the device backend's FactorBlockIldlt (kernels/device/
// device_kernels.h) runs the level loop of S1 §IV-B with the leftover
// protocol of S1 Alg. 2, and the factor comes back in BlockIldltFactor's
// layout, equal bit for bit to the serial reference's.
#ifndef FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_DEVICE_H_
#define FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_DEVICE_H_

#include <span>

#include "absl/status/statusor.h"
#include "core/base/exec_context.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/block_ildlt/kernels/block_ildlt_device.h"

namespace factord::internal {

// Runs the numeric phase on ctx.device (which must be set), drawing
// kernels::BlockIldltDeviceBytes(s) from the request's device budget.
// false: the backend has no block_ildlt kernels (nothing ran, nothing is
// recorded; the caller runs the host path); true: `arrays` hold the factor;
// CANCELLED / DEADLINE_EXCEEDED from ctx.CheckCancelled(), called before
// every level (not recorded in the device context; `arrays` unspecified);
// another error (also recorded in the device context) otherwise.
absl::StatusOr<bool> FactorBlockIldltOnDevice(
    const ExecContext& ctx, const BlockIldltStructure& s,
    const kernels::BlockIldltNumericParams& params,
    const kernels::BlockIldltNumericArrays& arrays);

// The solves of `f` on ctx.device (which must be set), drawing
// kernels::BlockIldltSolveDeviceBytes(f) from the budget: y (n) is the
// ordered, scaled right-hand side on entry and x on return. false / true /
// error as for FactorBlockIldltOnDevice.
absl::StatusOr<bool> ApplyBlockIldltOnDevice(const ExecContext& ctx,
                                             const BlockIldltFactor& f,
                                             std::span<double> y);

}  // namespace factord::internal

#endif  // FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_DEVICE_H_
