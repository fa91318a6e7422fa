// RunEmulated of dense_ldlt_cases.h: the dense LDL^T kernel under the CPU
// emulation. Kept apart from the case builders so that the real-GPU test
// can use the builders without the emulation.
#include "core/dense/kernels/cuda/dense_ldlt_launch.h"
#include "core/emulation/cuda_emulation.h"
#include "tests/core/dense/dense_ldlt_cases.h"

namespace factord::emulation_testing {

LdltOutputs RunEmulated(const LdltBatch& batch, const DenseLdltParams& p,
                        uint64_t seed, std::string* error) {
  LdltOutputs out = Sentinel(batch);
  kernels::cuda::DeviceDenseLdltBatch device;
  device.num_blocks = batch.num_blocks();
  device.value_ptr = batch.value_ptr.data();
  device.pivot_ptr = batch.pivot_ptr.data();
  emulation::SetScheduleSeed(seed);
  if (kernels::cuda::LaunchDenseLdltBatch(
          device, p, out.values.data(), out.order.data(), out.size.data(),
          out.d_diag.data(), out.d_off.data(), out.counts.data(),
          nullptr) != cudaSuccess) {
    *error = emulation::LastLaunchError();
  }
  return out;
}

}  // namespace factord::emulation_testing
