// See triplets.h. Duplicates are counted once per extra entry by sorting
// the positions (the analysis runs once per pattern).
#include "hsl/triplets.h"

#include <algorithm>

namespace factord::hsl {
namespace {

bool Inside(int n, int i) { return i >= 1 && i <= n; }

}  // namespace

Triplets ReadTriplets(int n, int64_t entries, const int* irn, const int* jcn) {
  Triplets t;
  t.n = n;
  t.entries = entries;
  t.rows.reserve(entries);
  t.cols.reserve(entries);
  t.kept.reserve(entries);
  for (int64_t e = 0; e < entries; ++e) {
    const int i = irn[e], j = jcn[e];
    if (!Inside(n, i) || !Inside(n, j)) {
      if (t.out_of_range++ == 0) t.first_outside = e;
      continue;
    }
    t.kept.push_back(e);
    t.rows.push_back(std::max(i, j) - 1);
    t.cols.push_back(std::min(i, j) - 1);
  }
  if (t.out_of_range == 0) t.kept = {};  // the values go as given
  std::vector<int64_t> positions(t.rows.size());
  for (size_t k = 0; k < positions.size(); ++k) {
    positions[k] = int64_t{t.rows[k]} * n + t.cols[k];
  }
  std::sort(positions.begin(), positions.end());
  for (size_t k = 1; k < positions.size(); ++k) {
    if (positions[k] == positions[k - 1]) ++t.duplicates;
  }
  return t;
}

bool SamePairs(const Triplets& t, const int* irn, const int* jcn) {
  int64_t k = 0;
  for (int64_t e = 0; e < t.entries; ++e) {
    const int i = irn[e], j = jcn[e];
    const bool inside = Inside(t.n, i) && Inside(t.n, j);
    const bool was_kept =
        k < t.nnz() && (t.kept.empty() ? k == e : t.kept[k] == e);
    if (inside != was_kept) return false;
    if (!inside) continue;
    if (t.rows[k] != std::max(i, j) - 1 || t.cols[k] != std::min(i, j) - 1) {
      return false;
    }
    ++k;
  }
  return k == t.nnz();
}

const double* KeptValues(const Triplets& t, const double* a,
                         std::vector<double>* buffer) {
  if (t.out_of_range == 0) return a;
  buffer->resize(t.kept.size());
  for (size_t k = 0; k < t.kept.size(); ++k) (*buffer)[k] = a[t.kept[k]];
  return buffer->data();
}

}  // namespace factord::hsl
