// Outer pivoting of S2 §V-A: "push-back" of whole diagonal blocks to the end
// of the matrix, a symmetric block permutation that keeps the relative order
// of the blocks pushed together. Three arrays over the blocks of the initial
// blocking, as in S2: P (the block at each position), P^{-1} (the position
// of each block) and X (each block's level); a push-back increments X of
// the flagged blocks, stable-sorts the block ids by X into P and inverts P.
//
// The blocked dual CSR/CSC of S2 is block_ildlt's structure (column slots
// and the row lists of slots, i.e. R and C with the diagonal first); S2 then
// re-sorts the index pairs by P^{-1} without moving blocks. Here the
// structure of the permuted order is rebuilt instead
// (BuildBlockIldltStructureFromBlocks with the point ordering assembled from
// P): with fill_level 0 the block pattern is the same set of blocks,
// re-sorted, exactly as S2's; with fill_level > 0 the level of fill is
// recomputed for the new order. Blocks are rolled back: the sweeps restart
// from the initial guess on the new order (S2: "such blocks must be rolled
// back before the pivoting operation"), here all of them.
#ifndef FACTORD_JACOBI_LDLT_JACOBI_LDLT_PUSHBACK_H_
#define FACTORD_JACOBI_LDLT_JACOBI_LDLT_PUSHBACK_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/block_ildlt/block_ildlt.h"
#include "core/jacobi_ldlt/jacobi_ldlt_sweeps.h"

namespace factord::internal {

struct BlockPushBack {
  std::vector<int32_t> position;  // P: position -> initial block id
  std::vector<int32_t> inverse;   // P^{-1}: initial block id -> position
  std::vector<int32_t> level;     // X: per initial block id
  int64_t pushed_blocks = 0;      // over all push-backs
  int64_t pushed_rows = 0;

  // The identity for num_blocks blocks (every level 0).
  static BlockPushBack Identity(int64_t num_blocks);
};

// S2 §V-A steps 1-3: X += 1 for the blocks with flagged[b] != 0 (by initial
// block id; flagged has num_blocks entries), P = stable sort of the ids by
// X, P^{-1} = inverse of P. `block_sizes` (num_blocks) counts pushed rows.
// Returns the number of blocks pushed.
int64_t PushBackBlocks(std::span<const uint8_t> flagged,
                       std::span<const int32_t> block_sizes,
                       BlockPushBack* push_back);

// Steps 4-5 for `initial` (the structure of the initial block order): the
// structure of the order P, whose block k is the initial block P[k] with its
// rows in their initial order. `a` and `options` as for the initial one.
absl::StatusOr<BlockIldltStructure> PushedBackStructure(
    const CsrMatrix& a, const FactorOptions& options,
    const BlockIldltStructure& initial, const BlockPushBack& push_back);

// A Jacobi LDL^T (S2 Alg. 2) with outer pivoting as S2 §VI describes it:
// "after the first sweep, we detect and push problematic diagonal blocks
// back": blocks whose first-sweep diagonal factorization perturbed a pivot
// are pushed back once, and the remaining sweeps (eps continuing at
// eps * delta) run on the new order from the initial guess. When the new
// order's block storage (its recomputed level of fill) exceeds twice the
// initial one, the push-back is abandoned (P reset to the identity) and the
// sweeps go on in the initial order.
struct JacobiLdltRun {
  std::shared_ptr<const BlockIldltStructure> structure;  // the final order
  std::shared_ptr<const JacobiLdltPlan> plan;            // of `structure`
  std::vector<double> scaling;                           // n, by original index
  std::vector<double> a_blocks;  // the scaled blocks of `structure`
  BlockLdltIterate iterate;
  std::vector<double> sweep_errors;  // one per sweep (see JacobiSweepOptions)
  BlockPushBack push_back;           // P, P^{-1}, X over the initial blocks
};

// Runs sweep.sweeps sweeps on `a` with the analysis (structure, plan); with
// `push_back` and at least two sweeps, the outer pivoting above.
absl::StatusOr<JacobiLdltRun> RunJacobiLdlt(
    const CsrMatrix& a, const FactorOptions& options,
    std::shared_ptr<const BlockIldltStructure> structure,
    std::shared_ptr<const JacobiLdltPlan> plan, const JacobiSweepOptions& sweep,
    bool push_back, const ExecContext& ctx);

}  // namespace factord::internal

#endif  // FACTORD_JACOBI_LDLT_JACOBI_LDLT_PUSHBACK_H_
