// EmulatedJacobi / EmulatedBlockJacobi of trisolve_cases.h: the trisolve
// sweep kernels under the CPU emulation, on host arrays, chained as the
// host wrapper chains them on a device. Kept apart from the case builders
// so that the real-device test can use the builders without the emulation.
#include <utility>

#include "core/emulation/cuda_emulation.h"
#include "core/trisolve/kernels/cuda/trisolve_launch.h"
#include "tests/core/trisolve/trisolve_cases.h"

namespace factord::emulation_testing {
namespace {

namespace cuda = kernels::cuda;

cuda::DeviceTriangularFactor DeviceView(const TrisolveCase& c) {
  return cuda::DeviceTriangularFactor{c.n(),
                                      static_cast<int64_t>(c.col_idx.size()),
                                      c.row_ptr.data(),
                                      c.col_idx.data(),
                                      c.diag.data(),
                                      c.values.data()};
}

// Runs `launch(x_old, x_new, status)` `sweeps` times from x0; status is
// preset to a sentinel so that an entry the kernel does not write shows.
template <typename Launch>
SweepRun Chain(const TrisolveCase& c, int sweeps, size_t status_size,
               uint64_t seed, Launch launch) {
  SweepRun run;
  run.status.assign(status_size, 0xee);
  emulation::SetScheduleSeed(seed);
  std::vector<double> x = c.x0;
  for (int k = 0; k < sweeps && run.error.empty(); ++k) {
    std::vector<double> next(c.n(), -12345.0);
    if (launch(x.data(), next.data(), run.status.data()) != cudaSuccess) {
      run.error = emulation::LastLaunchError();
    }
    run.iterates.push_back(next);
    x = std::move(next);
  }
  return run;
}

}  // namespace

SweepRun EmulatedJacobi(const TrisolveCase& c, Triangle triangle, int sweeps,
                        uint64_t seed) {
  const cuda::DeviceTriangularFactor t = DeviceView(c);
  return Chain(c, sweeps, c.n(), seed,
               [&](const double* x_old, double* x_new, uint8_t* status) {
                 return cuda::LaunchJacobiSweep(t, static_cast<int>(triangle),
                                                c.b.data(), x_old, x_new,
                                                status, nullptr);
               });
}

SweepRun EmulatedBlockJacobi(const TrisolveCase& c, Triangle triangle,
                             const std::vector<double>& inverses, int sweeps,
                             uint64_t seed) {
  const cuda::DeviceTriangularFactor t = DeviceView(c);
  const cuda::DeviceTriangularBlocks blocks{c.blocking.num_blocks(),
                                            c.blocking.block_ptr.data(),
                                            c.blocking.value_ptr.data()};
  return Chain(c, sweeps, c.blocking.num_blocks(), seed,
               [&](const double* x_old, double* x_new, uint8_t* status) {
                 return cuda::LaunchBlockJacobiSweep(
                     t, static_cast<int>(triangle), blocks, inverses.data(),
                     c.b.data(), x_old, x_new, status, nullptr);
               });
}

}  // namespace factord::emulation_testing
