// Batched dense factorizations of small blocks (S2 §IV): LU, LL^T and LDL^T
// of k x k blocks, k <= 32, with static, partial and full pivoting (and rook
// for LDL^T), implicit permutations returned as arrays, and a status per
// block. The per-block work is written once (dense_block_factor.h, on the
// host/device routines of kernels/common/: dense_lu.h, dense_cholesky.h,
// dense_ldlt.h, dense_ldlt_full.h); `reference` loops over the blocks
// serially, `cpu` runs fixed chunks of blocks on a TBB arena of ctx.threads.
// Every block is computed by the same code in both, so they agree bit for
// bit.
//
// Storage: block b is m_b x m_b column-major at values[value_offset[b]]
// (m_b = size[b], leading dimension m_b); its per-index data (permutations,
// D) lives at [index_offset[b], index_offset[b] + m_b) of the index arrays.
// On return the block holds (logical, i.e. permuted, order):
//   LU:   L strictly lower (unit diagonal implied) and U upper:
//         A(row_perm[i], col_perm[j]) = (L U)(i, j);
//   LLT:  L lower (upper zeroed): A(row_perm[i], row_perm[j]) = (L L^T)(i,j);
//         col_perm = row_perm;
//   LDLT: L unit lower (the diagonal stored as 1, zero inside a 2x2 pair),
//         D in d_diag/d_off (d_off[t] = D(t+1, t) for the first of a pair),
//         pivot_size 1, 2 (first of a pair), 0 (second of a pair):
//         A(row_perm[i], row_perm[j]) = (L D L^T)(i, j); col_perm = row_perm.
//         LDL^T always completes: tiny pivots are perturbed (status
//         kDenseTinyPivot, or kDenseZeroPivot when one was exactly zero).
#ifndef FACTORD_DENSE_KERNELS_BATCHED_DENSE_KERNELS_H_
#define FACTORD_DENSE_KERNELS_BATCHED_DENSE_KERNELS_H_

#include <cstdint>
#include <span>

#include "core/base/exec_context.h"
#include "core/dense/kernels/dense_lu.h"

namespace factord::kernels {

enum class DenseFactorKind { kLu, kLlt, kLdlt };

struct DenseBatchParams {
  DenseFactorKind kind = DenseFactorKind::kLu;
  int pivoting = kBlockPivotPartial;  // DenseBlockPivoting
  // Pivots with |p| <= tiny are tiny; with `relative` both tiny and
  // perturbation are multiplied by the block's largest |entry|.
  bool relative = true;
  double tiny = 1e-13;
  double perturbation = 1.5e-8;  // LDL^T: magnitude of a perturbed pivot
  double threshold = 0.01;       // LDL^T Bunch-Kaufman/rook threshold u
};

// Views of one batch; the caller owns every array.
struct DenseBatch {
  std::span<const int32_t> size;          // B: each in [1, 32]
  std::span<const int64_t> value_offset;  // B
  std::span<const int64_t> index_offset;  // B
  std::span<double> values;               // in/out: the blocks
  std::span<int32_t> row_perm;            // per index (out)
  std::span<int32_t> col_perm;            // per index (out)
  std::span<int8_t> pivot_size;           // per index (out, LDLT; else 1)
  std::span<double> d_diag;               // per index (out, LDLT; else 0)
  std::span<double> d_off;                // per index (out, LDLT; else 0)
  std::span<int8_t> status;               // B (out): DenseBlockStatus
  std::span<int32_t> step;                // B (out): first trouble step
  int64_t num_blocks() const { return static_cast<int64_t>(size.size()); }
};

namespace reference {
void FactorDenseBatch(const ExecContext& ctx, const DenseBatchParams& params,
                      const DenseBatch& batch);
}  // namespace reference

namespace cpu {
void FactorDenseBatch(const ExecContext& ctx, const DenseBatchParams& params,
                      const DenseBatch& batch);
}  // namespace cpu

// The backend's kernel (core/dense/batched_dense.cc; kCuda: the registered
// device backend, core/device/device_dispatch.h).
void FactorDenseBatch(const ExecContext& ctx, const DenseBatchParams& params,
                      const DenseBatch& batch);

}  // namespace factord::kernels

#endif  // FACTORD_DENSE_KERNELS_BATCHED_DENSE_KERNELS_H_
