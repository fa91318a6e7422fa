// The CUDA backend behind core's device seam (kernels/device/
// device_kernels.h): RegisterCudaBackend() makes Backend::kCuda run the
// kernels of this library (cuSPARSE SpMV, cuBLAS vector kernels, the custom
// block-Jacobi, trisolve-sweep and batched dense kernels, block_ildlt's
// level-by-level numeric phase) for every request
// whose ExecContext carries a device context from CreateDeviceContext. Each
// context owns one CUDA stream (one per request, so concurrent requests do
// not serialise on the default stream) and a cuBLAS handle bound to it;
// cuSPARSE handles are made per product (DeviceSpmv).
//
// Every entry point takes host arrays: it uploads its inputs, runs, copies
// the outputs back and synchronises the stream (nothing stays on the device
// between calls). Not emulated; the dispatch logic is tested with the
// emulated backend (tests/core/device/device_dispatch_emulated_test.cc) and
// this file on a real device only (tests/core/device/cuda_device_test.cc).
#ifndef FACTORD_KERNELS_CUDA_CUDA_BACKEND_H_
#define FACTORD_KERNELS_CUDA_CUDA_BACKEND_H_

#include "absl/status/status.h"

namespace factord::kernels::cuda {

// Registers the CUDA kernels for Backend::kCuda. Does not touch the device
// (a machine without a GPU registers too; ProbeDevices says whether there
// is one, and CreateDeviceContext fails without one). Idempotent.
absl::Status RegisterCudaBackend();

}  // namespace factord::kernels::cuda

#endif  // FACTORD_KERNELS_CUDA_CUDA_BACKEND_H_
