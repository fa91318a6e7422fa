// Threaded triangular-solve kernels (S4 §2.1). The sweeps are parallel over
// rows (scalar Jacobi) or blocks (block Jacobi) in fixed chunks; the
// substitution is level-scheduled: the rows of one level set depend only on
// earlier levels, so they run in parallel chunks, one level after another.
// Each row is computed exactly as in the reference.
#include "core/trisolve/kernels/trisolve_kernels.h"

#include <algorithm>

#include "core/kernels/cpu/parallel.h"
#include "core/trisolve/kernels/trisolve_rows.h"

namespace factord::kernels::cpu {
namespace {

constexpr int64_t kRowsPerChunk = 512;
constexpr int64_t kBlocksPerChunk = 64;

template <typename Body>
void ForEachInChunks(const ExecContext& ctx, int64_t count, int64_t chunk,
                     Body body) {
  ForEachChunk(ctx, ChunkCount(count, chunk), [&](int64_t c) {
    const int64_t end = std::min(count, (c + 1) * chunk);
    for (int64_t k = c * chunk; k < end; ++k) body(k);
  });
}

}  // namespace

void Substitute(const ExecContext& ctx, const TriangularFactor& t,
                Triangle triangle, const LevelSchedule& levels,
                std::span<const double> b, std::span<double> x) {
  const int64_t num_levels = static_cast<int64_t>(levels.level_ptr.size()) - 1;
  for (int64_t l = 0; l < num_levels; ++l) {
    const int64_t first = levels.level_ptr[l];
    ForEachInChunks(ctx, levels.level_ptr[l + 1] - first, kRowsPerChunk,
                    [&](int64_t k) {
                      const int32_t i = levels.rows[first + k];
                      x[i] = TriangularRowUpdate(t, triangle, i, b, x);
                    });
  }
}

void JacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                 Triangle triangle, std::span<const double> b,
                 std::span<const double> x_old, std::span<double> x_new) {
  ForEachInChunks(ctx, t.n(), kRowsPerChunk, [&](int64_t i) {
    x_new[i] = TriangularRowUpdate(t, triangle, i, b, x_old);
  });
}

void BlockJacobiSweep(const ExecContext& ctx, const TriangularFactor& t,
                      Triangle triangle, const TriangularBlocks& blocks,
                      std::span<const double> inverses,
                      std::span<const double> b, std::span<const double> x_old,
                      std::span<double> x_new) {
  ForEachInChunks(ctx, blocks.num_blocks(), kBlocksPerChunk, [&](int64_t k) {
    BlockJacobiUpdate(t, triangle, blocks, k, inverses, b, x_old, x_new);
  });
}

void ExtractTriangularBlocks(const ExecContext& ctx, const TriangularFactor& t,
                             Triangle triangle, const TriangularBlocks& blocks,
                             std::span<double> dense) {
  ForEachInChunks(ctx, blocks.num_blocks(), kBlocksPerChunk, [&](int64_t k) {
    ExtractTriangularBlock(t, triangle, blocks, k, dense);
  });
}

}  // namespace factord::kernels::cpu
