// Reverse Cuthill-McKee (see core/order/rcm.h).
//
// The adjacency graph of A + A^T is built once (O(nnz)); each component
// costs a few breadth-first searches for the pseudo-peripheral start node
// (George & Liu 1979: repeat BFS from a minimum-degree node of the last
// level while the eccentricity grows) and one for the Cuthill-McKee order.
#include "core/order/rcm.h"

#include <algorithm>
#include <cstdlib>

namespace factord {
namespace {

// Symmetric adjacency lists without self loops, sorted and unique.
struct Graph {
  std::vector<int64_t> ptr;
  std::vector<int32_t> adj;
  int64_t degree(int32_t v) const { return ptr[v + 1] - ptr[v]; }
};

Graph BuildGraph(const CsrMatrix& a) {
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
  std::vector<int32_t> adj(count[n]);
  std::vector<int64_t> next(count.begin(), count.end() - 1);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int32_t j = a.col_idx[k];
      if (j == i) continue;
      adj[next[i]++] = j;
      adj[next[j]++] = static_cast<int32_t>(i);
    }
  }
  Graph g;
  g.ptr.assign(n + 1, 0);
  g.adj.reserve(adj.size());
  for (int64_t i = 0; i < n; ++i) {  // sort and drop duplicates per node
    auto first = adj.begin() + count[i], last = adj.begin() + count[i + 1];
    std::sort(first, last);
    last = std::unique(first, last);
    g.adj.insert(g.adj.end(), first, last);
    g.ptr[i + 1] = static_cast<int64_t>(g.adj.size());
  }
  return g;
}

// Breadth-first search from `root` over the nodes with component[v] == id.
// Appends them to `order` in level order and sets depth[v]; returns the
// largest depth. The caller resets depth[] of the visited nodes to -1.
int32_t BreadthFirst(const Graph& g, int32_t root,
                     std::span<const int32_t> component, int32_t id,
                     std::vector<int32_t>& depth, std::vector<int32_t>& order) {
  order.assign(1, root);
  depth[root] = 0;
  for (size_t head = 0; head < order.size(); ++head) {
    const int32_t v = order[head];
    for (int64_t k = g.ptr[v]; k < g.ptr[v + 1]; ++k) {
      const int32_t w = g.adj[k];
      if (component[w] == id && depth[w] < 0) {
        depth[w] = depth[v] + 1;
        order.push_back(w);
      }
    }
  }
  return depth[order.back()];
}

bool FewerNeighbours(const Graph& g, int32_t x, int32_t y) {
  return g.degree(x) != g.degree(y) ? g.degree(x) < g.degree(y) : x < y;
}

}  // namespace

std::vector<int32_t> ReverseCuthillMcKee(const CsrMatrix& a) {
  const int64_t n = a.rows;
  const Graph g = BuildGraph(a);
  std::vector<int32_t> component(n, -1), level(n, -1), perm;
  perm.reserve(n);
  std::vector<bool> placed(n, false);
  int32_t id = 0;
  for (int64_t seed = 0; seed < n; ++seed, ++id) {
    if (component[seed] >= 0) continue;
    // Collect the component of `seed` (mark with its id).
    std::vector<int32_t> nodes{static_cast<int32_t>(seed)};
    component[seed] = id;
    for (size_t head = 0; head < nodes.size(); ++head) {
      const int32_t v = nodes[head];
      for (int64_t k = g.ptr[v]; k < g.ptr[v + 1]; ++k) {
        if (component[g.adj[k]] < 0) {
          component[g.adj[k]] = id;
          nodes.push_back(g.adj[k]);
        }
      }
    }
    // Pseudo-peripheral node (George & Liu): from a minimum-degree node,
    // move to a minimum-degree node of the last level while that increases
    // the eccentricity.
    int32_t root = nodes[0];
    for (int32_t v : nodes) {
      if (FewerNeighbours(g, v, root)) root = v;
    }
    int32_t eccentricity = -1;
    std::vector<int32_t> order;
    while (true) {
      const int32_t depth = BreadthFirst(g, root, component, id, level, order);
      int32_t best = root;
      if (depth > eccentricity) {
        best = order.back();
        for (int32_t v : order) {
          if (level[v] == depth && FewerNeighbours(g, v, best)) best = v;
        }
      }
      for (int32_t v : order) level[v] = -1;
      if (depth <= eccentricity || best == root) break;
      eccentricity = depth;
      root = best;
    }
    // Cuthill-McKee from root: neighbours by increasing degree, then index.
    const size_t start = perm.size();
    perm.push_back(root);
    placed[root] = true;
    std::vector<int32_t> neighbours;
    for (size_t head = start; head < perm.size(); ++head) {
      const int32_t v = perm[head];
      neighbours.clear();
      for (int64_t k = g.ptr[v]; k < g.ptr[v + 1]; ++k) {
        if (!placed[g.adj[k]]) neighbours.push_back(g.adj[k]);
      }
      std::sort(
          neighbours.begin(), neighbours.end(),
          [&g](int32_t x, int32_t y) { return FewerNeighbours(g, x, y); });
      for (int32_t w : neighbours) {
        placed[w] = true;
        perm.push_back(w);
      }
    }
  }
  std::reverse(perm.begin(), perm.end());
  return perm;
}

std::vector<int32_t> InversePermutation(std::span<const int32_t> perm) {
  std::vector<int32_t> inverse(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) {
    inverse[perm[k]] = static_cast<int32_t>(k);
  }
  return inverse;
}

int64_t PermutedBandwidth(const CsrMatrix& a,
                          std::span<const int32_t> inverse) {
  int64_t bandwidth = 0;
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      bandwidth = std::max<int64_t>(
          bandwidth,
          std::abs(static_cast<int64_t>(inverse[i]) - inverse[a.col_idx[k]]));
    }
  }
  return bandwidth;
}

}  // namespace factord
