// The entries of an HSL analysis (IRN/JCN of ma57ad_ or ma27ad_: 1-based,
// either triangle, duplicates allowed) as factord takes them: the lower
// triangle, 0-based COO, entries outside 1..N left out. Duplicates stay
// separate entries; factord sums them (FACTORD_UPLOAD_SUM_DUPLICATES), as
// MA57 and MA27 do.
#ifndef FACTORD_HSL_TRIPLETS_H_
#define FACTORD_HSL_TRIPLETS_H_

#include <cstdint>
#include <vector>

namespace factord::hsl {

struct Triplets {
  int n = 0;
  int64_t entries = 0;  // NE / NZ as given, out-of-range entries included
  // The entries kept, 0-based, row >= col.
  std::vector<int32_t> rows, cols;
  // kept[k]: the caller's index of kept entry k; empty when every entry
  // was kept (the values then go to factord as given).
  std::vector<int64_t> kept;
  int64_t out_of_range = 0;    // entries with an index outside 1..n
  int64_t first_outside = -1;  // the first of them (0-based), or -1
  int64_t duplicates = 0;      // entries at a position an earlier entry holds

  int64_t nnz() const { return static_cast<int64_t>(rows.size()); }
};

// Reads `entries` (>= 0) index pairs; n >= 1; irn/jcn may be NULL only
// when entries is 0.
Triplets ReadTriplets(int n, int64_t entries, const int* irn, const int* jcn);

// True when irn/jcn are the pairs `t` was read from.
bool SamePairs(const Triplets& t, const int* irn, const int* jcn);

// The values of the kept entries out of the caller's `a` (t.entries
// values): `a` itself when every entry was kept, else gathered into
// *buffer.
const double* KeptValues(const Triplets& t, const double* a,
                         std::vector<double>* buffer);

}  // namespace factord::hsl

#endif  // FACTORD_HSL_TRIPLETS_H_
