// Backend dispatch of the CSR product.
#include "core/linalg/spmv.h"

#include "core/device/device_dispatch.h"
#include "core/linalg/kernels/spmv_kernels.h"

namespace factord::linalg {

void Spmv(const ExecContext& ctx, const CsrMatrix& a, std::span<const double> x,
          std::span<double> y) {
  switch (ctx.backend) {
    case Backend::kReference:
      kernels::reference::Spmv(ctx, a, x, y);
      return;
    case Backend::kCpu:
      kernels::cpu::Spmv(ctx, a, x, y);
      return;
    case Backend::kCuda:
      if (!RunOnDevice(ctx, "Spmv", SumDeviceBytes(a, x, y),
                       [&](const DeviceKernels& k, DeviceStream& s) {
                         return k.Spmv(s, a, x, y);
                       })) {
        FillNaN(y);
      }
      return;
  }
}

}  // namespace factord::linalg
