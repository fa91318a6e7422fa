// One block column of the numeric block incomplete LDL^T (S1 §IV-B, Alg. 1),
// in two steps so that a level's columns can share the leftover budget in a
// fixed order (S1 Alg. 2, block_ildlt_leftover.h) between them:
//   Prepare: pull updates, dense LDL^T of the diagonal block, off-diagonal
//            block solves, the tau rule; counts the survivors;
//   Finish:  keeps the `keep` largest survivors, marks the kept blocks.
// Column J reads only the finished columns K with a block (J, K) (earlier
// levels) and writes only its own slots, its rows of the pivot arrays and
// D, and its counters: columns of one level may run on different threads.
#ifndef FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_COLUMN_H_
#define FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_COLUMN_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "core/block_ildlt/kernels/block_ildlt_block.h"
#include "core/dense/kernels/dense_ldlt.h"

namespace factord::internal {

inline constexpr int kMaxIldltBlock = 32;

// The factor's storage a column writes; the arrays belong to the caller and
// have the sizes of BlockIldltFactor's members (values: value_ptr.back(),
// kept: num_slots(), the others n).
struct BlockFactorArrays {
  double* values = nullptr;
  uint8_t* kept = nullptr;
  int32_t* pivot_order = nullptr;
  int8_t* pivot_size = nullptr;
  double* d_diag = nullptr;
  double* d_off = nullptr;
};

// What one column adds to BlockIldltStats (summed in level order); shared
// with the CUDA kernels.
using BlockColumnCounts = kernels::BlockColumnCounts;

// The workspace of one thread, sized once from the structure (the numeric
// loops do not allocate).
struct BlockColumnScratch {
  explicit BlockColumnScratch(const BlockIldltStructure& s);

  double front[kMaxIldltBlock * kMaxIldltBlock];
  double w[kMaxIldltBlock * kMaxIldltBlock];
  double x[kMaxIldltBlock * kMaxIldltBlock];
  int order[kMaxIldltBlock], size[kMaxIldltBlock], work[kMaxIldltBlock];
  double d_diag[kMaxIldltBlock], d_off[kMaxIldltBlock];
  double norm2[kMaxIldltBlock];
  std::vector<int64_t> slot_of_row;  // num_blocks, -1 outside the column
  std::vector<std::pair<double, double*>> survivors;  // |value|, where
};

class BlockColumnFactorizer {
 public:
  // `s` and the arrays must outlive the factorizer; tau >= 0.
  BlockColumnFactorizer(const BlockIldltStructure& s,
                        const kernels::DenseLdltParams& params, double tau,
                        BlockFactorArrays f)
      : s_(s), params_(params), tau_(tau), f_(f) {}

  // S1 Alg. 1 for block column j up to the tau rule of the dual-threshold
  // dropping (S1 §IV-B3); counts->survivors is what the rule left.
  // = PullUpdates, then FactorAndSolve.
  void Prepare(int64_t j, BlockColumnScratch* scratch,
               BlockColumnCounts* counts) const;

  // The pull updates of every block of column j, K ascending (S1 Alg. 1).
  void PullUpdates(int64_t j, BlockColumnScratch* scratch) const;
  // The same for the one block of column j in slot t (the diagonal slot or
  // an off-diagonal one), from the K common to block rows J and I (S1
  // Fig. 2b); no workspace. Every entry receives the same terms in the same
  // order as from PullUpdates, so the slots of a big column can be updated
  // in parallel with the bits of the serial loop.
  void PullUpdatesInto(int64_t j, int64_t t) const;
  // The dense LDL^T of the diagonal block, the off-diagonal solves and the
  // tau rule, after the updates.
  void FactorAndSolve(int64_t j, BlockColumnScratch* scratch,
                      BlockColumnCounts* counts) const;

  // Keeps the `keep` (<= counts->survivors) largest survivors of column j,
  // the first `keep` in the strict order kernels::SurvivorBefore (|v|
  // descending, then position in the column's values ascending: ties are
  // broken by position, so the kept set is unique and a device selecting it
  // otherwise finds the same one), zeroes the others and marks the
  // off-diagonal blocks left without entries as dropped.
  void Finish(int64_t j, int64_t keep, BlockColumnScratch* scratch,
              BlockColumnCounts* counts) const;

 private:
  const BlockIldltStructure& s_;
  kernels::DenseLdltParams params_;
  double tau_;
  BlockFactorArrays f_;
};

}  // namespace factord::internal

#endif  // FACTORD_BLOCK_ILDLT_BLOCK_ILDLT_COLUMN_H_
