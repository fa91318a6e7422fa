// Block-Jacobi kernels (S3 §3) dispatched by ctx.backend
// (kernels/block_jacobi/block_jacobi_kernels.h documents sizes and
// layout; kCuda: the registered device backend, src/linalg/device_dispatch.h).
#ifndef FACTORD_SRC_LINALG_BLOCK_JACOBI_H_
#define FACTORD_SRC_LINALG_BLOCK_JACOBI_H_

#include <cstdint>
#include <span>

#include "factord/base/exec_context.h"
#include "factord/matrix/csr.h"
#include "kernels/block_jacobi/block_jacobi_kernels.h"

namespace factord::linalg {

using kernels::BlockLayout;

void ExtractDiagonalBlocks(const ExecContext& ctx, const CsrMatrix& a,
                           const BlockLayout& layout, std::span<double> blocks);
void InvertDiagonalBlocks(const ExecContext& ctx, const BlockLayout& layout,
                          std::span<const double> blocks,
                          std::span<double> inverses,
                          std::span<uint8_t> status);
void ApplyBlockDiagonal(const ExecContext& ctx, const BlockLayout& layout,
                        std::span<const double> inverses,
                        std::span<const double> r, std::span<double> z);

}  // namespace factord::linalg

#endif  // FACTORD_SRC_LINALG_BLOCK_JACOBI_H_
