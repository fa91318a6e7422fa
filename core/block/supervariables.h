// Supervariable blocking and amalgamation (S4 §2.3), the blocking of the
// block-Jacobi preconditioner (S3).
//
// After a locality-preserving ordering (RCM, S4 §2.3: "we simply apply RCM
// ordering to the original rows and columns of the matrix before
// identifying supervariables"), consecutive rows with exactly the same
// sparsity pattern form a supervariable; adjacent supervariables are merged
// while the block stays within max_block_size; a supervariable larger than
// that is halved recursively until its pieces fit. Exact pattern matching
// only (no cosine similarity, S4 §2.3).
#ifndef FACTORD_BLOCK_SUPERVARIABLES_H_
#define FACTORD_BLOCK_SUPERVARIABLES_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/matrix/csr.h"

namespace factord {

// The supervariables of `a` in the order `perm` (perm[new] = old, size
// a.rows): returns sv_ptr with sv_ptr[0] = 0, sv_ptr.back() = a.rows, and
// positions [sv_ptr[s], sv_ptr[s+1]) of the new order forming supervariable
// s. Two rows match when their stored column sets are equal; `a` must store
// the full pattern (general or expanded).
std::vector<int64_t> FindSupervariables(const CsrMatrix& a,
                                        std::span<const int32_t> perm);

// Supervariables larger than max_block_size (>= 1) halved recursively
// until every piece fits (S4 §2.3); returns the pieces like sv_ptr.
std::vector<int64_t> SplitSupervariables(std::span<const int64_t> sv_ptr,
                                         int max_block_size);

// Amalgamates consecutive supervariables into blocks of at most
// max_block_size (>= 1) positions; supervariables larger than that are
// halved recursively first. Returns block_ptr over positions, like sv_ptr.
std::vector<int64_t> AmalgamateSupervariables(std::span<const int64_t> sv_ptr,
                                              int max_block_size);

}  // namespace factord

#endif  // FACTORD_BLOCK_SUPERVARIABLES_H_
