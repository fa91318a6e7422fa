// The CUDA Jacobi and block-Jacobi triangular sweeps (S4 eqs. 2, 4-5) behind
// host arrays: the contract of reference::JacobiSweep / BlockJacobiSweep
// (core/trisolve/kernels/trisolve_kernels.h), chained `sweeps` times on the
// device (S4 runs a fixed number of sweeps per preconditioner application),
// with the copies on the caller's stream and every CUDA error returned as a
// Status. Each call synchronises the stream before returning. The device
// work is trisolve_launch.cu, which the emulated tests run against the
// reference (tests/core/trisolve/trisolve_emulated_test.cc).
#ifndef FACTORD_TRISOLVE_KERNELS_CUDA_TRISOLVE_KERNELS_H_
#define FACTORD_TRISOLVE_KERNELS_CUDA_TRISOLVE_KERNELS_H_

#include <cstdint>
#include <span>

#include "absl/status/status.h"
#include "core/kernels/cuda/device.h"
#include "core/trisolve/kernels/cuda/trisolve_launch.h"
#include "core/trisolve/kernels/trisolve_kernels.h"

namespace factord::kernels::cuda {

// x_new = `sweeps` >= 1 Jacobi sweeps of `triangle` from x_old (sweeps = 1
// is reference::JacobiSweep). b, x_old, x_new: n entries. status: n entries
// (kDeviceSweepNotFinite for a row whose last value is Inf or NaN) or empty.
// Invalid sizes are INVALID_ARGUMENT before anything is copied.
absl::Status JacobiSweeps(CudaStream& stream, const TriangularFactor& t,
                          Triangle triangle, std::span<const double> b,
                          std::span<const double> x_old, int sweeps,
                          std::span<double> x_new, std::span<uint8_t> status);

// As JacobiSweeps with reference::BlockJacobiSweep; `inverses` has
// blocks.value_ptr[B] entries; status: B entries or empty.
absl::Status BlockJacobiSweeps(
    CudaStream& stream, const TriangularFactor& t, Triangle triangle,
    const TriangularBlocks& blocks, std::span<const double> inverses,
    std::span<const double> b, std::span<const double> x_old, int sweeps,
    std::span<double> x_new, std::span<uint8_t> status);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_TRISOLVE_KERNELS_CUDA_TRISOLVE_KERNELS_H_
