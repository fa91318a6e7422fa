// The work on one row or one block of the triangular-solve kernels (S4
// §2.1), written once: the reference backend loops serially, the cpu backend
// in parallel chunks (and level sets for the substitution), and both call
// these, so they agree bit for bit. The CUDA sweeps
// (core/trisolve/kernels/cuda/trisolve_launch.cu) call the FACTORD_HOST_DEVICE
// ones on the device, one thread per row or one lane per block row.
#ifndef FACTORD_TRISOLVE_KERNELS_TRISOLVE_ROWS_H_
#define FACTORD_TRISOLVE_KERNELS_TRISOLVE_ROWS_H_

#include <algorithm>
#include <cstdint>
#include <span>

#include "core/dense/kernels/gauss_jordan.h"
#include "core/kernels/host_device.h"
#include "core/trisolve/kernels/trisolve_kernels.h"

namespace factord::kernels {

// (b_i - sum_{j != i} T_ij x_j) / T_ii over the stored strict part of row i
// of the triangle, in ascending column order. With x = the solution so far
// this is forward/backward substitution; with x = x_old it is one Jacobi
// update (S4 eq. 2 written as x_new = D^{-1}(b - (T - D) x_old)).
FACTORD_HOST_DEVICE inline double TriangularRowUpdate(
    const TriangularFactor& t, Triangle triangle, int64_t i,
    std::span<const double> b, std::span<const double> x) {
  const bool lower = triangle == Triangle::kLower;
  const int64_t begin = lower ? t.row_ptr[i] : t.diag[i] + 1;
  const int64_t end = lower ? t.diag[i] : t.row_ptr[i + 1];
  double s = b[i];
  for (int64_t p = begin; p < end; ++p) s -= t.values[p] * x[t.col_idx[p]];
  return lower ? s : s / t.values[t.diag[i]];
}

// S4 eq. 5, one row: r_i = b_i - sum T_ij x_old_j over the stored strict
// part of row i of the triangle outside the diagonal block [first, last),
// in ascending column order.
FACTORD_HOST_DEVICE inline double BlockRowResidual(
    const TriangularFactor& t, Triangle triangle, int64_t first, int64_t last,
    int64_t i, std::span<const double> b, std::span<const double> x_old) {
  const bool lower = triangle == Triangle::kLower;
  const int64_t begin = lower ? t.row_ptr[i] : t.diag[i] + 1;
  const int64_t end = lower ? t.diag[i] : t.row_ptr[i + 1];
  double s = b[i];
  for (int64_t p = begin; p < end; ++p) {
    const int32_t c = t.col_idx[p];
    if (c >= first && c < last) continue;  // inside D_B
    s -= t.values[p] * x_old[c];
  }
  return s;
}

// S4 eqs. 4-5 for block `block`: r = b - (T - D_B) x_old on its rows (only
// the entries of the triangle outside the diagonal block), then x_new =
// D_B^{-1} r with the stored inverse.
inline void BlockJacobiUpdate(const TriangularFactor& t, Triangle triangle,
                              const TriangularBlocks& blocks, int64_t block,
                              std::span<const double> inverses,
                              std::span<const double> b,
                              std::span<const double> x_old,
                              std::span<double> x_new) {
  const int64_t first = blocks.block_ptr[block];
  const int64_t last = blocks.block_ptr[block + 1];  // one past the block
  const int64_t m = last - first;
  double r[kMaxGaussJordanSize];
  for (int64_t li = 0; li < m; ++li) {
    r[li] = BlockRowResidual(t, triangle, first, last, first + li, b, x_old);
  }
  const double* inverse = inverses.data() + blocks.value_ptr[block];
  for (int64_t li = 0; li < m; ++li) {
    double sum = 0;
    for (int64_t lj = 0; lj < m; ++lj) sum += inverse[li * m + lj] * r[lj];
    x_new[first + li] = sum;
  }
}

// The dense diagonal block `block` of the triangle (S4 eq. 5), row-major.
inline void ExtractTriangularBlock(const TriangularFactor& t, Triangle triangle,
                                   const TriangularBlocks& blocks,
                                   int64_t block, std::span<double> dense) {
  const int64_t first = blocks.block_ptr[block];
  const int64_t last = blocks.block_ptr[block + 1];
  const int64_t m = last - first;
  double* out = dense.data() + blocks.value_ptr[block];
  std::fill(out, out + m * m, 0.0);
  const bool lower = triangle == Triangle::kLower;
  for (int64_t li = 0; li < m; ++li) {
    const int64_t i = first + li;
    const int64_t begin = lower ? t.row_ptr[i] : t.diag[i];
    const int64_t end = lower ? t.diag[i] : t.row_ptr[i + 1];
    for (int64_t p = begin; p < end; ++p) {
      const int32_t c = t.col_idx[p];
      if (c >= first && c < last) out[li * m + (c - first)] = t.values[p];
    }
    if (lower) out[li * m + li] = 1.0;  // unit diagonal, not stored
  }
}

}  // namespace factord::kernels

#endif  // FACTORD_TRISOLVE_KERNELS_TRISOLVE_ROWS_H_
