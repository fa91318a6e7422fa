// Small dense block helpers shared by the Jacobi LDL^T sweeps and their
// reconstruction error (S2 Alg. 2): blocks of at most 32 x 32 in
// block_ildlt's layout, column-major. Internal to jacobi_ldlt_*.cc.
#ifndef FACTORD_JACOBI_LDLT_JACOBI_LDLT_BLOCKS_H_
#define FACTORD_JACOBI_LDLT_JACOBI_LDLT_BLOCKS_H_

#include <algorithm>
#include <cstdint>
#include <span>

#include "core/block_ildlt/block_ildlt.h"
#include "core/jacobi_ldlt/jacobi_ldlt_sweeps.h"
#include "core/kernels/cpu/parallel.h"

namespace factord::internal::jacobi_ldlt {

inline constexpr int kMaxBlock = 32;

// True when ForEachIndex runs on the calling thread: the reference
// backend, or a threaded one (kCpu, and kCuda, which has no jacobi_ldlt
// device kernels and runs the cpu path) with one thread.
inline bool RunsSerially(const ExecContext& ctx) {
  switch (ctx.backend) {
    case Backend::kReference:
      return true;
    case Backend::kCpu:
    case Backend::kCuda:
      break;
  }
  return ctx.threads <= 1;
}

// Runs body(i) for i in [0, count): serially when RunsSerially(ctx), in
// fixed chunks on the cpu arena otherwise. body writes only data of i.
template <typename Body>
inline void ForEachIndex(const ExecContext& ctx, int64_t count, Body&& body) {
  if (RunsSerially(ctx)) {
    for (int64_t i = 0; i < count; ++i) body(i);
    return;
  }
  constexpr int64_t kChunk = 16;
  kernels::cpu::ForEachChunk(
      ctx, kernels::cpu::ChunkCount(count, kChunk), [&](int64_t c) {
        const int64_t end = std::min(count, (c + 1) * kChunk);
        for (int64_t i = c * kChunk; i < end; ++i) body(i);
      });
}

// w (rows x bk, column-major) = l D_K with l rows x bk and D_K given at the
// block's first index (1x1 and 2x2 pivots).
inline void TimesD(const double* l, int rows, int bk, const int8_t* ps,
                   const double* dd, const double* doff, double* w) {
  for (int c = 0; c < bk; ++c) {
    if (ps[c] == 2) {
      const double p = dd[c], q = doff[c], u = dd[c + 1];
      for (int i = 0; i < rows; ++i) {
        const double l0 = l[i + c * rows], l1 = l[i + (c + 1) * rows];
        w[i + c * rows] = l0 * p + l1 * q;
        w[i + (c + 1) * rows] = l0 * q + l1 * u;
      }
      ++c;
    } else {
      for (int i = 0; i < rows; ++i) w[i + c * rows] = l[i + c * rows] * dd[c];
    }
  }
}

// c (bi x bj) += sign * x (bi x bk) y^T (y: bj x bk), column-major.
inline void AddProduct(double sign, const double* x, int bi, const double* y,
                       int bj, int bk, double* c) {
  for (int k = 0; k < bk; ++k) {
    for (int j = 0; j < bj; ++j) {
      const double yv = sign * y[j + k * bj];
      if (yv == 0) continue;
      for (int i = 0; i < bi; ++i) c[i + j * bi] += x[i + k * bi] * yv;
    }
  }
}

// A view of one iterate (values, pivots, D) over the structure.
struct IterateView {
  const BlockIldltStructure& s;
  std::span<const double> values;
  std::span<const uint8_t> kept;
  std::span<const int32_t> pivot_order;
  std::span<const int8_t> pivot_size;
  std::span<const double> d_diag;
  std::span<const double> d_off;

  bool Kept(int64_t t) const { return kept.empty() || kept[t] != 0; }
  // c += sign * L(X,K) D_K L(Y,K)^T for slots tx = (X,K), ty = (Y,K).
  void AddLdlt(double sign, int64_t tx, int64_t ty, int32_t k, double* c,
               double* w) const {
    if (!Kept(tx) || !Kept(ty)) return;
    const int bk = s.block_size(k);
    const int bx = s.block_size(s.row_block[tx]);
    const int by = s.block_size(s.row_block[ty]);
    const int64_t kstart = s.block_ptr[k];
    TimesD(&values[s.value_ptr[ty]], by, bk, &pivot_size[kstart],
           &d_diag[kstart], &d_off[kstart], w);
    AddProduct(sign, &values[s.value_ptr[tx]], bx, w, by, bk, c);
  }
};

inline IterateView View(const BlockIldltStructure& s,
                        const BlockLdltIterate& it) {
  return {s, it.values, {}, it.pivot_order, it.pivot_size, it.d_diag, it.d_off};
}

// r(:, p(J)) += L(X,J) D_J L(J,J)^T, the term of the diagonal factor of J in
// block (X,J) of L D L^T, for the slot t = (X,J) (r: rows of X, leading
// dimension their count). For the diagonal slot t = (J,J) the rows are
// permuted too: r(p(J), p(J)) += L(J,J) D_J L(J,J)^T.
inline void AddDiagonalFactorTerm(const IterateView& f, int64_t t, int32_t j,
                                  double* r) {
  const BlockIldltStructure& s = f.s;
  const int bi = s.block_size(s.row_block[t]), bj = s.block_size(j);
  const int64_t start = s.block_ptr[j];
  const int64_t tjj = s.col_ptr[j];
  double w[kMaxBlock * kMaxBlock], prod[kMaxBlock * kMaxBlock];
  TimesD(&f.values[s.value_ptr[t]], bi, bj, &f.pivot_size[start],
         &f.d_diag[start], &f.d_off[start], w);
  std::fill(prod, prod + bi * bj, 0.0);
  AddProduct(1.0, w, bi, &f.values[s.value_ptr[tjj]], bj, bj, prod);
  const int32_t* p = &f.pivot_order[start];
  const bool diagonal = t == tjj;
  for (int cc = 0; cc < bj; ++cc) {
    for (int ii = 0; ii < bi; ++ii) {
      const int row = diagonal ? p[ii] : ii;
      r[row + p[cc] * bi] += prod[ii + cc * bi];
    }
  }
}

}  // namespace factord::internal::jacobi_ldlt

#endif  // FACTORD_JACOBI_LDLT_JACOBI_LDLT_BLOCKS_H_
