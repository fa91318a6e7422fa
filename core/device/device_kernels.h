// The seam between core and a device backend: the kernel entry points that
// the kCuda paths of core's dispatch call (linalg/spmv, linalg/blas,
// block_jacobi, incomplete/incomplete_trisolve, dense/batched_dense,
// block_ildlt), as an abstract class that the backend implements and
// registers at start-up. Core links no device library; factord_cuda
// (core/kernels/cuda/cuda_backend.h) and the tests' emulated backend
// (core/emulation, in the emulated tests) fill this in.
//
// The seam is kernel code (docs/design.md, "Layers"): it declares kernel
// entry points in the kernels' own types and includes only kernel headers
// and base types, so that a backend under kernels/ may implement it;
// scripts/check_layout.sh holds this file to the kernels' include rule.
//
// Every entry point takes host spans with the sizes and layout of the
// reference kernel of its family (the header named at each group), runs on
// the request's stream and returns when the outputs may be read. A failure
// is a Status (the dispatch records it in the DeviceContext); the outputs
// are then unspecified. NormInf, Substitute and ExtractTriangularBlocks have
// no device kernel and run on the host (cpu kernels) for kCuda.
#ifndef FACTORD_DEVICE_DEVICE_KERNELS_H_
#define FACTORD_DEVICE_DEVICE_KERNELS_H_

#include <cstdint>
#include <memory>
#include <span>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/device_context.h"
#include "core/base/exec_context.h"
#include "core/block_ildlt/kernels/block_ildlt_device.h"
#include "core/block_ildlt/kernels/factor_types.h"
#include "core/block_jacobi/kernels/block_jacobi_kernels.h"
#include "core/dense/kernels/batched_dense_kernels.h"
#include "core/matrix/csr.h"
#include "core/trisolve/kernels/trisolve_kernels.h"

namespace factord {

// A backend's per-request state (a CUDA stream and the cuBLAS / cuSPARSE
// handles bound to it). Created by DeviceKernels::CreateStream.
class DeviceStream {
 public:
  virtual ~DeviceStream() = default;
};

class DeviceKernels {
 public:
  virtual ~DeviceKernels() = default;

  // "cuda", or "emulated cuda" in tests.
  virtual absl::string_view name() const = 0;
  // Devices on this machine; never fails (count 0 and the reason).
  virtual DeviceProbe Probe() const = 0;
  // A new stream with its handles, for one request.
  virtual absl::StatusOr<std::unique_ptr<DeviceStream>> CreateStream()
      const = 0;

  // core/linalg/kernels/spmv_kernels.h: y = A x, `a` general.
  virtual absl::Status Spmv(DeviceStream& stream, const CsrMatrix& a,
                            std::span<const double> x,
                            std::span<double> y) const = 0;

  // core/linalg/kernels/blas_kernels.h (all spans of one call have one size).
  virtual absl::StatusOr<double> Dot(DeviceStream& stream,
                                     std::span<const double> x,
                                     std::span<const double> y) const = 0;
  virtual absl::StatusOr<double> Norm2(DeviceStream& stream,
                                       std::span<const double> x) const = 0;
  virtual absl::Status Axpy(DeviceStream& stream, double alpha,
                            std::span<const double> x,
                            std::span<double> y) const = 0;
  virtual absl::Status Axpby(DeviceStream& stream, double alpha,
                             std::span<const double> x, double beta,
                             std::span<double> y) const = 0;
  virtual absl::Status Scale(DeviceStream& stream, double alpha,
                             std::span<double> x) const = 0;
  virtual absl::Status Copy(DeviceStream& stream, std::span<const double> x,
                            std::span<double> y) const = 0;
  virtual absl::Status PointwiseProduct(DeviceStream& stream,
                                        std::span<const double> d,
                                        std::span<const double> x,
                                        std::span<double> y) const = 0;

