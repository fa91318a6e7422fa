// Block incomplete LDL^T (S1): the structure (analysis) and the numeric
// factor, which is a Preconditioner for SQMR (S1 §IV-C).
//
// Analysis (pattern and options only): ordering (AMD by default, METIS,
// RCM, GMC or natural), cosine blocking of the ordered matrix (S1 §III-A,
// strategy RB, blocks <= 32) or, with options.blocking = kBr, cosine
// blocking across the whole matrix followed by the ordering of the blocks
// (strategy BR, block/br_blocking.h); the coarse block graph, its block
// level-of-fill
// pattern (S1 §IV-A: Hysom's ILU(k) rule on blocks, l_f = fill_level; every
// allowed block is stored dense), level sets of the block graph, and the
// map from A's stored entries to the block values. Its byte estimate is the
// dense storage of every allowed block.
// Factor (values): Ruiz scaling recomputed from the values, IPM shifts,
// left-looking block factorization with pull updates (S1 Alg. 1), diagonal
// blocks by the dense LDL^T of core/dense/kernels/dense_ldlt.h with static,
// Bunch-Kaufman or rook pivoting inside the block (tiny pivots perturbed,
// counted), off-diagonal block solves, dual-threshold dropping per block
// column (tau relative to the column 2-norm of L, then at most fill_factor
// times A's entries in the column's off-diagonal blocks, S1 §IV-B3).
// Level scheduling (S1 §IV-A/B): the block columns of one level set read
// only finished columns of earlier levels and write only their own slots,
// so they are factorized together; backend kReference runs them one after
// another, kCpu in parallel on a TBB arena of ctx.threads threads, kCuda
// with a device context on the device, one launch sequence per level
// (core/block_ildlt/kernels/cuda/block_ildlt_launch.h; without a device
// context, or with a backend lacking those kernels, kCuda takes the kCpu path;
// its ctx.CheckCancelled also reports device errors; a device run is checked
// for cancellation before it starts, not between levels).
// Leftover budget (S1 Alg. 2, its conservative protocol made level-wise so
// that the result does not depend on scheduling): the pool is the budget
// that the columns of levels < l did not use; the columns of level l ask it
// for what they need beyond their own fill_factor * nnz in ascending block
// order, each granted min(request, what is still free) (Alg. 2 run with the
// level's blocks in block order: never more than the pool is handed out);
// what the columns of level l leave unused joins the pool only after the
// level. The reference runs exactly this protocol serially, so kCpu equals
// kReference bit for bit for every thread count (factor, D, pivots, stats).
// Solves (S1 §IV-C): level-scheduled blocked forward substitution in pull
// form over block row I (row_ptr/row_slot; push form would race), D^{-1},
// backward substitution in pull form over block column J with the levels
// reversed; kReference runs the blocks in block order, kCpu the blocks of a
// level in parallel, kCuda with a device context a launch per level
// (core/block_ildlt/kernels/cuda/block_ildlt_solve_launch.h), with the same
// summation order: bitwise equal. Limits: parallelism only across the block
// columns of a level (deep, chain-like block graphs stay serial; nothing runs
// inside a block in parallel; a level with little work, under ~50k flops in the
// numeric phase or 16k values in a solve, runs on one thread); the Ruiz scaling
// and the scatter of A stay serial; no delayed pivots across blocks (a pivot a
// block cannot supply is perturbed), so the inertia is never reliable; dropped
// entries still occupy their dense block's storage; one right-hand side per
// Apply (the Preconditioner interface has no multi-RHS path).
#ifndef FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_H_
#define FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/exec_context.h"
#include "core/block_ildlt/kernels/factor_types.h"
#include "core/krylov/operator.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"

