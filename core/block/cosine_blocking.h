// Cosine-similarity blocking of an ordered matrix, strategy RB of S1
// §III-A: the ordering is applied first, and only neighbouring rows may
// share a block, so a block is a contiguous range of the ordered indices.
// Rows join a block while the cosine similarity of their pattern with the
// block's pattern |P ∩ Q| / sqrt(|P| |Q|) is at least the threshold. As in
// S1's multilevel variant, the blocking is repeated on the coarse (block)
// pattern with the threshold reduced by `decay` each level (0.8, 0.72, ...),
// so that blocks grow towards max_block_size. Supervariable blocking
// (identical patterns) is the special case threshold 1, one level.
// Strategy BR (rows grouped by similarity across the whole matrix, then
// the blocks ordered) is block/br_blocking.h. The blocking reads only the
// pattern.
#ifndef FACTORD_BLOCK_COSINE_BLOCKING_H_
#define FACTORD_BLOCK_COSINE_BLOCKING_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/matrix/csr.h"

namespace factord {

struct CosineBlockingOptions {
  int max_block_size = 32;  // 1..32 (a block fits a warp tile, S1 §IV)
  double threshold = 0.8;   // first-level similarity threshold, in (0, 1]
  double decay = 0.9;       // threshold factor from one level to the next
  int levels = 4;           // number of coarsening levels, >= 1
};

// Blocks of the ordered matrix P A P^T. `a` is square, general or
// symmetric-lower (treated as A + A^T, diagonal included); `perm` has
// a.rows entries, perm[k] = original index of ordered index k. Returns
// block_ptr (num_blocks + 1 entries, block_ptr[0] = 0, last = a.rows):
// block b holds ordered indices block_ptr[b] .. block_ptr[b+1]-1.
// InvalidArgument for bad options or a perm of the wrong size.
absl::StatusOr<std::vector<int32_t>> CosineBlocking(
    const CsrMatrix& a, std::span<const int32_t> perm,
    const CosineBlockingOptions& options);

}  // namespace factord

#endif  // FACTORD_BLOCK_COSINE_BLOCKING_H_
