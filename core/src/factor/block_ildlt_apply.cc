// z = M^{-1} r for the block incomplete LDL^T (S1 §IV-C): scale and permute,
// block forward substitution L w = P y in pull form over block row I (the
// blocks (I, K), K < I, of the row structure, K ascending, then the unit
// L_II in its pivot order), the block diagonal D^{-1} (1x1 and 2x2, inside
// each block), the block backward substitution L^T x = w in pull form over
// block column J (the blocks (I, J), I > J, then L_JJ^T), permute back and
// scale. Dropped blocks are skipped.
// Level-scheduled (S1 §IV-C: "we reuse the level sets from the
// factorization - in the same order for L and inverted for L^T"): a block
// row I reads only w_K of earlier levels and writes only y_I and w_I; a
// block column J reads only x_I of later levels and writes only its own
// entries. kReference runs the blocks in block order (ascending, then
// descending), kCpu the blocks of each level in parallel; every entry is
// computed by the same operations in the same order (the pull forms sum K
// ascending, as the old push form did), so the two agree bit for bit.
#include <algorithm>
#include <vector>

#include "factord/factor/block_ildlt.h"
#include "src/factor/block_ildlt_levels.h"

namespace factord {

int64_t BlockIldltFactor::bytes() const {
  return static_cast<int64_t>(
      (scaling_.size() + values_.size() + d_diag_.size() + d_off_.size()) *
          sizeof(double) +
      kept_.size() + pivot_order_.size() * sizeof(int32_t) +
      pivot_size_.size());
}

namespace {

// Blocks per task of a threaded solve: one block's work is a few hundred
// flops, so a task takes several to keep TBB's overhead small.
constexpr int64_t kSolveGrain = 4;
// A level (or the D^{-1} sweep) runs in parallel only when it reads at least
// this many values: less is a few microseconds of work, no more than waking
// TBB's workers costs. The bits are the same either way.
constexpr int64_t kParallelSolveValues = 16384;

// The solve of one block row or column on the factor's arrays (read-only);
// the vectors are the caller's: y (ordered right-hand side, reused for x)
// and w (forward solution in pivot order), n entries each.
struct BlockSolver {
  const BlockIldltStructure& s;
  const double* values;
  const uint8_t* kept;
  const int32_t* pivot_order;
  const int8_t* pivot_size;
  const double* d_diag;
  const double* d_off;
  double* y;
  double* w;

  // Forward, block row i: y_I -= sum_K L(I,K) w_K (K ascending), then
  // w_I = L_II^{-1} P_I y_I.
  void Forward(int64_t i) const {
    const int bi = s.block_size(i);
    const int64_t start = s.block_ptr[i];
    double* yi = &y[start];
    for (int64_t r = s.row_ptr[i]; r < s.row_ptr[i + 1]; ++r) {
      const int64_t t = s.row_slot[r];
      if (!kept[t]) continue;
      const int32_t k = s.row_slot_col[r];
      const int bk = s.block_size(k);
      const double* l = &values[s.value_ptr[t]];
      const double* wk = &w[s.block_ptr[k]];
      for (int c = 0; c < bk; ++c) {
        const double v = wk[c];
        if (v == 0) continue;
        for (int r2 = 0; r2 < bi; ++r2) yi[r2] -= l[r2 + c * bi] * v;
      }
    }
    const double* diag = &values[s.value_ptr[s.col_ptr[i]]];
    double* wi = &w[start];
    for (int c = 0; c < bi; ++c) wi[c] = yi[pivot_order[start + c]];
    for (int c = 0; c < bi; ++c) {
      const double v = wi[c];
      if (v == 0) continue;
      for (int r2 = c + 1; r2 < bi; ++r2) wi[r2] -= diag[r2 + c * bi] * v;
    }
  }

