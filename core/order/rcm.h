// Reverse Cuthill-McKee ordering (Cuthill & McKee 1969, reversed as in
// George & Liu 1981): a bandwidth- and profile-reducing, locality-preserving
// ordering, used before supervariable detection (S4 §2.3) so that adjacent
// supervariables are coupled.
//
// Works on the pattern of A + A^T without the diagonal (a symmetric-lower
// matrix is read as its expansion, a general one is symmetrized). Each
// connected component is ordered from a pseudo-peripheral node (George-Liu
// iteration from a node of minimum degree), neighbours visited by
// increasing degree, ties by index: the result depends only on the pattern.
#ifndef FACTORD_ORDER_RCM_H_
#define FACTORD_ORDER_RCM_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/matrix/csr.h"

namespace factord {

// The RCM permutation of the square matrix `a`: perm[new_index] =
// old_index, size a.rows. Components are ordered by their lowest-numbered
// node before the final reversal.
std::vector<int32_t> ReverseCuthillMcKee(const CsrMatrix& a);

// inverse[perm[k]] = k; perm is a permutation of 0..n-1.
std::vector<int32_t> InversePermutation(std::span<const int32_t> perm);

// The bandwidth max |i - j| over entries (i, j) of `a` after renumbering
// row/column old -> inverse[old] (inverse as from InversePermutation).
int64_t PermutedBandwidth(const CsrMatrix& a, std::span<const int32_t> inverse);

}  // namespace factord

#endif  // FACTORD_ORDER_RCM_H_
