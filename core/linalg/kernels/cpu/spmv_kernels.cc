// Threaded CSR product: fixed chunks of rows, each row summed serially.
#include "core/linalg/kernels/spmv_kernels.h"

#include <algorithm>

#include "core/kernels/cpu/parallel.h"

namespace factord::kernels::cpu {
namespace {
constexpr int64_t kRowsPerChunk = 1024;
}  // namespace

void Spmv(const ExecContext& ctx, const CsrMatrix& a, std::span<const double> x,
          std::span<double> y) {
  const int64_t n = a.rows;
  ForEachChunk(ctx, ChunkCount(n, kRowsPerChunk), [&](int64_t c) {
    const int64_t end = std::min(n, (c + 1) * kRowsPerChunk);
    for (int64_t i = c * kRowsPerChunk; i < end; ++i) {
      double sum = 0;
      for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        sum += a.values[k] * x[a.col_idx[k]];
      }
      y[i] = sum;
    }
  });
}

}  // namespace factord::kernels::cpu
