// The CUDA batched dense block factorizations behind host arrays: the
// contract of reference::FactorDenseBatch (kernels/dense/
// batched_dense_kernels.h: S2 §IV LU / LL^T / LDL^T of k x k blocks, k <=
// 32, with static, partial, full and rook pivoting, implicit permutations
// and a status per block), with the copies to and from the device on the
// caller's stream and every CUDA error returned as a Status. The call
// synchronises the stream before returning, so the batch's output spans may
// be read at once. The device work is batched_dense_launch.cu, which the
// emulated tests run against the reference
// (tests/core/dense/dense_batched_emulated_test.cc).
#ifndef FACTORD_DENSE_KERNELS_CUDA_BATCHED_DENSE_KERNELS_H_
#define FACTORD_DENSE_KERNELS_CUDA_BATCHED_DENSE_KERNELS_H_

#include "absl/status/status.h"
#include "core/dense/kernels/batched_dense_kernels.h"
#include "core/dense/kernels/cuda/batched_dense_launch.h"
#include "core/kernels/cuda/device.h"

namespace factord::kernels::cuda {

// DenseBatchParams as the kernel takes them.
DeviceDenseBatchParams ToDeviceParams(const DenseBatchParams& params);

// As reference::FactorDenseBatch(ctx, params, batch). Invalid sizes (a
// block outside [1, 32], arrays too short for the offsets) are
// INVALID_ARGUMENT before anything is copied; a CUDA failure is the Status
// of device.h and leaves the batch's outputs unspecified.
absl::Status FactorDenseBatch(CudaStream& stream,
                              const DenseBatchParams& params,
                              const DenseBatch& batch);

}  // namespace factord::kernels::cuda

#endif  // FACTORD_DENSE_KERNELS_CUDA_BATCHED_DENSE_KERNELS_H_
