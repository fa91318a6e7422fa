// Priority amalgamation of supervariables (S4 §2.5, Algorithm 1, applied to
// the supervariables of S4 §2.3 instead of single variables).
//
// S4 §2.3 merges *adjacent* supervariables of the RCM order up to the block
// size, whether or not they are strongly coupled. Priority blocking instead
// considers the off-diagonal entries in decreasing order of magnitude and
// merges the two sets holding the entry's row and column whenever the merged
// set still fits in max_block_size, so the largest couplings end up inside
// the diagonal blocks. Magnitudes are taken on the column-norm-scaled matrix
// of S4 §3 (|a_ij| / sqrt(c_i c_j), c the column 2-norms) so that badly
// scaled rows (e.g. bcsstk13) do not dominate; supervariables are never
// split (larger ones are halved first, S4 §2.3). Ties are broken by
// position, so the result depends only on the matrix and the order.
//
// Cost: O(nnz log nnz) for sorting the entries, near-linear union-find.
#ifndef FACTORD_BLOCK_PRIORITY_BLOCKING_H_
#define FACTORD_BLOCK_PRIORITY_BLOCKING_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/matrix/csr.h"

namespace factord {

struct PriorityBlocks {
  std::vector<int32_t> order;      // n: matrix row at each new position
  std::vector<int64_t> block_ptr;  // B + 1: block b is positions
                                   // [block_ptr[b], block_ptr[b+1])
};

// `a`: square with the full pattern and values (general or expanded).
// `order` (size n, order[position] = row) and `sv_ptr` (supervariables as
// position ranges of `order`, from FindSupervariables) as found on the
// pattern. Blocks come out ordered by their first position in `order`, rows
// inside a block in `order`'s order. max_block_size >= 1.
PriorityBlocks PriorityAmalgamation(const CsrMatrix& a,
                                    std::span<const int32_t> order,
                                    std::span<const int64_t> sv_ptr,
                                    int max_block_size);

}  // namespace factord

#endif  // FACTORD_BLOCK_PRIORITY_BLOCKING_H_
