// The emulated CUDA backend; see the header.
#include "tests/core/device/emulated_device_kernels.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "core/emulation/cuda_emulation.h"
#include "tests/core/block_ildlt/block_ildlt_emulated_run.h"
// The emulation header comes before the launch headers.
#include "core/block_jacobi/kernels/cuda/block_jacobi_launch.h"
#include "core/dense/kernels/cuda/batched_dense_launch.h"
#include "core/trisolve/kernels/cuda/trisolve_launch.h"

namespace factord::emulation_testing {
namespace {

namespace cuda = kernels::cuda;

absl::Status LaunchStatus(cudaError_t error, absl::string_view kernel) {
  if (error == cudaSuccess) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(kernel, " launch failed (",
                                          static_cast<int>(error),
                                          "): ", emulation::LastLaunchError()));
}

cuda::DeviceBlockLayout View(const kernels::BlockLayout& layout) {
  cuda::DeviceBlockLayout view;
  view.num_blocks = layout.num_blocks();
  view.block_ptr = layout.block_ptr.data();
  view.block_rows = layout.block_rows.data();
  view.block_of_row = layout.block_of_row.data();
  view.local_index = layout.local_index.data();
  view.value_ptr = layout.value_ptr.data();
  return view;
}

cuda::DeviceTriangularFactor View(const kernels::TriangularFactor& t) {
  return cuda::DeviceTriangularFactor{t.n(),
                                      static_cast<int64_t>(t.col_idx.size()),
                                      t.row_ptr.data(),
                                      t.col_idx.data(),
                                      t.diag.data(),
                                      t.values.data()};
}

int DeviceTriangle(kernels::Triangle triangle) {
  return triangle == kernels::Triangle::kLower ? cuda::kDeviceLower
                                               : cuda::kDeviceUpper;
}

class EmulatedCudaKernels final : public testing::ReferenceDeviceKernels {
 public:
  absl::string_view name() const override { return "emulated cuda"; }

  absl::Status ExtractDiagonalBlocks(DeviceStream&, const CsrMatrix& a,
                                     const kernels::BlockLayout& layout,
                                     std::span<double> blocks) const override {
    return RunChecked("ExtractDiagonalBlocks", [&] {
      const cuda::DeviceCsr device_a{a.row_ptr.data(), a.col_idx.data(),
                                     a.values.data()};
      return LaunchStatus(cuda::LaunchExtractDiagonalBlocks(
                              View(layout), device_a, blocks.data(), nullptr),
                          "ExtractDiagonalBlocks");
    });
  }
  absl::Status InvertDiagonalBlocks(DeviceStream&,
                                    const kernels::BlockLayout& layout,
                                    std::span<const double> blocks,
                                    std::span<double> inverses,
                                    std::span<uint8_t> status) const override {
    return RunChecked("InvertDiagonalBlocks", [&] {
      return LaunchStatus(cuda::LaunchInvertDiagonalBlocks(
                              View(layout), blocks.data(), inverses.data(),
                              status.data(), nullptr),
                          "InvertDiagonalBlocks");
    });
  }
  absl::Status ApplyBlockDiagonal(DeviceStream&,
                                  const kernels::BlockLayout& layout,
                                  std::span<const double> inverses,
                                  std::span<const double> r,
                                  std::span<double> z) const override {
    return RunChecked("ApplyBlockDiagonal", [&] {
      return LaunchStatus(
          cuda::LaunchApplyBlockDiagonal(View(layout), inverses.data(),
                                         r.data(), z.data(), nullptr),
          "ApplyBlockDiagonal");
    });
  }
  absl::Status JacobiSweep(DeviceStream&, const kernels::TriangularFactor& t,
                           kernels::Triangle triangle,
                           std::span<const double> b,
                           std::span<const double> x_old,
                           std::span<double> x_new) const override {
    return RunChecked("JacobiSweep", [&] {
      return LaunchStatus(
          cuda::LaunchJacobiSweep(View(t), DeviceTriangle(triangle), b.data(),
                                  x_old.data(), x_new.data(), nullptr, nullptr),
          "JacobiSweep");
    });
  }
  absl::Status BlockJacobiSweep(
      DeviceStream&, const kernels::TriangularFactor& t,
      kernels::Triangle triangle, const kernels::TriangularBlocks& blocks,
      std::span<const double> inverses, std::span<const double> b,
      std::span<const double> x_old, std::span<double> x_new) const override {
    return RunChecked("BlockJacobiSweep", [&] {
      const cuda::DeviceTriangularBlocks device_blocks{blocks.num_blocks(),
                                                       blocks.block_ptr.data(),
                                                       blocks.value_ptr.data()};
      return LaunchStatus(
          cuda::LaunchBlockJacobiSweep(
              View(t), DeviceTriangle(triangle), device_blocks, inverses.data(),
              b.data(), x_old.data(), x_new.data(), nullptr, nullptr),
          "BlockJacobiSweep");
    });
  }
  absl::Status FactorDenseBatch(
      DeviceStream&, const kernels::DenseBatchParams& params,
      const kernels::DenseBatch& batch) const override {
    return RunChecked("FactorDenseBatch", [&] {
      cuda::DeviceDenseBatchParams device_params;
      device_params.kind = static_cast<int>(params.kind);
      device_params.pivoting = params.pivoting;
      device_params.relative = params.relative;
      device_params.tiny = params.tiny;
      device_params.perturbation = params.perturbation;
      device_params.threshold = params.threshold;
      cuda::DeviceDenseBatch device;
      device.num_blocks = batch.num_blocks();
      device.size = batch.size.data();
      device.value_offset = batch.value_offset.data();
      device.index_offset = batch.index_offset.data();
      device.values = batch.values.data();
      device.row_perm = batch.row_perm.data();
      device.col_perm = batch.col_perm.data();
      device.pivot_size = batch.pivot_size.data();
      device.d_diag = batch.d_diag.data();
      device.d_off = batch.d_off.data();
      device.status = batch.status.data();
      device.step = batch.step.data();
      return LaunchStatus(
          cuda::LaunchFactorDenseBatch(device_params, device, nullptr),
          "FactorDenseBatch");
    });
  }
  absl::Status FactorBlockIldlt(
      DeviceStream&, const BlockIldltStructure& s,
      const kernels::BlockIldltNumericParams& params,
      const kernels::BlockIldltNumericArrays& arrays,
      kernels::BlockIldltLevelCheck check_cancelled) const override {
    return RunChecked("FactorBlockIldlt", [&] {
      return EmulatedFactorBlockIldlt(s, params, arrays, check_cancelled);
    });
  }
  absl::Status ApplyBlockIldlt(DeviceStream&,
                               const kernels::BlockIldltFactorView& factor,
                               std::span<double> y) const override {
    return RunChecked("ApplyBlockIldlt",
                      [&] { return EmulatedApplyBlockIldlt(factor, y); });
  }
};

}  // namespace

std::shared_ptr<testing::ReferenceDeviceKernels> MakeEmulatedCudaKernels() {
  return std::make_shared<EmulatedCudaKernels>();
}

}  // namespace factord::emulation_testing
