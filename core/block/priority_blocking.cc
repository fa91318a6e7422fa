// Priority amalgamation of supervariables (S4 §2.5 Alg. 1; see the header).
#include "core/block/priority_blocking.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/block/supervariables.h"

namespace factord {
namespace {

struct Coupling {
  double weight;
  int32_t first;  // positions, first < second
  int32_t second;
};

class DisjointSets {
 public:
  explicit DisjointSets(const std::vector<int64_t>& sizes)
      : parent_(sizes.size()), size_(sizes) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  int64_t Find(int64_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  int64_t size(int64_t root) const { return size_[root]; }
  // Merges the sets of roots a and b; the smaller-indexed root survives, so
  // the result does not depend on the merge order within a set.
  void Union(int64_t a, int64_t b) {
    if (b < a) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
  }

 private:
  std::vector<int64_t> parent_;
  std::vector<int64_t> size_;
};

}  // namespace

PriorityBlocks PriorityAmalgamation(const CsrMatrix& a,
                                    std::span<const int32_t> order,
                                    std::span<const int64_t> sv_ptr,
                                    int max_block_size) {
  const int64_t n = a.rows;
  max_block_size = std::max(1, max_block_size);
  // Atoms: supervariables, halved until they fit (S4 §2.3).
  const std::vector<int64_t> atoms =
      SplitSupervariables(sv_ptr, max_block_size);
  const int64_t num_atoms = static_cast<int64_t>(atoms.size()) - 1;
  std::vector<int32_t> atom_of_row(n);
  std::vector<int64_t> atom_size(num_atoms);
  for (int64_t t = 0; t < num_atoms; ++t) {
    atom_size[t] = atoms[t + 1] - atoms[t];
    for (int64_t p = atoms[t]; p < atoms[t + 1]; ++p) {
      atom_of_row[order[p]] = static_cast<int32_t>(t);
    }
  }
  std::vector<int32_t> position(n);
  for (int64_t p = 0; p < n; ++p) position[order[p]] = static_cast<int32_t>(p);
  // Column 2-norms: the weights are the entries of C^{-1/2} A C^{-1/2}, the
  // scaling S4 §3 applies before blocking.
  std::vector<double> column_norm(n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      column_norm[a.col_idx[k]] += a.values[k] * a.values[k];
    }
  }
  for (double& c : column_norm) c = std::sqrt(c);
  std::vector<Coupling> couplings;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t j = a.col_idx[k];
      if (atom_of_row[j] == atom_of_row[i]) continue;
      const double scale = std::sqrt(column_norm[i] * column_norm[j]);
      const double weight = scale > 0 ? std::abs(a.values[k]) / scale : 0.0;
      if (!(weight > 0)) continue;  // zero or NaN couples nothing
      couplings.push_back({weight, std::min(position[i], position[j]),
                           std::max(position[i], position[j])});
    }
  }
  std::sort(couplings.begin(), couplings.end(),
            [](const Coupling& x, const Coupling& y) {
              if (x.weight != y.weight) return x.weight > y.weight;
              if (x.first != y.first) return x.first < y.first;
              return x.second < y.second;
            });
  DisjointSets sets(atom_size);
  for (const Coupling& c : couplings) {
    const int64_t s1 = sets.Find(atom_of_row[order[c.first]]);
    const int64_t s2 = sets.Find(atom_of_row[order[c.second]]);
    if (s1 == s2 || sets.size(s1) + sets.size(s2) > max_block_size) continue;
    sets.Union(s1, s2);
  }
  // Blocks by first position: the root of a set is its smallest atom, and
  // atoms are numbered in position order.
  std::vector<int64_t> block_of_root(num_atoms, -1);
  PriorityBlocks blocks;
  std::vector<int64_t> count;
  for (int64_t t = 0; t < num_atoms; ++t) {
    const int64_t root = sets.Find(t);
    if (block_of_root[root] < 0) {
      block_of_root[root] = static_cast<int64_t>(count.size());
      count.push_back(0);
    }
    count[block_of_root[root]] += atom_size[t];
  }
  blocks.block_ptr.assign(count.size() + 1, 0);
  for (size_t b = 0; b < count.size(); ++b) {
    blocks.block_ptr[b + 1] = blocks.block_ptr[b] + count[b];
  }
  std::vector<int64_t> next(blocks.block_ptr.begin(),
                            blocks.block_ptr.end() - 1);
  blocks.order.resize(n);
  for (int64_t p = 0; p < n; ++p) {  // positions in order within a block
    const int64_t b = block_of_root[sets.Find(atom_of_row[order[p]])];
    blocks.order[next[b]++] = order[p];
  }
  return blocks;
}

}  // namespace factord
