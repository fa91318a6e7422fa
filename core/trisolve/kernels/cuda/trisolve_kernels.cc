#include "core/trisolve/kernels/cuda/trisolve_kernels.h"

#include <utility>

#include "core/kernels/cuda/status_macros.h"

namespace factord::kernels::cuda {

static_assert(kDeviceLower == static_cast<int>(Triangle::kLower));
static_assert(kDeviceUpper == static_cast<int>(Triangle::kUpper));

namespace {

// The factor's arrays on the device, for the sweeps of one call.
struct FactorArrays {
  DeviceArray<int64_t> row_ptr;
  DeviceArray<int32_t> col_idx;
  DeviceArray<int64_t> diag;
  DeviceArray<double> values;
  DeviceTriangularFactor view(int64_t n) const {
    return DeviceTriangularFactor{
        n,           col_idx.size(), row_ptr.data(), col_idx.data(),
        diag.data(), values.data()};
  }
};

absl::Status CheckSizes(const TriangularFactor& t, std::span<const double> b,
                        std::span<const double> x_old, int sweeps,
                        std::span<double> x_new) {
  const size_t n = t.diag.size();
  if (t.row_ptr.size() != n + 1 || b.size() != n || x_old.size() != n ||
      x_new.size() != n || t.col_idx.size() != t.values.size() ||
      static_cast<int64_t>(t.col_idx.size()) != t.row_ptr[n] || sweeps < 1) {
    return absl::InvalidArgumentError(
        "trisolve sweeps: inconsistent factor or vector sizes, or sweeps < 1");
  }
  return absl::OkStatus();
}

absl::StatusOr<FactorArrays> UploadFactor(const TriangularFactor& t,
                                          CudaStream& stream) {
  FACTORD_CUDA_ASSIGN_OR_RETURN(row_ptr, UploadArray(t.row_ptr, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(col_idx, UploadArray(t.col_idx, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(diag, UploadArray(t.diag, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(values, UploadArray(t.values, stream));
  return FactorArrays{std::move(row_ptr), std::move(col_idx), std::move(diag),
                      std::move(values)};
}

// Runs `sweep(from, to)` `sweeps` times from x_old, alternating two device
// vectors, and copies the last iterate to x_new.
template <typename Sweep>
absl::Status Chain(CudaStream& stream, std::span<const double> x_old,
                   int sweeps, std::span<double> x_new, Sweep sweep) {
  FACTORD_CUDA_ASSIGN_OR_RETURN(x_a, UploadArray(x_old, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      x_b, DeviceArray<double>::Allocate(static_cast<int64_t>(x_new.size())));
  DeviceArray<double>* from = &x_a;
  DeviceArray<double>* to = &x_b;
  for (int k = 0; k < sweeps; ++k) {
    FACTORD_CUDA_RETURN_IF_ERROR(sweep(from->data(), to->data()));
    std::swap(from, to);
  }
  return from->CopyToHost(x_new, stream);
}

}  // namespace

absl::Status JacobiSweeps(CudaStream& stream, const TriangularFactor& t,
                          Triangle triangle, std::span<const double> b,
                          std::span<const double> x_old, int sweeps,
                          std::span<double> x_new, std::span<uint8_t> status) {
  FACTORD_CUDA_RETURN_IF_NOT_OK(CheckSizes(t, b, x_old, sweeps, x_new));
  if (!status.empty() && status.size() != x_new.size()) {
    return absl::InvalidArgumentError("JacobiSweeps: status size != n");
  }
  if (t.n() == 0) return absl::OkStatus();
  FACTORD_CUDA_ASSIGN_OR_RETURN(factor, UploadFactor(t, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_b, UploadArray(b, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      device_status,
      DeviceArray<uint8_t>::Allocate(static_cast<int64_t>(status.size())));
  const DeviceTriangularFactor view = factor.view(t.n());
  FACTORD_CUDA_RETURN_IF_NOT_OK(
      Chain(stream, x_old, sweeps, x_new, [&](const double* from, double* to) {
        return LaunchJacobiSweep(view, static_cast<int>(triangle),
                                 device_b.data(), from, to,
                                 device_status.data(), stream.get());
      }));
  FACTORD_CUDA_RETURN_IF_NOT_OK(device_status.CopyToHost(status, stream));
  return stream.Synchronize();
}

absl::Status BlockJacobiSweeps(
    CudaStream& stream, const TriangularFactor& t, Triangle triangle,
    const TriangularBlocks& blocks, std::span<const double> inverses,
    std::span<const double> b, std::span<const double> x_old, int sweeps,
    std::span<double> x_new, std::span<uint8_t> status) {
  FACTORD_CUDA_RETURN_IF_NOT_OK(CheckSizes(t, b, x_old, sweeps, x_new));
  const int64_t num_blocks = blocks.num_blocks();
  if (blocks.block_ptr.empty() || blocks.block_ptr.back() != t.n() ||
      blocks.value_ptr.size() != blocks.block_ptr.size() ||
      static_cast<int64_t>(inverses.size()) != blocks.value_ptr.back() ||
      (!status.empty() && static_cast<int64_t>(status.size()) != num_blocks)) {
    return absl::InvalidArgumentError(
        "BlockJacobiSweeps: blocks, inverses or status do not fit the factor");
  }
  for (int64_t k = 0; k < num_blocks; ++k) {
    const int64_t m = blocks.block_ptr[k + 1] - blocks.block_ptr[k];
    if (m < 1 || m > kWarpSize ||
        blocks.value_ptr[k + 1] - blocks.value_ptr[k] != m * m) {
      return absl::InvalidArgumentError(
          "BlockJacobiSweeps: a block outside 1..32 rows or its inverse");
    }
  }
  if (t.n() == 0) return absl::OkStatus();
  FACTORD_CUDA_ASSIGN_OR_RETURN(factor, UploadFactor(t, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(block_ptr,
                                UploadArray(blocks.block_ptr, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(value_ptr,
                                UploadArray(blocks.value_ptr, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_inverses, UploadArray(inverses, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_b, UploadArray(b, stream));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      device_status,
      DeviceArray<uint8_t>::Allocate(static_cast<int64_t>(status.size())));
  const DeviceTriangularFactor view = factor.view(t.n());
  const DeviceTriangularBlocks device_blocks{num_blocks, block_ptr.data(),
                                             value_ptr.data()};
  FACTORD_CUDA_RETURN_IF_NOT_OK(
      Chain(stream, x_old, sweeps, x_new, [&](const double* from, double* to) {
        return LaunchBlockJacobiSweep(view, static_cast<int>(triangle),
                                      device_blocks, device_inverses.data(),
                                      device_b.data(), from, to,
                                      device_status.data(), stream.get());
      }));
  FACTORD_CUDA_RETURN_IF_NOT_OK(device_status.CopyToHost(status, stream));
  return stream.Synchronize();
}

}  // namespace factord::kernels::cuda
