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
// descending), kCpu the blocks of each level in parallel, kCuda with a
// device context on the device (block_ildlt_device.h; one launch per level,
// a thread per block); every entry is
// computed by the same operations in the same order (the pull forms sum K
// ascending, as the old push form did), so the two agree bit for bit.
#include <algorithm>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "core/block_ildlt/block_ildlt_device.h"
#include "core/block_ildlt/block_ildlt_levels.h"
#include "core/block_ildlt/kernels/block_ildlt_device.h"
#include "core/block_ildlt/kernels/block_ildlt_solve.h"
#include "core/device/device_dispatch.h"

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

// The solve of one block row or column on the factor's arrays (read-only;
// the arithmetic is core/block_ildlt/kernels/block_ildlt_solve.h, shared with
// the CUDA kernels); the vectors are the caller's: y (ordered right-hand side,
// reused for x) and w (forward solution in pivot order), n entries each.
struct BlockSolver {
  kernels::BlockIldltSolveView view;
  double* y;
  double* w;

  void Forward(int64_t i) const { kernels::BlockRowForward(view, i, y, w); }
  void Diagonal(int64_t j) const { kernels::BlockDiagonalSolve(view, j, w); }
  void Backward(int64_t j) const {
    kernels::BlockColumnBackward(view, j, y, w);
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
  bool on_device = false;
  switch (ctx.backend) {
    case Backend::kReference:
    case Backend::kCpu:
      break;
    case Backend::kCuda: {
      // The level-scheduled solves on the device; the host path below
      // without a device context or when the backend has no block_ildlt
      // kernels. A failure is recorded in the device context and z is NaN
      // (the dispatch convention).
      if (ctx.device == nullptr) break;
      const absl::StatusOr<bool> ran =
          internal::ApplyBlockIldltOnDevice(ctx, *this, y);
      if (!ran.ok()) {
        linalg::FillNaN(z);
        return;
      }
      on_device = *ran;
      break;
    }
  }
  const BlockSolver solver{kernels::SolveViewOf(*this), y.data(), w.data()};
  if (on_device) {
    // y holds x.
  } else if (!internal::LevelsRunThreaded(ctx)) {
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
