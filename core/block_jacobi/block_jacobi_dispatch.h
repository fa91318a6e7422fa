// Block-Jacobi kernels (S3 §3) dispatched by ctx.backend
// (core/block_jacobi/kernels/block_jacobi_kernels.h documents sizes and
// layout; kCuda: the registered device backend, core/device/device_dispatch.h).
#ifndef FACTORD_BLOCK_JACOBI_BLOCK_JACOBI_DISPATCH_H_
#define FACTORD_BLOCK_JACOBI_BLOCK_JACOBI_DISPATCH_H_

#include <cstdint>
#include <span>

#include "core/base/exec_context.h"
#include "core/block_jacobi/kernels/block_jacobi_kernels.h"
#include "core/matrix/csr.h"

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

#endif  // FACTORD_BLOCK_JACOBI_BLOCK_JACOBI_DISPATCH_H_
