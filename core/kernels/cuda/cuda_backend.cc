// The CUDA implementation of DeviceKernels; see cuda_backend.h.
#include "core/kernels/cuda/cuda_backend.h"

#include <memory>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/block_ildlt/kernels/cuda/block_ildlt_kernels.h"
#include "core/block_jacobi/kernels/cuda/block_jacobi_kernels.h"
#include "core/dense/kernels/cuda/batched_dense_kernels.h"
#include "core/device/device_kernels.h"
#include "core/kernels/cuda/device.h"
#include "core/kernels/cuda/status_macros.h"
#include "core/linalg/kernels/cuda/blas_kernels.h"
#include "core/linalg/kernels/cuda/spmv_kernels.h"
#include "core/trisolve/kernels/cuda/trisolve_kernels.h"

namespace factord::kernels::cuda {
namespace {

// One request's stream and the cuBLAS handle bound to it.
class CudaRequestStream final : public DeviceStream {
 public:
  static absl::StatusOr<std::unique_ptr<CudaRequestStream>> Create() {
    FACTORD_CUDA_ASSIGN_OR_RETURN(stream, CudaStream::Create(0));
    FACTORD_CUDA_ASSIGN_OR_RETURN(blas, DeviceBlas::Create(*stream));
    return std::unique_ptr<CudaRequestStream>(
        new CudaRequestStream(std::move(stream), std::move(blas)));
  }
  // The handle holds a reference to the stream: destroy it first.
  ~CudaRequestStream() override { blas_.reset(); }

  CudaStream& stream() { return *stream_; }
  DeviceBlas& blas() { return *blas_; }

 private:
  CudaRequestStream(std::unique_ptr<CudaStream> stream,
                    std::unique_ptr<DeviceBlas> blas)
      : stream_(std::move(stream)), blas_(std::move(blas)) {}
  std::unique_ptr<CudaStream> stream_;
  std::unique_ptr<DeviceBlas> blas_;
};

CudaRequestStream& Cast(DeviceStream& stream) {
  return static_cast<CudaRequestStream&>(stream);
}

absl::Status SameSize(size_t a, size_t b) {
  if (a == b) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("vector sizes differ: ", a, " and ", b));
}

// Uploads the inputs, runs `op` on the device copies of x and y (y
// uploaded too when `read_y`), downloads y and synchronises.
template <typename Op>
absl::Status VectorUpdate(DeviceStream& s, std::span<const double> x,
                          std::span<double> y, bool read_y, Op&& op) {
  CudaRequestStream& r = Cast(s);
  FACTORD_CUDA_RETURN_IF_NOT_OK(SameSize(x.size(), y.size()));
  FACTORD_CUDA_ASSIGN_OR_RETURN(device_x, UploadArray(x, r.stream()));
  FACTORD_CUDA_ASSIGN_OR_RETURN(
      device_y,
      read_y ? UploadArray(std::span<const double>(y), r.stream())
             : DeviceArray<double>::Allocate(static_cast<int64_t>(y.size())));
  FACTORD_CUDA_RETURN_IF_NOT_OK(op(r.blas(), static_cast<int64_t>(y.size()),
                                   device_x.data(), device_y.data()));
  FACTORD_CUDA_RETURN_IF_NOT_OK(device_y.CopyToHost(y, r.stream()));
  return r.stream().Synchronize();
}

class CudaKernels final : public DeviceKernels {
 public:
  absl::string_view name() const override { return "cuda"; }

  DeviceProbe Probe() const override {
    const CudaDevices devices = DetectCudaDevices();
    DeviceProbe probe;
    probe.count = devices.count;
    probe.reason = devices.reason;
    probe.device = devices.first_device_name;
    return probe;
  }

  absl::StatusOr<std::unique_ptr<DeviceStream>> CreateStream() const override {
    FACTORD_CUDA_ASSIGN_OR_RETURN(stream, CudaRequestStream::Create());
    return std::unique_ptr<DeviceStream>(std::move(stream));
  }

  absl::Status Spmv(DeviceStream& s, const CsrMatrix& a,
                    std::span<const double> x,
                    std::span<double> y) const override {
    return cuda::Spmv(Cast(s).stream(), a, x, y);
  }

  absl::StatusOr<double> Dot(DeviceStream& s, std::span<const double> x,
                             std::span<const double> y) const override {
    CudaRequestStream& r = Cast(s);
    FACTORD_CUDA_RETURN_IF_NOT_OK(SameSize(x.size(), y.size()));
    FACTORD_CUDA_ASSIGN_OR_RETURN(device_x, UploadArray(x, r.stream()));
    FACTORD_CUDA_ASSIGN_OR_RETURN(device_y, UploadArray(y, r.stream()));
    // Pointer mode host: the result is back when the call returns.
    return r.blas().Dot(static_cast<int64_t>(x.size()), device_x.data(),
                        device_y.data());
  }

  absl::StatusOr<double> Norm2(DeviceStream& s,
                               std::span<const double> x) const override {
    CudaRequestStream& r = Cast(s);
    FACTORD_CUDA_ASSIGN_OR_RETURN(device_x, UploadArray(x, r.stream()));
    return r.blas().Norm2(static_cast<int64_t>(x.size()), device_x.data());
  }

