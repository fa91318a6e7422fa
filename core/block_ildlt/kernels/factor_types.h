// The block_ildlt data its kernels read (S1 §IV-A): the pattern-only
// structure of the blocked factor, built by core/block_ildlt/block_ildlt.h
// (BuildBlockIldltStructure), and a read-only view of a factor's arrays
// (BlockIldltFactor converts to it). Kept in the kernels' folder so that
// the kernels depend only on data types of their own folder.
#ifndef FACTORD_BLOCK_ILDLT_KERNELS_FACTOR_TYPES_H_
#define FACTORD_BLOCK_ILDLT_KERNELS_FACTOR_TYPES_H_

#include <cstdint>
#include <span>
#include <vector>

namespace factord {

// The pattern-only part, immutable once built (shared by factorizations).
struct BlockIldltStructure {
  int64_t n = 0;
  std::vector<int32_t> perm;       // n: perm[k] = original index of k
  std::vector<int32_t> block_ptr;  // num_blocks + 1: ordered index ranges
  // Lower block pattern by block column J: slots col_ptr[J]..col_ptr[J+1]-1,
  // the first is the diagonal block J, then row blocks I > J ascending.
  std::vector<int64_t> col_ptr;     // num_blocks + 1
  std::vector<int32_t> row_block;   // per slot: the row block I
  std::vector<int32_t> fill_level;  // per slot: 0 = a block of A
  std::vector<int64_t> value_ptr;   // slots + 1: offset of the dense block
                                    // (column-major, leading dim = rows of I)
  // Row structure for the pull updates: for block row I, the slots of the
  // blocks (I, K), K < I, ascending K (entries row_ptr[I]..row_ptr[I+1]-1).
  std::vector<int64_t> row_ptr;       // num_blocks + 1
  std::vector<int64_t> row_slot;      // per row entry: the slot of (I, K)
  std::vector<int32_t> row_slot_col;  // per row entry: its block column K
  // A's stored entry e lands at values[gather[e]], and for an off-diagonal
  // entry of a diagonal block also at values[gather_mirror[e]] (else -1).
  std::vector<int64_t> gather;
  std::vector<int64_t> gather_mirror;
  // Entries of A in the off-diagonal blocks of block column J (the base of
  // the fill budget).
  std::vector<int64_t> a_offdiag_count;
  // Level sets of the block graph (S1 §IV-A, §IV-C): level(J) = 1 + max
  // level(K) over the slots (J, K), K < J (0 without any), so every block a
  // column pulls from, or a block row's forward solve reads, lies in an
  // earlier level. The blocks of level l are
  // level_blocks[level_ptr[l]..level_ptr[l+1]-1], ascending.
  int num_levels = 0;
  std::vector<int64_t> level_ptr;     // num_levels + 1
  std::vector<int32_t> level_blocks;  // num_blocks
  // Per level: the dense values of its blocks' block rows and block columns
  // (what one forward plus backward solve reads for the level); the solves
  // run a level in parallel only when it is worth waking threads for.
  std::vector<int64_t> level_values;  // num_levels
  int fill_level_used = 0;

  int64_t num_blocks() const {
    return static_cast<int64_t>(block_ptr.size()) - 1;
  }
  int32_t block_size(int64_t b) const {
    return block_ptr[b + 1] - block_ptr[b];
  }
  int64_t num_slots() const { return static_cast<int64_t>(row_block.size()); }
  int64_t bytes() const;
  // Bytes of a factor: the dense blocks plus per-index pivot data.
  int64_t factor_bytes_estimate() const;
};

namespace kernels {

// A factor's arrays, with the sizes and layout of BlockIldltFactor's
// members (core/block_ildlt/block_ildlt.h): values (value_ptr.back()), kept
// (slots), pivot_order, pivot_size, d_diag, d_off (n). Does not own them.
struct BlockIldltFactorView {
  const BlockIldltStructure* structure = nullptr;
  std::span<const double> values;
  std::span<const uint8_t> kept;
  std::span<const int32_t> pivot_order;
  std::span<const int8_t> pivot_size;
  std::span<const double> d_diag;
  std::span<const double> d_off;
};

}  // namespace kernels
}  // namespace factord

#endif  // FACTORD_BLOCK_ILDLT_KERNELS_FACTOR_TYPES_H_
