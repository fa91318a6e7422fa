// block_ildlt's numeric phase on a device; see the header.
#include "core/block_ildlt/block_ildlt_device.h"

#include "core/base/device_context.h"
#include "core/device/device_dispatch.h"
#include "core/device/device_kernels.h"

namespace factord::internal {

absl::StatusOr<bool> FactorBlockIldltOnDevice(
    const ExecContext& ctx, const BlockIldltStructure& s,
    const kernels::BlockIldltNumericParams& params,
    const kernels::BlockIldltNumericArrays& arrays) {
  constexpr absl::string_view kKernel = "FactorBlockIldlt";
  const int64_t bytes = kernels::BlockIldltDeviceBytes(s);
  absl::StatusOr<DeviceContext*> device =
      linalg::BeginDeviceCall(ctx, kKernel, bytes);
  if (!device.ok()) return device.status();
  // The request's cancellation check between levels. A stop is the
  // request's status, not a device error: it is not recorded in the device
  // context.
  absl::Status stop;
  const absl::Status status = (*device)->kernels().FactorBlockIldlt(
      (*device)->stream(), s, params, arrays, [&ctx, &stop] {
        stop = ctx.CheckCancelled();
        return stop;
      });
  if (status.code() == absl::StatusCode::kUnimplemented) {
    linalg::EndDeviceCall(**device, kKernel, bytes, absl::OkStatus());
    return false;
  }
  if (!stop.ok() && status == stop) {
    linalg::EndDeviceCall(**device, kKernel, bytes, absl::OkStatus());
    return stop;
  }
  linalg::EndDeviceCall(**device, kKernel, bytes, status);
  if (!status.ok()) return (*device)->status();
  return true;
}

absl::StatusOr<bool> ApplyBlockIldltOnDevice(const ExecContext& ctx,
                                             const BlockIldltFactor& f,
                                             std::span<double> y) {
  constexpr absl::string_view kKernel = "ApplyBlockIldlt";
  const int64_t bytes = kernels::BlockIldltSolveDeviceBytes(f);
  absl::StatusOr<DeviceContext*> device =
      linalg::BeginDeviceCall(ctx, kKernel, bytes);
  if (!device.ok()) return device.status();
  const absl::Status status =
      (*device)->kernels().ApplyBlockIldlt((*device)->stream(), f, y);
  if (status.code() == absl::StatusCode::kUnimplemented) {
    linalg::EndDeviceCall(**device, kKernel, bytes, absl::OkStatus());
    return false;
  }
  linalg::EndDeviceCall(**device, kKernel, bytes, status);
  if (!status.ok()) return (*device)->status();
  return true;
}

}  // namespace factord::internal