namespace factord {

// Builds the structure for the symmetric-lower matrix `a` (values are not
// read) with options.ordering, blocking, max_block_size (1..32) and
// fill_level (>= 0;
// a level >= the number of blocks is the complete symbolic factor).
// InvalidArgument for a non-symmetric matrix or bad options.
absl::StatusOr<BlockIldltStructure> BuildBlockIldltStructure(
    const CsrMatrix& a, const FactorOptions& options);

// The same with the ordering and the blocking given (options.ordering and
// max_block_size are not used): perm has n entries (perm[k] = original index
// at position k), block_ptr is ascending from 0 to n with blocks of 1..32
// (e.g. the regular grid of S2 §III). InvalidArgument otherwise.
absl::StatusOr<BlockIldltStructure> BuildBlockIldltStructureFromBlocks(
    const CsrMatrix& a, const FactorOptions& options, std::vector<int32_t> perm,
    std::vector<int32_t> block_ptr);

// The hybrid sparse/dense format of every block slot (S1 §IV-A): a block
// may keep max_nnz = r_f * nnz(A_IJ) entries (an empty fill block: r_f times
// the mean of the occupied off-diagonal blocks of its block row, capped at
// the block's size); it is sparse when that many values and 32-bit indices
// take less than 0.5 (S1's compensation factor) times the dense storage.
// Diagonal blocks and the bottom 1% of block rows are dense.
struct BlockFormats {
  std::vector<uint8_t> dense;        // per slot: 1 dense, 0 sparse
  std::vector<int64_t> max_entries;  // per slot: entries it may keep
  int64_t dense_blocks = 0;
  int64_t sparse_blocks = 0;
  int64_t bytes = 0;            // block storage in the hybrid format
  int64_t all_dense_bytes = 0;  // every block dense (what is stored today)
};

// The formats for the structure `s` with fill ratio r_f = fill_factor
// (> 0). Decided at each factorization because fill_factor is a numeric
// option that does not key the analysis; O(nnz log slots).
BlockFormats DecideBlockFormats(const BlockIldltStructure& s,
                                double fill_factor);

// The scaled, shifted matrix S (A + shifts) S of a factorization scattered
// into the dense blocks of `s` (the diagonal blocks hold both triangles; fill
// blocks are zero): `values` gets s.value_ptr.back() entries, `scaling` the
// Ruiz (or unit, with Scaling::kNone) scaling by original index (n). `a` must
// have the pattern `s` was built for. InvalidArgument on a mismatch or a
// non-finite value. Shared by block_ildlt and jacobi_ldlt (S2 Alg. 2 starts
// from these blocks).
absl::Status ScatterScaledBlocks(const CsrMatrix& a,
                                 const BlockIldltStructure& s,
                                 const FactorOptions& options,
                                 std::vector<double>* scaling,
                                 std::vector<double>* values);

struct BlockIldltStats {
  int64_t perturbed_pivots = 0;
  int64_t two_by_two_pivots = 0;
  int64_t nnz_factor = 0;  // kept entries of L (diagonal included) + D
  int64_t dropped_entries = 0;
  int64_t dropped_blocks = 0;  // off-diagonal blocks dropped entirely
  double max_abs = 0;          // max |S A S| (pivot thresholds are relative)
  // Block columns whose D or L (L_JJ included) holds Inf or NaN (an update
  // overflowed), and the first of them (-1: none). As in S1, the values are
  // kept, not an error: Apply then gives a non-finite z and the Krylov
  // solver reports the breakdown. The same on every backend.
  int64_t not_finite_columns = 0;
  int64_t first_not_finite_column = -1;
};

// The numeric factor, M = S^{-1} P^T L D L^T P S^{-1} ~ A; Apply gives
// z = M^{-1} r. Immutable after Create.
class BlockIldltFactor final : public Preconditioner {
 public:
  // Factorizes `a` (the matrix the structure was built for; values read,
  // not kept) with options.pivoting, drop_tolerance, fill_factor, scaling
  // and the IPM shifts, level by level on ctx.backend with ctx.threads
  // (the same bits on every backend and thread count). Numerical trouble
  // (tiny pivots) is perturbation counted in stats(), not an error.
  // Overflowed columns are counted in stats() (not_finite_columns), not an
  // error. CANCELLED/DEADLINE_EXCEEDED from ctx (checked every level, on the
  // host also every block column), with no factor.
  static absl::StatusOr<std::unique_ptr<BlockIldltFactor>> Create(
      const CsrMatrix& a, std::shared_ptr<const BlockIldltStructure> structure,
      const FactorOptions& options, const ExecContext& ctx);

  int64_t size() const override { return structure_->n; }
  // r and z have size() entries and must not overlap; level-scheduled on
  // ctx.backend with ctx.threads, bitwise equal across backends and thread
  // counts. Allocates 2 n doubles of workspace per call.
  void Apply(const ExecContext& ctx, std::span<const double> r,
             std::span<double> z) const override;

  const BlockIldltStats& stats() const { return stats_; }
  int64_t bytes() const;

  // A factor computed elsewhere in this class's layout (jacobi_ldlt, S2
  // Alg. 2): scaling (n), values (value_ptr.back(), every block kept),
  // pivot_order, pivot_size, d_diag, d_off (n each), as documented below.
  static std::unique_ptr<BlockIldltFactor> FromParts(
      std::shared_ptr<const BlockIldltStructure> structure,
      std::vector<double> scaling, std::vector<double> values,
      std::vector<int32_t> pivot_order, std::vector<int8_t> pivot_size,
      std::vector<double> d_diag, std::vector<double> d_off,
      BlockIldltStats stats);

  // Read-only views of the factor (jacobi_ldlt measures block_ildlt's
  // reconstruction error with them); valid while the factor lives.
  const BlockIldltStructure& structure() const { return *structure_; }
  std::span<const double> scaling() const { return scaling_; }
  std::span<const double> block_values() const { return values_; }
  std::span<const uint8_t> kept() const { return kept_; }
  std::span<const int32_t> pivot_order() const { return pivot_order_; }
  std::span<const int8_t> pivot_size() const { return pivot_size_; }
  std::span<const double> d_diag() const { return d_diag_; }
  std::span<const double> d_off() const { return d_off_; }
  // The same views as the kernels take them (their entry points accept the
  // factor itself through this conversion).
  operator kernels::BlockIldltFactorView() const {  // NOLINT: implicit
    kernels::BlockIldltFactorView view;
    view.structure = structure_.get();
    view.values = values_;
    view.kept = kept_;
    view.pivot_order = pivot_order_;
    view.pivot_size = pivot_size_;
    view.d_diag = d_diag_;
    view.d_off = d_off_;
    return view;
  }

 private:
  BlockIldltFactor() = default;

  std::shared_ptr<const BlockIldltStructure> structure_;
  std::vector<double> scaling_;       // n, by original index
  std::vector<double> values_;        // value_ptr.back(): L blocks; diagonal
                                      // blocks hold the unit lower L_JJ in
                                      // pivot order
  std::vector<uint8_t> kept_;         // per slot: block has kept entries
  std::vector<int32_t> pivot_order_;  // n: local pivot order of each block
  std::vector<int8_t> pivot_size_;    // n: 1, 2 (first of a pair), 0 (second)
  std::vector<double> d_diag_;        // n
  std::vector<double> d_off_;         // n: D(t+1, t) for the first of a 2x2
  BlockIldltStats stats_;
};

}  // namespace factord

#endif  // FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_H_
