// Greedy multicolouring (S1 §II): first-fit colouring in index order, then
// the vertices numbered colour by colour (a counting sort).
#include "core/order/gmc.h"

#include <algorithm>

namespace factord {
namespace {

// Adjacency of A + A^T without the diagonal, as CSR (ptr has n + 1 entries).
void SymmetricAdjacency(const CsrMatrix& a, std::vector<int64_t>* ptr,
                        std::vector<int32_t>* adj) {
  const int64_t n = a.rows;
  std::vector<int64_t> count(n + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t j = a.col_idx[k];
      if (j == i) continue;
      ++count[i + 1];
      ++count[j + 1];
    }
  }
  for (int64_t i = 0; i < n; ++i) count[i + 1] += count[i];
  ptr->assign(count.begin(), count.end());
  adj->resize(count[n]);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t j = a.col_idx[k];
      if (j == i) continue;
      (*adj)[count[i]++] = j;
      (*adj)[count[j]++] = static_cast<int32_t>(i);
    }
  }
}

}  // namespace

std::vector<int32_t> GreedyColouring(const CsrMatrix& a, int32_t* num_colours) {
  const int64_t n = a.rows;
  std::vector<int64_t> ptr;
  std::vector<int32_t> adj;
  SymmetricAdjacency(a, &ptr, &adj);
  std::vector<int32_t> colour(n, -1);
  // forbidden[c] == i marks colour c as taken by a neighbour of vertex i.
  std::vector<int64_t> forbidden;
  int32_t colours = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = ptr[i]; k < ptr[i + 1]; ++k) {
      const int32_t c = colour[adj[k]];
      if (c >= 0) forbidden[c] = i;
    }
    int32_t c = 0;
    while (c < colours && forbidden[c] == i) ++c;
    if (c == colours) {
      ++colours;
      forbidden.push_back(-1);
    }
    colour[i] = c;
  }
  if (num_colours != nullptr) *num_colours = colours;
  return colour;
}

std::vector<int32_t> GmcOrdering(const CsrMatrix& a) {
  int32_t colours = 0;
  const std::vector<int32_t> colour = GreedyColouring(a, &colours);
  std::vector<int64_t> start(colours + 1, 0);
  for (int32_t c : colour) ++start[c + 1];
  for (int32_t c = 0; c < colours; ++c) start[c + 1] += start[c];
  std::vector<int32_t> perm(a.rows);
  for (int64_t i = 0; i < a.rows; ++i) {
    perm[start[colour[i]]++] = static_cast<int32_t>(i);
  }
  return perm;
}

}  // namespace factord
