// The leftover budget of block_ildlt's dual-threshold dropping (S1 §IV-B3,
// Alg. 2), in a deterministic level-wise form.
//
// Every block column J may keep capacity(J) = fill_factor * (A's entries in
// its off-diagonal blocks) entries after the tau rule. S1 Alg. 2
// redistributes "memory that was reserved for blocks in previous levels but
// not used" through an atomic counter: an oversubscribed block subtracts
// required = need - capacity, is granted max(min(required, was_free), 0)
// and gives the rest back. With atomics the grants depend on which block
// reaches the counter first; here they do not:
//   - the pool at the start of level l is what the columns of levels < l
//     did not use (and the pool did not grant);
//   - the columns of level l run Alg. 2 one after another in ascending
//     block order: granted = max(min(required, free), 0), free -= granted
//     (Alg. 2 run sequentially, so never more than the pool is handed out,
//     as in S1's conservative protocol);
//   - what a column of level l leaves unused (its capacity plus grant minus
//     what it keeps) is summed in the same order and joins the pool only
//     after the level.
// Each column's need (its survivors of the tau rule) depends only on
// earlier levels, so a threaded run can compute the needs of a level in
// parallel, call Keep in block order, then cut the columns in parallel; the
// serial reference calls Keep in the same order: equal bits.
#ifndef FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_LEFTOVER_H_
#define FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_LEFTOVER_H_

#include <cstdint>

#include "core/block_ildlt/kernels/block_ildlt_block.h"

namespace factord::internal {

// The arithmetic is kernels::LeftoverKeep / LeftoverEndLevel
// (core/block_ildlt/kernels/block_ildlt_block.h), which the CUDA leftover
// kernel runs on a pool kept in device memory.
class LevelLeftover {
 public:
  // fill_factor <= 0: no limit on the count (Keep returns the need).
  explicit LevelLeftover(double fill_factor) {
    pool_.fill_factor = fill_factor;
  }

  // How many of its `need` survivors the next column of the current level
  // (in ascending block order) keeps, with `a_count` entries of A in its
  // off-diagonal blocks. S1 Alg. 2.
  int64_t Keep(int64_t a_count, int64_t need) {
    return kernels::LeftoverKeep(&pool_, a_count, need);
  }

  // After the last column of a level: its unused budget joins the pool.
  void EndLevel() { kernels::LeftoverEndLevel(&pool_); }

  // What the next level may hand out (after EndLevel).
  double pool() const { return pool_.free; }

 private:
  kernels::LeftoverPool pool_;
};

}  // namespace factord::internal

#endif  // FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_LEFTOVER_H_
