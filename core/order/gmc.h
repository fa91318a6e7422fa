// Greedy multicolouring (GMC) ordering (S1 §II, refs. [26], [27], [35]):
// colour the graph of A + A^T greedily (each vertex, in index order, takes
// the smallest colour none of its neighbours has) and number the vertices
// colour by colour. Vertices of one colour are mutually independent, so a
// level-scheduled triangular solve or factorization has at most as many
// levels as colours. Limits: not fill-reducing (expect far more fill than
// AMD in a complete factorization); the colouring is greedy, not minimal.
#ifndef FACTORD_ORDER_GMC_H_
#define FACTORD_ORDER_GMC_H_

#include <cstdint>
#include <vector>

#include "core/matrix/csr.h"

namespace factord {

// The greedy colouring of the pattern of A + A^T (values are not read,
// diagonal entries ignored). `a` is square, general or symmetric-lower.
// Returns colour[i] (a.rows entries, colours 0..num_colours-1) and writes
// the number of colours to *num_colours when it is not null.
std::vector<int32_t> GreedyColouring(const CsrMatrix& a,
                                     int32_t* num_colours = nullptr);

// The GMC ordering: perm (a.rows entries) lists the original indices colour
// by colour, by increasing index within a colour; perm[k] is the original
// index of the k-th variable of the ordered matrix.
std::vector<int32_t> GmcOrdering(const CsrMatrix& a);

}  // namespace factord

#endif  // FACTORD_ORDER_GMC_H_
