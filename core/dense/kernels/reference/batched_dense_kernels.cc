// Reference batched dense factorizations (S2 §IV): the blocks one after
// another, each by the shared per-block routine.
#include "core/dense/kernels/batched_dense_kernels.h"

#include "core/dense/kernels/dense_block_factor.h"

namespace factord::kernels::reference {

void FactorDenseBatch(const ExecContext& ctx, const DenseBatchParams& params,
                      const DenseBatch& batch) {
  (void)ctx;
  for (int64_t b = 0; b < batch.num_blocks(); ++b) {
    FactorDenseBlock(params, batch, b);
  }
}

}  // namespace factord::kernels::reference
