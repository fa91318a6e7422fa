// Blocking strategy BR of S1 §III-A 1): rows with similar patterns are
// grouped across the whole matrix (not only neighbours), the groups are
// permuted next to each other, and the fill-reducing ordering is applied to
// the coarse (block) matrix at the last level.
//
// Each level runs cosine-based blocking (S1 ref. [33], Saad): rows, or the
// groups of the previous level, are visited in index order; an unassigned
// one leads a new group and takes the unassigned candidates that share a
// column with it (distance 2 in the graph of A + A^T) whose cosine
// similarity |P ∩ Q| / sqrt(|P| |Q|) with the leader's pattern is at least
// the threshold, most similar first, while the group has at most
// max_block_size rows. As in S1 the next level works on the coarse pattern
// with the threshold multiplied by `decay` (0.8, 0.72, ...). Finally the
// chosen ordering (AMD for kAuto) orders the coarse matrix; the rows of a
// group stay together in the order they joined it.
// Limits: candidates are not generated through columns with more than
// max(64, 10 x mean) entries (dense rows of KKT systems would make every
// pair a candidate); such columns still count in the cosine. The coarse
// ordering ignores the group sizes.
#ifndef FACTORD_BLOCK_BR_BLOCKING_H_
#define FACTORD_BLOCK_BR_BLOCKING_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/block/cosine_blocking.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"

namespace factord {

struct BrBlocks {
  std::vector<int32_t> perm;       // n: perm[k] = original index at k
  std::vector<int32_t> block_ptr;  // num_blocks + 1: ranges of positions
};

// `a`: square, general or symmetric-lower (pattern of A + A^T, values not
// read). Blocks have 1..options.max_block_size rows; `ordering` orders the
// coarse matrix of the last level. InvalidArgument for a non-square matrix
// or bad options; an ordering library's error is passed on.
absl::StatusOr<BrBlocks> ComputeBrBlocking(
    const CsrMatrix& a, Ordering ordering,
    const CosineBlockingOptions& options);

}  // namespace factord

#endif  // FACTORD_BLOCK_BR_BLOCKING_H_
