// A device backend for tests without a GPU: every entry point of
// DeviceKernels runs the reference kernel on the host, counts its calls and
// can be told to fail, so that core's kCuda dispatch (registry -> context ->
// entry point -> results, errors, budget) is tested in every build. The
// emulated backend (tests/core/device/emulated_device_kernels.h) derives from
// it and replaces the custom kernels with the .cu sources under emulation.
#ifndef FACTORD_TESTS_CORE_LINALG_REFERENCE_DEVICE_KERNELS_H_
#define FACTORD_TESTS_CORE_LINALG_REFERENCE_DEVICE_KERNELS_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/device/device_kernels.h"
#include "core/linalg/kernels/blas_kernels.h"
#include "core/linalg/kernels/spmv_kernels.h"

namespace factord::testing {

class ReferenceDeviceKernels : public DeviceKernels {
 public:
  absl::string_view name() const override { return "reference-device"; }
  DeviceProbe Probe() const override {
    DeviceProbe probe;
    probe.count = 1;
    probe.device = "host (reference kernels)";
    return probe;
  }
  absl::StatusOr<std::unique_ptr<DeviceStream>> CreateStream() const override {
    if (!stream_error_.ok()) return stream_error_;
    std::lock_guard<std::mutex> lock(mu_);
    ++streams_;
    return std::make_unique<DeviceStream>();
  }
  // Streams created so far (one per request context).
  int streams() const {
    std::lock_guard<std::mutex> lock(mu_);
    return streams_;
  }

  // Calls per entry point so far ("Spmv", "ApplyBlockDiagonal", ...).
  int calls(const std::string& kernel) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = calls_.find(kernel);
    return it == calls_.end() ? 0 : it->second;
  }
  int total_calls() const {
    std::lock_guard<std::mutex> lock(mu_);
    int total = 0;
    for (const auto& [kernel, n] : calls_) total += n;
    return total;
  }
  // The call numbered `n` (0-based, over all entry points) and every later
  // one fail with `error` instead of running.
  void FailFromCall(int n, absl::Status error) {
    std::lock_guard<std::mutex> lock(mu_);
    fail_from_ = n;
    error_ = std::move(error);
  }
  void FailStreams(absl::Status error) { stream_error_ = std::move(error); }

