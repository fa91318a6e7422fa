// Threaded batched dense factorizations (S2 §IV): fixed chunks of blocks on
// the TBB arena of ctx.threads (core/kernels/cpu/parallel.h); each block is
// computed by the same routine as in the reference, so the results are
// identical. The backend dispatch of FactorDenseBatch is in
// core/dense/batched_dense.cc.
#include "core/dense/kernels/batched_dense_kernels.h"

#include <algorithm>

#include "core/dense/kernels/dense_block_factor.h"
#include "core/kernels/cpu/parallel.h"

namespace factord::kernels {
namespace cpu {

constexpr int64_t kBlocksPerChunk = 32;

void FactorDenseBatch(const ExecContext& ctx, const DenseBatchParams& params,
                      const DenseBatch& batch) {
  const int64_t num_blocks = batch.num_blocks();
  ForEachChunk(ctx, ChunkCount(num_blocks, kBlocksPerChunk), [&](int64_t c) {
    const int64_t end = std::min(num_blocks, (c + 1) * kBlocksPerChunk);
    for (int64_t b = c * kBlocksPerChunk; b < end; ++b) {
      FactorDenseBlock(params, batch, b);
    }
  });
}

}  // namespace cpu

}  // namespace factord::kernels
