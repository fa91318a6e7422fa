// The per-block arithmetic of the numeric block incomplete LDL^T (S1 §IV-B,
// Alg. 1 and 2), written once for the host column code
// (core/block_ildlt/block_ildlt_column.cc) and the CUDA kernels
// (core/block_ildlt/kernels/cuda/block_ildlt_launch.cu), so that both produce
// the same bits:
//   - the terms K of the pull update of one block (I, J), K ascending (S1
//     Fig. 2b), W = L(J,K) D_K (1x1 and 2x2 pivots of D_K) and the update
//     A(I,J) -= L(I,K) W, each entry receiving its terms in ascending pivot
//     order c of K, skipping the zero entries of W;
//   - L_JJ in pivot order from the dense LDL^T of the diagonal block;
//   - the off-diagonal solve X L_JJ^{-T} D_J^{-1} on a range of rows (the
//     rows of a block are independent: the host passes all of them, a
//     device thread one);
//   - the column 2-norms of L and the tau rule (S1 §IV-B3);
//   - the leftover pool of S1 Alg. 2 in its level-wise form
//     (core/block_ildlt/block_ildlt_leftover.h);
//   - the strict order of Finish's second rule: |v| descending, then the
//     position in the column's values ascending, so that the `keep` kept
//     entries are one set whatever algorithm selects them.
// Blocks are column-major with the leading dimension of their row block.
// No allocation; host and device.
#ifndef FACTORD_BLOCK_ILDLT_KERNELS_BLOCK_ILDLT_BLOCK_H_
#define FACTORD_BLOCK_ILDLT_KERNELS_BLOCK_ILDLT_BLOCK_H_

#include <cmath>
#include <cstdint>

#include "core/kernels/host_device.h"

