// Backend dispatch of the vector kernels: per kernel, a switch on
// ctx.backend (kReference, kCpu) that falls through to the registered device
// backend for kCuda (core/device/device_dispatch.h).
#include "core/linalg/blas.h"

#include <limits>

#include "core/device/device_dispatch.h"
#include "core/linalg/kernels/blas_kernels.h"

namespace factord::linalg {

namespace ref = kernels::reference;
namespace cpu = kernels::cpu;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A device reduction: its value, or NaN when the call failed (recorded).
template <typename Call>
double DeviceReduction(const ExecContext& ctx, absl::string_view kernel,
                       int64_t bytes, Call&& call) {
  double value = kNaN;
  RunOnDevice(ctx, kernel, bytes,
              [&](const DeviceKernels& k, DeviceStream& s) -> absl::Status {
                absl::StatusOr<double> result = call(k, s);
                if (!result.ok()) return result.status();
                value = *result;
                return absl::OkStatus();
              });
  return value;
}

// A device operation writing `out`, which is NaN when the call failed.
template <typename Call>
void DeviceUpdate(const ExecContext& ctx, absl::string_view kernel,
                  int64_t bytes, std::span<double> out, Call&& call) {
  if (!RunOnDevice(ctx, kernel, bytes, call)) FillNaN(out);
}

}  // namespace

double Dot(const ExecContext& ctx, std::span<const double> x,
           std::span<const double> y) {
  switch (ctx.backend) {
    case Backend::kReference:
      return ref::Dot(ctx, x, y);
    case Backend::kCpu:
      return cpu::Dot(ctx, x, y);
    case Backend::kCuda:
      break;
  }
  return DeviceReduction(
      ctx, "Dot", SumDeviceBytes(x, y),
      [&](const DeviceKernels& k, DeviceStream& s) { return k.Dot(s, x, y); });
}

double Norm2(const ExecContext& ctx, std::span<const double> x) {
  switch (ctx.backend) {
    case Backend::kReference:
      return ref::Norm2(ctx, x);
    case Backend::kCpu:
      return cpu::Norm2(ctx, x);
    case Backend::kCuda:
      break;
  }
  return DeviceReduction(
      ctx, "Norm2", SumDeviceBytes(x),
      [&](const DeviceKernels& k, DeviceStream& s) { return k.Norm2(s, x); });
}

double NormInf(const ExecContext& ctx, std::span<const double> x) {
  switch (ctx.backend) {
    case Backend::kReference:
      return ref::NormInf(ctx, x);
    case Backend::kCpu:
    case Backend::kCuda:
      // kCuda too: cuBLAS's Idamax lacks the reference's NaN rule, so the
      // device backend has no NormInf; it runs on the host.
      break;
  }
  return cpu::NormInf(ctx, x);
}

void Axpy(const ExecContext& ctx, double alpha, std::span<const double> x,
          std::span<double> y) {
  switch (ctx.backend) {
    case Backend::kReference:
      return ref::Axpy(ctx, alpha, x, y);
    case Backend::kCpu:
      return cpu::Axpy(ctx, alpha, x, y);
    case Backend::kCuda:
      break;
  }
  DeviceUpdate(ctx, "Axpy", SumDeviceBytes(x, y), y,
               [&](const DeviceKernels& k, DeviceStream& s) {
                 return k.Axpy(s, alpha, x, y);
               });
}

void Axpby(const ExecContext& ctx, double alpha, std::span<const double> x,
           double beta, std::span<double> y) {
  switch (ctx.backend) {
    case Backend::kReference:
      return ref::Axpby(ctx, alpha, x, beta, y);
    case Backend::kCpu:
      return cpu::Axpby(ctx, alpha, x, beta, y);
    case Backend::kCuda:
      break;
  }
  DeviceUpdate(ctx, "Axpby", SumDeviceBytes(x, y), y,
               [&](const DeviceKernels& k, DeviceStream& s) {
                 return k.Axpby(s, alpha, x, beta, y);
               });
}

void Scale(const ExecContext& ctx, double alpha, std::span<double> x) {
  switch (ctx.backend) {
    case Backend::kReference:
      return ref::Scale(ctx, alpha, x);
    case Backend::kCpu:
      return cpu::Scale(ctx, alpha, x);
    case Backend::kCuda:
      break;
  }
  DeviceUpdate(ctx, "Scale", SumDeviceBytes(x), x,
               [&](const DeviceKernels& k, DeviceStream& s) {
                 return k.Scale(s, alpha, x);
               });
}

void Copy(const ExecContext& ctx, std::span<const double> x,
          std::span<double> y) {
  switch (ctx.backend) {
    case Backend::kReference:
      return ref::Copy(ctx, x, y);
    case Backend::kCpu:
      return cpu::Copy(ctx, x, y);
    case Backend::kCuda:
      break;
  }
  DeviceUpdate(
      ctx, "Copy", SumDeviceBytes(x, y), y,
      [&](const DeviceKernels& k, DeviceStream& s) { return k.Copy(s, x, y); });
}

void PointwiseProduct(const ExecContext& ctx, std::span<const double> d,
                      std::span<const double> x, std::span<double> y) {
  switch (ctx.backend) {
    case Backend::kReference:
      return ref::PointwiseProduct(ctx, d, x, y);
    case Backend::kCpu:
      return cpu::PointwiseProduct(ctx, d, x, y);
    case Backend::kCuda:
      break;
  }
  DeviceUpdate(ctx, "PointwiseProduct", SumDeviceBytes(d, x, y), y,
               [&](const DeviceKernels& k, DeviceStream& s) {
                 return k.PointwiseProduct(s, d, x, y);
               });
}

}  // namespace factord::linalg
