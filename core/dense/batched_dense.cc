// Backend dispatch of the batched dense block factorizations
// (core/dense/kernels/batched_dense_kernels.h).
#include <algorithm>

#include "core/dense/kernels/batched_dense_kernels.h"
#include "core/device/device_dispatch.h"

namespace factord::kernels {

void FactorDenseBatch(const ExecContext& ctx, const DenseBatchParams& params,
                      const DenseBatch& batch) {
  switch (ctx.backend) {
    case Backend::kReference:
      reference::FactorDenseBatch(ctx, params, batch);
      return;
    case Backend::kCpu:
      cpu::FactorDenseBatch(ctx, params, batch);
      return;
    case Backend::kCuda: {
      const int64_t bytes = linalg::SumDeviceBytes(
          batch.size, batch.value_offset, batch.index_offset, batch.values,
          batch.row_perm, batch.col_perm, batch.pivot_size, batch.d_diag,
          batch.d_off, batch.status, batch.step);
      if (!linalg::RunOnDevice(ctx, "FactorDenseBatch", bytes,
                               [&](const DeviceKernels& k, DeviceStream& s) {
                                 return k.FactorDenseBatch(s, params, batch);
                               })) {
        linalg::FillNaN(batch.values);
        linalg::FillNaN(batch.d_diag);
        linalg::FillNaN(batch.d_off);
        std::fill(batch.status.begin(), batch.status.end(),
                  static_cast<int8_t>(kDenseNotFinite));
      }
      return;
    }
  }
}

}  // namespace factord::kernels
