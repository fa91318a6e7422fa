// CompareWithReference of block_jacobi_cases.h: the emulated CUDA kernels
// against the reference kernels. Kept apart from the case builders so that
// the real-GPU test can use the builders without the emulation.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "core/emulation/cuda_emulation.h"
#include "tests/core/block_jacobi/block_jacobi_cases.h"

namespace factord::emulation_testing {
namespace {

// Relative difference that treats NaN/Inf mismatches as infinite.
double RelativeDiff(double got, double want) {
  if (got == want) return 0;
  if (!std::isfinite(got) || !std::isfinite(want)) {
    return std::numeric_limits<double>::infinity();
  }
  return std::fabs(got - want) / std::max(1.0, std::fabs(want));
}

}  // namespace

BlockJacobiComparison CompareWithReference(const BlockJacobiCase& c,
                                           uint64_t schedule_seed) {
  namespace ref = kernels::reference;
  namespace cuda = kernels::cuda;
  static_assert(cuda::kDeviceBlockOk == kernels::kBlockOk);
  static_assert(cuda::kDeviceBlockSingular == kernels::kBlockSingular);
  BlockJacobiComparison out;
  const ExecContext ctx{.backend = Backend::kReference};
  const kernels::BlockLayout layout = c.Layout();
  const cuda::DeviceBlockLayout device_layout = c.DeviceLayout();
  const int64_t num_blocks = layout.num_blocks();
  const size_t dense_size = static_cast<size_t>(c.value_ptr.back());
  const int64_t n = c.a.rows;

  std::vector<double> blocks(dense_size), inverses(dense_size);
  std::vector<uint8_t> status(num_blocks);
  ref::ExtractDiagonalBlocks(ctx, c.a, layout, blocks);
  ref::InvertDiagonalBlocks(ctx, layout, blocks, inverses, status);
  std::vector<double> r(n), z(n);
  std::mt19937_64 rng(schedule_seed + 99);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (double& x : r) x = value(rng);
  ref::ApplyBlockDiagonal(ctx, layout, inverses, r, z);

  // Outputs start as a sentinel so that an entry the kernel forgot shows.
  constexpr double kSentinel = -7.25e77;
  std::vector<double> blocks_emulated(dense_size, kSentinel);
  std::vector<double> inverses_emulated(dense_size, kSentinel);
  std::vector<uint8_t> status_emulated(num_blocks, 0xee);
  std::vector<double> z_emulated(n, kSentinel);
  const cuda::DeviceCsr device_a{c.a.row_ptr.data(), c.a.col_idx.data(),
                                 c.a.values.data()};
  emulation::SetScheduleSeed(schedule_seed);
  auto check = [&](cudaError_t e, const char* what) {
    if (e != cudaSuccess && out.launch_error.empty()) {
      out.launch_error =
          std::string(what) + ": " + emulation::LastLaunchError();
    }
  };
  check(cuda::LaunchExtractDiagonalBlocks(device_layout, device_a,
                                          blocks_emulated.data(), nullptr),
        "extract");
  check(cuda::LaunchInvertDiagonalBlocks(device_layout, blocks.data(),
                                         inverses_emulated.data(),
                                         status_emulated.data(), nullptr),
        "invert");
  check(cuda::LaunchApplyBlockDiagonal(device_layout, inverses.data(), r.data(),
                                       z_emulated.data(), nullptr),
        "apply");

  out.bitwise_equal = true;
  for (size_t k = 0; k < dense_size; ++k) {
    out.max_extract_diff = std::max(
        out.max_extract_diff, RelativeDiff(blocks_emulated[k], blocks[k]));
    out.max_inverse_diff = std::max(
        out.max_inverse_diff, RelativeDiff(inverses_emulated[k], inverses[k]));
    if (!std::isfinite(inverses_emulated[k])) out.non_finite_output = true;
    out.bitwise_equal = out.bitwise_equal && blocks_emulated[k] == blocks[k] &&
                        inverses_emulated[k] == inverses[k];
  }
  for (int64_t b = 0; b < num_blocks; ++b) {
    if (status[b] != kernels::kBlockOk) ++out.singular_blocks;
    if (status_emulated[b] != status[b]) ++out.status_mismatches;
  }
  for (int64_t i = 0; i < n; ++i) {
    out.max_apply_diff =
        std::max(out.max_apply_diff, RelativeDiff(z_emulated[i], z[i]));
    out.bitwise_equal = out.bitwise_equal && z_emulated[i] == z[i];
  }
  return out;
}

}  // namespace factord::emulation_testing
