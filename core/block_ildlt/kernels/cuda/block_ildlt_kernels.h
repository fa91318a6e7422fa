// block_ildlt's numeric phase on a CUDA device behind host arrays (the
// contract of DeviceKernels::FactorBlockIldlt, kernels/device/
// block_ildlt_device.h): uploads the structure, the per-level slot lists
// and the scattered values, runs the launches of block_ildlt_launch.h level
// by level on the caller's stream (the request's cancellation check between
// levels), downloads the factor, D, pivots, kept
// flags, per-column counts and statuses, and synchronises. Every CUDA error
// is a Status (device.h). The device work is block_ildlt_launch.cu, which
// the emulated tests run against the serial reference
// (tests/core/block_ildlt/block_ildlt_emulated_test.cc); the solves' is
// block_ildlt_solve_launch.cu (block_ildlt_solve_emulated_test.cc).
#ifndef FACTORD_BLOCK_ILDLT_KERNELS_CUDA_BLOCK_ILDLT_KERNELS_H_
#define FACTORD_BLOCK_ILDLT_KERNELS_CUDA_BLOCK_ILDLT_KERNELS_H_

#include <span>

#include "absl/status/status.h"
#include "core/block_ildlt/kernels/block_ildlt_device.h"
#include "core/block_ildlt/kernels/factor_types.h"
#include "core/kernels/cuda/device.h"

namespace factord::kernels::cuda {

// INVALID_ARGUMENT (before anything is copied) when an array does not have
// the size the structure asks for or a block has more than 32 rows.
// check_cancelled runs before each level, once the level two before it has
// finished (one level stays in flight); its first non-OK status is returned
// after the stream is synchronised, with nothing downloaded.
absl::Status FactorBlockIldlt(CudaStream& stream, const BlockIldltStructure& s,
                              const BlockIldltNumericParams& params,
                              const BlockIldltNumericArrays& arrays,
                              BlockIldltLevelCheck check_cancelled);

// The solves of S1 §IV-C (DeviceKernels::ApplyBlockIldlt): uploads the
// factor, its structure and level lists and y, runs the launches of
// block_ildlt_solve_launch.h, downloads y (= x) and synchronises.
// INVALID_ARGUMENT when y does not have n entries.
absl::Status ApplyBlockIldlt(CudaStream& stream, const BlockIldltFactorView& f,
                             std::span<double> y);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_BLOCK_ILDLT_KERNELS_CUDA_BLOCK_ILDLT_KERNELS_H_
