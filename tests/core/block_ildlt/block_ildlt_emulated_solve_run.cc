// EmulatedApplyBlockIldlt: the solve launches on host arrays, as
// core/block_ildlt/kernels/cuda/block_ildlt_kernels.cc runs them on device
// copies.
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/emulation/cuda_emulation.h"
#include "tests/core/block_ildlt/block_ildlt_emulated_run.h"
// The emulation header comes before the launch header.
#include "core/block_ildlt/kernels/cuda/block_ildlt_solve_launch.h"

namespace factord::emulation_testing {

absl::Status EmulatedApplyBlockIldlt(const kernels::BlockIldltFactorView& f,
                                     std::span<double> y) {
  const BlockIldltStructure& s = *f.structure;
  if (static_cast<int64_t>(y.size()) != s.n) {
    return absl::InvalidArgumentError("y does not have n entries");
  }
  std::vector<double> w(s.n, -12345.0);
  const cudaError_t error = kernels::cuda::LaunchBlockIldltSolve(
      kernels::SolveViewOf(f), s.num_blocks(), s.level_blocks.data(),
      s.num_levels, s.level_ptr.data(), y.data(), w.data(), nullptr);
  if (error != cudaSuccess) {
    return absl::InternalError(absl::StrCat("block_ildlt solve launch failed: ",
                                            emulation::LastLaunchError()));
  }
  return absl::OkStatus();
}

}  // namespace factord::emulation_testing
