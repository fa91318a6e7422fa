// How the blocked dense front kernels cut their BLAS 3 work into tasks of
// the caller's TBB arena (OpenBLAS runs on one thread, see
// core/kernels/cpu/blas_threads.h). Every chunk is one single-threaded
// BLAS call on fixed operands, and the cut depends only on the sizes, so
// the result does not depend on the number of threads.
#ifndef FACTORD_DENSE_KERNELS_CPU_DENSE_CHUNKS_H_
#define FACTORD_DENSE_KERNELS_CPU_DENSE_CHUNKS_H_

#include <algorithm>
#include <cstdint>

#include "cblas.h"
#include "core/kernels/cpu/parallel.h"

namespace factord::internal {

// Columns per task of the update of the remaining fully summed columns
// after a block: about a quarter of them (so that a few threads share even
// the last blocks' updates), a multiple of 32 between 64 and 256 (dgemm
// needs some width to run at its speed).
inline int UpdateChunkColumns(int columns) {
  const int quarter = (columns + 3) / 4;
  return std::clamp((quarter + 31) / 32 * 32, 64, 256);
}

// The lower trapezoid of C -= L W^T (C rows x cols, cols <= rows; L rows x
// k, W cols x k) by column chunks, each one dgemm:
// C(j:rows, j:j+nc) -= L(j:rows, :) W(j:j+nc, :)^T. A chunk's diagonal
// block is computed whole; its upper part is unused.
inline void ChunkedLowerUpdate(int rows, int cols, int k, const double* l,
                               int ldl, const double* w, int ldw, double* c,
                               int ldc, int chunk_columns) {
  kernels::cpu::ForEachChunkInArena(
      kernels::cpu::ChunkCount(cols, chunk_columns), [&](int64_t chunk) {
        const int j = static_cast<int>(chunk) * chunk_columns;
        const int nc = std::min(chunk_columns, cols - j);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, rows - j, nc, k,
                    -1.0, l + j, ldl, w + j, ldw, 1.0,
                    c + static_cast<size_t>(j) * ldc + j, ldc);
      });
}

// B := B L^{-T} (L unit lower, n x n; B rows x n, column-major) by row
// chunks, each one dtrsm on its rows.
inline void ChunkedUnitLowerTrsmRight(int rows, int n, const double* l, int ldl,
                                      double* b, int ldb) {
  // Rows per task: tall enough for dtrsm's blocking, short enough that a
  // front's rows below a block split over a few threads.
  constexpr int kRowChunk = 512;
  kernels::cpu::ForEachChunkInArena(
      kernels::cpu::ChunkCount(rows, kRowChunk), [&](int64_t chunk) {
        const int r0 = static_cast<int>(chunk) * kRowChunk;
        const int nr = std::min(kRowChunk, rows - r0);
        cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans,
                    CblasUnit, nr, n, 1.0, l, ldl, b + r0, ldb);
      });
}

}  // namespace factord::internal

#endif  // FACTORD_DENSE_KERNELS_CPU_DENSE_CHUNKS_H_
