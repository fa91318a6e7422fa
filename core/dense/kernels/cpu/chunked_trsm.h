// B := B L^{-T} (L unit lower, n x n; B rows x n, column-major) as
// independent row chunks, tasks of the caller's TBB arena: each chunk is
// one single-threaded dtrsm on its rows, so the result does not depend on
// the number of threads. The dense front kernels solve their rows below a
// diagonal block this way (OpenBLAS runs on one thread, see
// core/kernels/cpu/blas_threads.h).
#ifndef FACTORD_DENSE_KERNELS_CPU_CHUNKED_TRSM_H_
#define FACTORD_DENSE_KERNELS_CPU_CHUNKED_TRSM_H_

#include <algorithm>
#include <cstdint>

#include "cblas.h"
#include "core/kernels/cpu/parallel.h"

namespace factord::internal {

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

#endif  // FACTORD_DENSE_KERNELS_CPU_CHUNKED_TRSM_H_