  // core/block_jacobi/kernels/block_jacobi_kernels.h (S3 §3).
  virtual absl::Status ExtractDiagonalBlocks(
      DeviceStream& stream, const CsrMatrix& a,
      const kernels::BlockLayout& layout, std::span<double> blocks) const = 0;
  virtual absl::Status InvertDiagonalBlocks(
      DeviceStream& stream, const kernels::BlockLayout& layout,
      std::span<const double> blocks, std::span<double> inverses,
      std::span<uint8_t> status) const = 0;
  virtual absl::Status ApplyBlockDiagonal(DeviceStream& stream,
                                          const kernels::BlockLayout& layout,
                                          std::span<const double> inverses,
                                          std::span<const double> r,
                                          std::span<double> z) const = 0;

  // core/trisolve/kernels/trisolve_kernels.h (S4 eqs. 2, 4-5): one sweep.
  virtual absl::Status JacobiSweep(DeviceStream& stream,
                                   const kernels::TriangularFactor& t,
                                   kernels::Triangle triangle,
                                   std::span<const double> b,
                                   std::span<const double> x_old,
                                   std::span<double> x_new) const = 0;
  virtual absl::Status BlockJacobiSweep(
      DeviceStream& stream, const kernels::TriangularFactor& t,
      kernels::Triangle triangle, const kernels::TriangularBlocks& blocks,
      std::span<const double> inverses, std::span<const double> b,
      std::span<const double> x_old, std::span<double> x_new) const = 0;

  // core/dense/kernels/batched_dense_kernels.h (S2 §IV).
  virtual absl::Status FactorDenseBatch(
      DeviceStream& stream, const kernels::DenseBatchParams& params,
      const kernels::DenseBatch& batch) const = 0;

  // block_ildlt's numeric phase (S1 §IV-B, level by level;
  // core/block_ildlt/kernels/block_ildlt_device.h): the arrays as the serial
  // reference of core/block_ildlt/block_ildlt_numeric.cc leaves them, bit for
  // bit. check_cancelled runs before every level
  // (kernels::BlockIldltLevelCheck); its first non-OK status is returned
  // unchanged. Not every backend has it: the default is UNIMPLEMENTED, and the
  // numeric phase then runs on the host (kCpu path).
  virtual absl::Status FactorBlockIldlt(
      DeviceStream& /*stream*/, const BlockIldltStructure& /*s*/,
      const kernels::BlockIldltNumericParams& /*params*/,
      const kernels::BlockIldltNumericArrays& /*arrays*/,
      kernels::BlockIldltLevelCheck /*check_cancelled*/) const {
    return absl::UnimplementedError(
        "no block_ildlt numeric kernels in this backend");
  }
  // block_ildlt's solves (S1 §IV-C, level-scheduled; what
  // BlockIldltFactor::Apply does between its permutation and scalings) on
  // the factor's arrays (core/block_ildlt/kernels/factor_types.h; a
  // BlockIldltFactor converts to the view): y (n) holds the ordered, scaled
  // right-hand side on entry and x = (L D L^T)^{-1} y on return, bit for bit
  // as the reference. Default UNIMPLEMENTED: the solves then run on the
  // host.
  virtual absl::Status ApplyBlockIldlt(
      DeviceStream& /*stream*/, const kernels::BlockIldltFactorView& /*factor*/,
      std::span<double> /*y*/) const {
    return absl::UnimplementedError(
        "no block_ildlt solve kernels in this backend");
  }
};

// Makes `kernels` the implementation of `backend` for contexts created from
// now on (contexts already created keep theirs). INVALID_ARGUMENT for a
// host backend or a null pointer. Thread-safe.
absl::Status RegisterDeviceKernels(
    Backend backend, std::shared_ptr<const DeviceKernels> kernels);
// Removes the registration (tests); existing contexts keep their kernels.
void UnregisterDeviceKernels(Backend backend);
// The registered implementation, or nullptr.
std::shared_ptr<const DeviceKernels> FindDeviceKernels(Backend backend);

}  // namespace factord

#endif  // FACTORD_DEVICE_DEVICE_KERNELS_H_