  // D^{-1} on block j's entries of w (a 2x2 pivot never crosses a block).
  void Diagonal(int64_t j) const {
    for (int64_t k = s.block_ptr[j]; k < s.block_ptr[j + 1]; ++k) {
      if (pivot_size[k] == 2) {
        const double p = d_diag[k], q = d_off[k], u = d_diag[k + 1];
        const double det = p * u - q * q;
        const double w0 = w[k], w1 = w[k + 1];
        w[k] = (w0 * u - w1 * q) / det;
        w[k + 1] = (w1 * p - w0 * q) / det;
        ++k;
      } else {
        w[k] /= d_diag[k];
      }
    }
  }

  // Backward, block column j: u_J = w_J - sum_I L(I,J)^T x_I (I ascending),
  // then x_J = P_J^T L_JJ^{-T} u_J, written into y (= x).
  void Backward(int64_t j) const {
    const int bj = s.block_size(j);
    const int64_t start = s.block_ptr[j];
    const double* diag = &values[s.value_ptr[s.col_ptr[j]]];
    double* uj = &w[start];
    for (int64_t t = s.col_ptr[j] + 1; t < s.col_ptr[j + 1]; ++t) {
      if (!kept[t]) continue;
      const int32_t ib = s.row_block[t];
      const int bi = s.block_size(ib);
      const double* l = &values[s.value_ptr[t]];
      const double* xi = &y[s.block_ptr[ib]];
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
    for (int c = 0; c < bj; ++c) y[start + pivot_order[start + c]] = uj[c];
  }
};

}  // namespace

void BlockIldltFactor::Apply(const ExecContext& ctx, std::span<const double> r,
                             std::span<double> z) const {
  const BlockIldltStructure& s = *structure_;
  const int64_t n = s.n, nb = s.num_blocks();
  // y: the ordered right-hand side (block-local analysis order), then the
  // solution x; w: the forward solution in pivot order.
  std::vector<double> y(n), w(n);
  for (int64_t k = 0; k < n; ++k) {
    const int32_t i = s.perm[k];
    y[k] = r[i] * scaling_[i];
  }
  const BlockSolver solver{s,
                           values_.data(),
                           kept_.data(),
                           pivot_order_.data(),
                           pivot_size_.data(),
                           d_diag_.data(),
                           d_off_.data(),
                           y.data(),
                           w.data()};
  if (!internal::LevelsRunThreaded(ctx)) {
    // The reference: block order, which is a valid order for both sweeps.
    for (int64_t i = 0; i < nb; ++i) solver.Forward(i);        // L w = P y
    for (int64_t j = 0; j < nb; ++j) solver.Diagonal(j);       // D^{-1}
    for (int64_t j = nb - 1; j >= 0; --j) solver.Backward(j);  // L^T x = w
  } else {
    internal::InLevelArena(ctx, [&] {
      const std::vector<int32_t>& blocks = s.level_blocks;
      for (int level = 0; level < s.num_levels; ++level) {  // L w = P y
        const int64_t first = s.level_ptr[level];
        internal::ForEachInLevel(
            s.level_values[level] >= kParallelSolveValues,
            s.level_ptr[level + 1] - first, kSolveGrain,
            [&](int64_t b) { solver.Forward(blocks[first + b]); });
      }
      internal::ForEachInLevel(n >= 4 * kParallelSolveValues, nb,  // D^{-1}
                               16 * kSolveGrain,
                               [&](int64_t j) { solver.Diagonal(j); });
      for (int level = s.num_levels - 1; level >= 0; --level) {  // L^T x = w
        const int64_t first = s.level_ptr[level];
        internal::ForEachInLevel(
            s.level_values[level] >= kParallelSolveValues,
            s.level_ptr[level + 1] - first, kSolveGrain,
            [&](int64_t b) { solver.Backward(blocks[first + b]); });
      }
    });
  }
  for (int64_t k = 0; k < n; ++k) {
    const int32_t i = s.perm[k];
    z[i] = y[k] * scaling_[i];
  }
}

}  // namespace factord