namespace factord::kernels {

// What one block column adds to BlockIldltStats (summed in level order).
struct BlockColumnCounts {
  int64_t perturbed = 0;
  int64_t two_by_two = 0;
  int64_t nnz_factor = 0;
  int64_t dropped_entries = 0;
  int64_t dropped_blocks = 0;
  int64_t survivors = 0;  // off-diagonal entries left by the tau rule
};

// W(i, c) of W = L(J,K) D_K, L(J,K) bj x bk: pivot_size (1, 2 for the first
// of a 2x2 pair, 0 for its second), d_diag and d_off are those of block K.
FACTORD_HOST_DEVICE inline double TimesDEntry(const double* ljk, int bj, int i,
                                              int c, const int8_t* pivot_size,
                                              const double* d_diag,
                                              const double* d_off) {
  if (pivot_size[c] == 2) {  // [p q; q u], first column: l0 p + l1 q
    return ljk[i + c * bj] * d_diag[c] + ljk[i + (c + 1) * bj] * d_off[c];
  }
  if (pivot_size[c] == 0) {  // second column of the pair: l0 q + l1 u
    return ljk[i + (c - 1) * bj] * d_off[c - 1] + ljk[i + c * bj] * d_diag[c];
  }
  return ljk[i + c * bj] * d_diag[c];
}

// W = L(J,K) D_K, bj x bk, column-major.
FACTORD_HOST_DEVICE inline void TimesD(const double* ljk, int bj, int bk,
                                       const int8_t* pivot_size,
                                       const double* d_diag,
                                       const double* d_off, double* w) {
  for (int c = 0; c < bk; ++c) {
    for (int i = 0; i < bj; ++i) {
      w[i + c * bj] = TimesDEntry(ljk, bj, i, c, pivot_size, d_diag, d_off);
    }
  }
}

// A(I,J) -= L(I,K) W, L(I,K) bi x bk, W bj x bk, A(I,J) bi x bj: for each
// entry the terms in c order, a zero W(jj, c) skipped.
FACTORD_HOST_DEVICE inline void SubtractProduct(const double* lik,
                                                const double* w, int bi, int bj,
                                                int bk, double* aij) {
  for (int c = 0; c < bk; ++c) {
    const double* lcol = lik + c * bi;
    for (int jj = 0; jj < bj; ++jj) {
      const double wv = w[jj + c * bj];
      if (wv == 0) continue;
      double* acol = aij + jj * bi;
      for (int i = 0; i < bi; ++i) acol[i] -= lcol[i] * wv;
    }
  }
}

// The same for the one entry (i, jj): what SubtractProduct leaves in it.
FACTORD_HOST_DEVICE inline double SubtractProductEntry(const double* lik,
                                                       const double* w, int bi,
                                                       int bj, int bk, int i,
                                                       int jj, double a) {
  for (int c = 0; c < bk; ++c) {
    const double wv = w[jj + c * bj];
    if (wv == 0) continue;
    a -= lik[i + c * bi] * wv;
  }
  return a;
}

// The block rows the pull updates walk: for block row I, the slots of its
// blocks (I, K), K < I, ascending K, at row_ptr[I]..row_ptr[I+1]-1
// (BlockIldltStructure's row_ptr, row_slot, row_slot_col; host or device
// pointers).
struct PullRows {
  const int64_t* row_ptr = nullptr;
  const int64_t* row_slot = nullptr;
  const int32_t* row_slot_col = nullptr;
};

// One term of the pull update of slot (I, J) (S1 Alg. 1, Fig. 2b):
// A(I,J) -= L(I,K) D_K L(J,K)^T with (J, K) at slot jk and (I, K) at slot
// ik (ik == jk for the diagonal block, I == J).
struct PullTerm {
  int32_t k = 0;
  int64_t jk = 0;
  int64_t ik = 0;
};

// The position of the walk over the two sorted block rows J and I.
struct PullCursor {
  int64_t r = 0;   // in row J
  int64_t ri = 0;  // in row I
};

FACTORD_HOST_DEVICE inline PullCursor StartPull(const PullRows& rows, int32_t i,
                                                int32_t j) {
  PullCursor cursor;
  cursor.r = rows.row_ptr[j];
  cursor.ri = rows.row_ptr[i];
  return cursor;
}

// The next term of the pull update of (I, J), K ascending: the K with
// blocks (J, K) and (I, K) both present and kept (kept: per slot). Returns
// false when there is none left. The host column code and the CUDA pull
// kernel walk the terms with this, so they apply the same terms in the same
// order.
FACTORD_HOST_DEVICE inline bool NextPullTerm(const PullRows& rows,
                                             const uint8_t* kept, int32_t i,
                                             int32_t j, PullCursor* cursor,
                                             PullTerm* term) {
  const int64_t r_end = rows.row_ptr[j + 1];
  const int64_t ri_end = rows.row_ptr[i + 1];
  for (; cursor->r < r_end; ++cursor->r) {
    const int32_t k = rows.row_slot_col[cursor->r];
    const int64_t jk = rows.row_slot[cursor->r];
    int64_t ik = jk;  // (J, K) itself for the diagonal block
    if (i != j) {
      while (cursor->ri < ri_end && rows.row_slot_col[cursor->ri] < k) {
        ++cursor->ri;
      }
      if (cursor->ri == ri_end) return false;
      if (rows.row_slot_col[cursor->ri] != k) continue;
      ik = rows.row_slot[cursor->ri];
    }
    if (!kept[jk] || !kept[ik]) continue;
    term->k = k;
    term->jk = jk;
    term->ik = ik;
    ++cursor->r;
    return true;
  }
  return false;
}

// L_JJ(r, c) in pivot order from the factored front (DensePartialLdlt's
// order and size): unit diagonal, zero above and inside a 2x2 pair.
FACTORD_HOST_DEVICE inline double UnitLowerEntry(const double* front, int bj,
                                                 const int* order,
                                                 const int* size, int r,
                                                 int c) {
  if (r == c) return 1;
  if (r > c && !(size[c] == 2 && r == c + 1)) {
    return front[order[r] + order[c] * bj];
  }
  return 0;
}

// Rows [i0, i1) of X (bi x bj, column-major, columns already permuted to
// pivot order) become X L_JJ^{-T} D_J^{-1}: forward over the columns, then
// the 1x1 and 2x2 pivots of D_J (pivot_size, d_diag, d_off of block J).
FACTORD_HOST_DEVICE inline void SolveOffDiagonalRows(
    double* x, int bi, int bj, int i0, int i1, const double* ljj,
    const int8_t* pivot_size, const double* d_diag, const double* d_off) {
  for (int c = 0; c < bj; ++c) {  // X L_JJ^{-T}
    for (int p = 0; p < c; ++p) {
      const double l = ljj[c + p * bj];
      if (l == 0) continue;
      for (int i = i0; i < i1; ++i) x[i + c * bi] -= x[i + p * bi] * l;
    }
  }
  for (int c = 0; c < bj; ++c) {  // D_J^{-1}
    if (pivot_size[c] == 2) {
      const double p = d_diag[c], q = d_off[c], u = d_diag[c + 1];
      const double det = p * u - q * q;
      for (int i = i0; i < i1; ++i) {
        const double y0 = x[i + c * bi], y1 = x[i + (c + 1) * bi];
        x[i + c * bi] = (y0 * u - y1 * q) / det;
        x[i + (c + 1) * bi] = (y1 * p - y0 * q) / det;
      }
      ++c;
    } else {
      const double inv = 1.0 / d_diag[c];
      for (int i = i0; i < i1; ++i) x[i + c * bi] *= inv;
    }
  }
}

// norm2[c] += sum over rows i of L(I,J)(i, c)^2, i ascending, for columns
// [c0, c1): called block by block in slot order, this is the order of the
// column norms of S1 §IV-B3's tau rule.
FACTORD_HOST_DEVICE inline void AddColumnNorms(const double* lij, int bi,
                                               int c0, int c1, double* norm2) {
  for (int c = c0; c < c1; ++c) {
    for (int i = 0; i < bi; ++i) norm2[c] += lij[i + c * bi] * lij[i + c * bi];
  }
}

// The tau rule's limit for a column of norm^2 norm2: |l| <= limit drops.
FACTORD_HOST_DEVICE inline double DropLimit(double tau, double norm2) {
  return tau * sqrt(norm2);
}

// Finish's strict order: survivor x (|x| = abs_x at position pos_x in the
// column's values) comes before y.
FACTORD_HOST_DEVICE inline bool SurvivorBefore(double abs_x, int64_t pos_x,
                                               double abs_y, int64_t pos_y) {
  return abs_x > abs_y || (abs_x == abs_y && pos_x < pos_y);
}

// The leftover budget of S1 Alg. 2, level-wise (block_ildlt_leftover.h):
// `free` is the pool of earlier levels not yet granted, `unused` what the
// current level's columns left so far.
struct LeftoverPool {
  double fill_factor = 0;  // <= 0: no limit
  double free = 0;
  double unused = 0;
};

// How many of its `need` survivors the next column of the level (ascending
// block order) keeps, with `a_count` entries of A in its off-diagonal
// blocks. S1 Alg. 2: required = nnz(B) - capacity(U); granted =
// max(min(required, wasfree), 0).
FACTORD_HOST_DEVICE inline int64_t LeftoverKeep(LeftoverPool* pool,
                                                int64_t a_count, int64_t need) {
  if (pool->fill_factor <= 0) return need;
  const double capacity = pool->fill_factor * static_cast<double>(a_count);
  double allowed = capacity;
  int64_t keep = need;
  if (static_cast<double>(need) > capacity) {
    const double required = static_cast<double>(need) - capacity;
    const double offered = pool->free < required ? pool->free : required;
    const double granted = offered < 0.0 ? 0.0 : offered;
    pool->free -= granted;
    if (granted < required) {
      allowed = capacity + granted;
      const int64_t most = static_cast<int64_t>(allowed);
      keep = most < need ? most : need;
    } else {
      allowed = static_cast<double>(need);  // the whole request
    }
  }
  const double left = allowed - static_cast<double>(keep);
  pool->unused += left < 0.0 ? 0.0 : left;
  return keep;
}

// After the last column of a level: its unused budget joins the pool.
FACTORD_HOST_DEVICE inline void LeftoverEndLevel(LeftoverPool* pool) {
  pool->free += pool->unused;
  pool->unused = 0;
}

}  // namespace factord::kernels

#endif  // FACTORD_BLOCK_ILDLT_KERNELS_BLOCK_ILDLT_BLOCK_H_