  absl::Status Axpy(DeviceStream& s, double alpha, std::span<const double> x,
                    std::span<double> y) const override {
    return VectorUpdate(
        s, x, y, /*read_y=*/true,
        [&](DeviceBlas& blas, int64_t n, const double* dx, double* dy) {
          return blas.Axpy(n, alpha, dx, dy);
        });
  }

  absl::Status Axpby(DeviceStream& s, double alpha, std::span<const double> x,
                     double beta, std::span<double> y) const override {
    return VectorUpdate(
        s, x, y, /*read_y=*/beta != 0,
        [&](DeviceBlas& blas, int64_t n, const double* dx, double* dy) {
          return blas.Axpby(n, alpha, dx, beta, dy);
        });
  }

  absl::Status Scale(DeviceStream& s, double alpha,
                     std::span<double> x) const override {
    CudaRequestStream& r = Cast(s);
    FACTORD_CUDA_ASSIGN_OR_RETURN(
        device_x, UploadArray(std::span<const double>(x), r.stream()));
    FACTORD_CUDA_RETURN_IF_NOT_OK(
        r.blas().Scale(static_cast<int64_t>(x.size()), alpha, device_x.data()));
    FACTORD_CUDA_RETURN_IF_NOT_OK(device_x.CopyToHost(x, r.stream()));
    return r.stream().Synchronize();
  }

  absl::Status Copy(DeviceStream& s, std::span<const double> x,
                    std::span<double> y) const override {
    return VectorUpdate(s, x, y, /*read_y=*/false,
                        [](DeviceBlas& blas, int64_t n, const double* dx,
                           double* dy) { return blas.Copy(n, dx, dy); });
  }

  absl::Status PointwiseProduct(DeviceStream& s, std::span<const double> d,
                                std::span<const double> x,
                                std::span<double> y) const override {
    CudaRequestStream& r = Cast(s);
    FACTORD_CUDA_RETURN_IF_NOT_OK(SameSize(d.size(), y.size()));
    FACTORD_CUDA_ASSIGN_OR_RETURN(device_d, UploadArray(d, r.stream()));
    return VectorUpdate(
        s, x, y, /*read_y=*/false,
        [&](DeviceBlas& blas, int64_t n, const double* dx, double* dy) {
          return blas.PointwiseProduct(n, device_d.data(), dx, dy);
        });
  }

  absl::Status ExtractDiagonalBlocks(DeviceStream& s, const CsrMatrix& a,
                                     const BlockLayout& layout,
                                     std::span<double> blocks) const override {
    return cuda::ExtractDiagonalBlocks(Cast(s).stream(), a, layout, blocks);
  }

  absl::Status InvertDiagonalBlocks(DeviceStream& s, const BlockLayout& layout,
                                    std::span<const double> blocks,
                                    std::span<double> inverses,
                                    std::span<uint8_t> status) const override {
    return cuda::InvertDiagonalBlocks(Cast(s).stream(), layout, blocks,
                                      inverses, status);
  }

  absl::Status ApplyBlockDiagonal(DeviceStream& s, const BlockLayout& layout,
                                  std::span<const double> inverses,
                                  std::span<const double> r,
                                  std::span<double> z) const override {
    return cuda::ApplyBlockDiagonal(Cast(s).stream(), layout, inverses, r, z);
  }

  absl::Status JacobiSweep(DeviceStream& s, const TriangularFactor& t,
                           Triangle triangle, std::span<const double> b,
                           std::span<const double> x_old,
                           std::span<double> x_new) const override {
    return cuda::JacobiSweeps(Cast(s).stream(), t, triangle, b, x_old,
                              /*sweeps=*/1, x_new, /*status=*/{});
  }

  absl::Status BlockJacobiSweep(DeviceStream& s, const TriangularFactor& t,
                                Triangle triangle,
                                const TriangularBlocks& blocks,
                                std::span<const double> inverses,
                                std::span<const double> b,
                                std::span<const double> x_old,
                                std::span<double> x_new) const override {
    return cuda::BlockJacobiSweeps(Cast(s).stream(), t, triangle, blocks,
                                   inverses, b, x_old, /*sweeps=*/1, x_new,
                                   /*status=*/{});
  }

  absl::Status FactorDenseBatch(DeviceStream& s, const DenseBatchParams& params,
                                const DenseBatch& batch) const override {
    return cuda::FactorDenseBatch(Cast(s).stream(), params, batch);
  }

  absl::Status FactorBlockIldlt(
      DeviceStream& s, const BlockIldltStructure& structure,
      const BlockIldltNumericParams& params,
      const BlockIldltNumericArrays& arrays,
      BlockIldltLevelCheck check_cancelled) const override {
    return cuda::FactorBlockIldlt(Cast(s).stream(), structure, params, arrays,
                                  check_cancelled);
  }

  absl::Status ApplyBlockIldlt(DeviceStream& s,
                               const BlockIldltFactorView& factor,
                               std::span<double> y) const override {
    return cuda::ApplyBlockIldlt(Cast(s).stream(), factor, y);
  }
};

}  // namespace

absl::Status RegisterCudaBackend() {
  static const std::shared_ptr<const DeviceKernels> kernels =
      std::make_shared<CudaKernels>();
  return RegisterDeviceKernels(Backend::kCuda, kernels);
}

}  // namespace factord::kernels::cuda
