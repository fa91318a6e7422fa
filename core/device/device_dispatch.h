// How core's kernel dispatch runs a kernel on the request's device
// (ExecContext::device, base/device_context.h) for Backend::kCuda: the
// device bytes of the call are reserved from the budget, the registered
// backend's entry point runs, and a failure is recorded in the context (the
// request then stops at its next CheckCancelled()). A call after an earlier
// failure, without a device context or over the budget does not run; the
// dispatcher then fills its double outputs with NaN, so that nothing
// computed from them can pass for a result.
#ifndef FACTORD_DEVICE_DEVICE_DISPATCH_H_
#define FACTORD_DEVICE_DEVICE_DISPATCH_H_

#include <cstdint>
#include <span>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/device_context.h"
#include "core/base/exec_context.h"
#include "core/device/device_kernels.h"
#include "core/matrix/csr.h"

namespace factord::linalg {

// Bytes the call puts on the device: its arrays (vendor workspaces are not
// counted).
inline int64_t DeviceBytes(const CsrMatrix& a) {
  return static_cast<int64_t>(a.row_ptr.size() * sizeof(int64_t) +
                              a.col_idx.size() * sizeof(int32_t) +
                              a.values.size() * sizeof(double));
}
inline int64_t DeviceBytes(const kernels::BlockLayout& layout) {
  return static_cast<int64_t>(
      (layout.block_ptr.size() + layout.value_ptr.size()) * sizeof(int64_t) +
      (layout.block_rows.size() + layout.block_of_row.size() +
       layout.local_index.size()) *
          sizeof(int32_t));
}
inline int64_t DeviceBytes(const kernels::TriangularFactor& t) {
  return static_cast<int64_t>(t.row_ptr.size_bytes() + t.col_idx.size_bytes() +
                              t.diag.size_bytes() + t.values.size_bytes());
}
template <typename T>
int64_t DeviceBytes(std::span<T> s) {
  return static_cast<int64_t>(s.size_bytes());
}
template <typename... Parts>
int64_t SumDeviceBytes(const Parts&... parts) {
  return (int64_t{0} + ... + DeviceBytes(parts));
}

// The context to run `kernel` on with `bytes` reserved, or the reason not
// to (recorded in the context when there is one). On success the caller
// must call EndDeviceCall with the same bytes.
absl::StatusOr<DeviceContext*> BeginDeviceCall(const ExecContext& ctx,
                                               absl::string_view kernel,
                                               int64_t bytes);
// Releases `bytes` and records a failed `status` under the kernel's name.
void EndDeviceCall(DeviceContext& device, absl::string_view kernel,
                   int64_t bytes, const absl::Status& status);

// Runs call(kernels, stream) -> absl::Status on ctx's device; returns
// whether it ran and succeeded.
template <typename Call>
bool RunOnDevice(const ExecContext& ctx, absl::string_view kernel,
                 int64_t bytes, Call&& call) {
  absl::StatusOr<DeviceContext*> device = BeginDeviceCall(ctx, kernel, bytes);
  if (!device.ok()) return false;
  const absl::Status status = call((*device)->kernels(), (*device)->stream());
  EndDeviceCall(**device, kernel, bytes, status);
  return status.ok();
}

// Fills the outputs of a call that did not run or failed.
void FillNaN(std::span<double> x);

}  // namespace factord::linalg

#endif  // FACTORD_DEVICE_DEVICE_DISPATCH_H_
