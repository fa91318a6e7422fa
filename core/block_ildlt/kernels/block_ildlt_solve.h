// The per-block solves of the block incomplete LDL^T (S1 §IV-C), written
// once for the host (core/block_ildlt/block_ildlt_apply.cc) and the CUDA
// kernels (core/block_ildlt/kernels/cuda/block_ildlt_solve_launch.cu), so both
// give the same bits: the forward substitution of one block row in pull form
// (the blocks (I, K), K ascending, then the unit L_II in its pivot order),
// D^{-1} on one block (1x1 and 2x2 pivots), the backward substitution of one
// block column in pull form (the blocks (I, J), I ascending, then L_JJ^T).
// Dropped blocks are skipped. A block row (column) reads only w (x) of blocks
// of earlier (later) levels and writes only its own entries, so the blocks of
// one level may run in any order or at once. No allocation; host and device.
#ifndef FACTORD_BLOCK_ILDLT_KERNELS_BLOCK_ILDLT_SOLVE_H_
#define FACTORD_BLOCK_ILDLT_KERNELS_BLOCK_ILDLT_SOLVE_H_

#include <cstdint>

#include "core/kernels/host_device.h"

namespace factord::kernels {

// The factor as the solves read it: BlockIldltStructure's arrays and
// BlockIldltFactor's (sizes and layout as in core/block_ildlt/block_ildlt.h),
// host or device pointers.
struct BlockIldltSolveView {
  const int32_t* block_ptr = nullptr;     // num_blocks + 1
  const int64_t* col_ptr = nullptr;       // num_blocks + 1
  const int32_t* row_block = nullptr;     // slots
  const int64_t* value_ptr = nullptr;     // slots + 1
  const int64_t* row_ptr = nullptr;       // num_blocks + 1
  const int64_t* row_slot = nullptr;      // row entries
  const int32_t* row_slot_col = nullptr;  // row entries
  const double* values = nullptr;         // value_ptr[slots]
  const uint8_t* kept = nullptr;          // slots
  const int32_t* pivot_order = nullptr;   // n
  const int8_t* pivot_size = nullptr;     // n
  const double* d_diag = nullptr;         // n
  const double* d_off = nullptr;          // n
};

// Forward, block row i: y_I -= sum_K L(I,K) w_K (K ascending), then
// w_I = L_II^{-1} P_I y_I. y and w have n entries.
FACTORD_HOST_DEVICE inline void BlockRowForward(const BlockIldltSolveView& f,
                                                int64_t i, double* y,
                                                double* w) {
  const int64_t start = f.block_ptr[i];
  const int bi = f.block_ptr[i + 1] - f.block_ptr[i];
  double* yi = y + start;
  for (int64_t r = f.row_ptr[i]; r < f.row_ptr[i + 1]; ++r) {
    const int64_t t = f.row_slot[r];
    if (!f.kept[t]) continue;
    const int32_t k = f.row_slot_col[r];
    const int bk = f.block_ptr[k + 1] - f.block_ptr[k];
    const double* l = f.values + f.value_ptr[t];
    const double* wk = w + f.block_ptr[k];
    for (int c = 0; c < bk; ++c) {
      const double v = wk[c];
      if (v == 0) continue;
      for (int r2 = 0; r2 < bi; ++r2) yi[r2] -= l[r2 + c * bi] * v;
    }
  }
  const double* diag = f.values + f.value_ptr[f.col_ptr[i]];
  double* wi = w + start;
  for (int c = 0; c < bi; ++c) wi[c] = yi[f.pivot_order[start + c]];
  for (int c = 0; c < bi; ++c) {
    const double v = wi[c];
    if (v == 0) continue;
    for (int r2 = c + 1; r2 < bi; ++r2) wi[r2] -= diag[r2 + c * bi] * v;
  }
}

// D^{-1} on block j's entries of w (a 2x2 pivot never crosses a block).
FACTORD_HOST_DEVICE inline void BlockDiagonalSolve(const BlockIldltSolveView& f,
                                                   int64_t j, double* w) {
  for (int64_t k = f.block_ptr[j]; k < f.block_ptr[j + 1]; ++k) {
    if (f.pivot_size[k] == 2) {
      const double p = f.d_diag[k], q = f.d_off[k], u = f.d_diag[k + 1];
      const double det = p * u - q * q;
      const double w0 = w[k], w1 = w[k + 1];
      w[k] = (w0 * u - w1 * q) / det;
      w[k + 1] = (w1 * p - w0 * q) / det;
      ++k;
    } else {
      w[k] /= f.d_diag[k];
    }
  }
}

// Backward, block column j: u_J = w_J - sum_I L(I,J)^T x_I (I ascending),
// then x_J = P_J^T L_JJ^{-T} u_J, written into y (= x).
FACTORD_HOST_DEVICE inline void BlockColumnBackward(
    const BlockIldltSolveView& f, int64_t j, double* y, double* w) {
  const int64_t start = f.block_ptr[j];
  const int bj = f.block_ptr[j + 1] - f.block_ptr[j];
  const double* diag = f.values + f.value_ptr[f.col_ptr[j]];
  double* uj = w + start;
  for (int64_t t = f.col_ptr[j] + 1; t < f.col_ptr[j + 1]; ++t) {
    if (!f.kept[t]) continue;
    const int32_t ib = f.row_block[t];
    const int bi = f.block_ptr[ib + 1] - f.block_ptr[ib];
    const double* l = f.values + f.value_ptr[t];
    const double* xi = y + f.block_ptr[ib];
    for (int c = 0; c < bj; ++c) {
      double sum = 0;
      for (int r2 = 0; r2 < bi; ++r2) sum += l[r2 + c * bi] * xi[r2];
      uj[c] -= sum;
    }
  }
  for (int c = bj - 1; c >= 0; --c) {
    double sum = uj[c];
    for (int r2 = c + 1; r2 < bj; ++r2) sum -= diag[r2 + c * bj] * uj[r2];
    uj[c] = sum;
  }
  for (int c = 0; c < bj; ++c) y[start + f.pivot_order[start + c]] = uj[c];
}

}  // namespace factord::kernels

#endif  // FACTORD_BLOCK_ILDLT_KERNELS_BLOCK_ILDLT_SOLVE_H_