  absl::Status Spmv(DeviceStream&, const CsrMatrix& a,
                    std::span<const double> x,
                    std::span<double> y) const override {
    return Run("Spmv", [&] { kernels::reference::Spmv(Host(), a, x, y); });
  }
  absl::StatusOr<double> Dot(DeviceStream&, std::span<const double> x,
                             std::span<const double> y) const override {
    double v = 0;
    absl::Status s =
        Run("Dot", [&] { v = kernels::reference::Dot(Host(), x, y); });
    if (!s.ok()) return s;
    return v;
  }
  absl::StatusOr<double> Norm2(DeviceStream&,
                               std::span<const double> x) const override {
    double v = 0;
    absl::Status s =
        Run("Norm2", [&] { v = kernels::reference::Norm2(Host(), x); });
    if (!s.ok()) return s;
    return v;
  }
  absl::Status Axpy(DeviceStream&, double alpha, std::span<const double> x,
                    std::span<double> y) const override {
    return Run("Axpy", [&] { kernels::reference::Axpy(Host(), alpha, x, y); });
  }
  absl::Status Axpby(DeviceStream&, double alpha, std::span<const double> x,
                     double beta, std::span<double> y) const override {
    return Run("Axpby",
               [&] { kernels::reference::Axpby(Host(), alpha, x, beta, y); });
  }
  absl::Status Scale(DeviceStream&, double alpha,
                     std::span<double> x) const override {
    return Run("Scale", [&] { kernels::reference::Scale(Host(), alpha, x); });
  }
  absl::Status Copy(DeviceStream&, std::span<const double> x,
                    std::span<double> y) const override {
    return Run("Copy", [&] { kernels::reference::Copy(Host(), x, y); });
  }
  absl::Status PointwiseProduct(DeviceStream&, std::span<const double> d,
                                std::span<const double> x,
                                std::span<double> y) const override {
    return Run("PointwiseProduct",
               [&] { kernels::reference::PointwiseProduct(Host(), d, x, y); });
  }
  absl::Status ExtractDiagonalBlocks(DeviceStream&, const CsrMatrix& a,
                                     const kernels::BlockLayout& layout,
                                     std::span<double> blocks) const override {
    return Run("ExtractDiagonalBlocks", [&] {
      kernels::reference::ExtractDiagonalBlocks(Host(), a, layout, blocks);
    });
  }
  absl::Status InvertDiagonalBlocks(DeviceStream&,
                                    const kernels::BlockLayout& layout,
                                    std::span<const double> blocks,
                                    std::span<double> inverses,
                                    std::span<uint8_t> status) const override {
    return Run("InvertDiagonalBlocks", [&] {
      kernels::reference::InvertDiagonalBlocks(Host(), layout, blocks, inverses,
                                               status);
    });
  }
  absl::Status ApplyBlockDiagonal(DeviceStream&,
                                  const kernels::BlockLayout& layout,
                                  std::span<const double> inverses,
                                  std::span<const double> r,
                                  std::span<double> z) const override {
    return Run("ApplyBlockDiagonal", [&] {
      kernels::reference::ApplyBlockDiagonal(Host(), layout, inverses, r, z);
    });
  }
  absl::Status JacobiSweep(DeviceStream&, const kernels::TriangularFactor& t,
                           kernels::Triangle triangle,
                           std::span<const double> b,
                           std::span<const double> x_old,
                           std::span<double> x_new) const override {
    return Run("JacobiSweep", [&] {
      kernels::reference::JacobiSweep(Host(), t, triangle, b, x_old, x_new);
    });
  }
  absl::Status BlockJacobiSweep(
      DeviceStream&, const kernels::TriangularFactor& t,
      kernels::Triangle triangle, const kernels::TriangularBlocks& blocks,
      std::span<const double> inverses, std::span<const double> b,
      std::span<const double> x_old, std::span<double> x_new) const override {
    return Run("BlockJacobiSweep", [&] {
      kernels::reference::BlockJacobiSweep(Host(), t, triangle, blocks,
                                           inverses, b, x_old, x_new);
    });
  }
  absl::Status FactorDenseBatch(
      DeviceStream&, const kernels::DenseBatchParams& params,
      const kernels::DenseBatch& batch) const override {
    return Run("FactorDenseBatch", [&] {
      kernels::reference::FactorDenseBatch(Host(), params, batch);
    });
  }

 protected:
  static const ExecContext& Host() {
    static const ExecContext host{.backend = Backend::kReference};
    return host;
  }
  // Counts the call and runs `body` (returning a Status), or fails it.
  template <typename Body>
  absl::Status RunChecked(const std::string& kernel, Body&& body) const {
    {
      std::lock_guard<std::mutex> lock(mu_);
      const int number = call_number_++;
      ++calls_[kernel];
      if (fail_from_ >= 0 && number >= fail_from_) return error_;
    }
    return body();
  }
  template <typename Body>
  absl::Status Run(const std::string& kernel, Body&& body) const {
    return RunChecked(kernel, [&] {
      body();
      return absl::OkStatus();
    });
  }

 private:
  mutable std::mutex mu_;
  mutable std::map<std::string, int> calls_;
  mutable int call_number_ = 0;
  mutable int streams_ = 0;
  int fail_from_ = -1;
  absl::Status error_;
  absl::Status stream_error_;
};

// Registers `kernels` as the kCuda backend for the scope of a test.
class ScopedCudaBackend {
 public:
  explicit ScopedCudaBackend(std::shared_ptr<const DeviceKernels> kernels) {
    (void)RegisterDeviceKernels(Backend::kCuda, std::move(kernels));
  }
  ~ScopedCudaBackend() { UnregisterDeviceKernels(Backend::kCuda); }
  ScopedCudaBackend(const ScopedCudaBackend&) = delete;
  ScopedCudaBackend& operator=(const ScopedCudaBackend&) = delete;
};

}  // namespace factord::testing

#endif  // FACTORD_TESTS_CORE_LINALG_REFERENCE_DEVICE_KERNELS_H_
