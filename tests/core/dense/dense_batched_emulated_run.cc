// RunEmulated of dense_batched_cases.h: the batched dense factorization
// kernel under the CPU emulation, on host arrays. Kept apart from the case
// builders so that the real-device test can use the builders without the
// emulation.
#include "core/dense/kernels/cuda/batched_dense_launch.h"
#include "core/emulation/cuda_emulation.h"
#include "tests/core/dense/dense_batched_cases.h"

namespace factord::emulation_testing {

DenseBlocks RunEmulated(const DenseBlocks& input,
                        const DenseBatchParams& params, uint64_t seed,
                        std::string* error) {
  DenseBlocks out = input;
  kernels::cuda::DeviceDenseBatchParams device_params;
  device_params.kind = static_cast<int>(params.kind);
  device_params.pivoting = params.pivoting;
  device_params.relative = params.relative;
  device_params.tiny = params.tiny;
  device_params.perturbation = params.perturbation;
  device_params.threshold = params.threshold;
  kernels::cuda::DeviceDenseBatch device;
  device.num_blocks = out.num_blocks();
  device.size = out.size.data();
  device.value_offset = out.value_offset.data();
  device.index_offset = out.index_offset.data();
  device.values = out.values.data();
  device.row_perm = out.row_perm.data();
  device.col_perm = out.col_perm.data();
  device.pivot_size = out.pivot_size.data();
  device.d_diag = out.d_diag.data();
  device.d_off = out.d_off.data();
  device.status = out.status.data();
  device.step = out.step.data();
  emulation::SetScheduleSeed(seed);
  if (kernels::cuda::LaunchFactorDenseBatch(device_params, device, nullptr) !=
      cudaSuccess) {
    *error = emulation::LastLaunchError();
  }
  return out;
}

}  // namespace factord::emulation_testing
