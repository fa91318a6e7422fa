// Matching-based symmetric scaling (S1 §II and its ref. 18; MC64 job 5,
// Duff & Koster 2001, symmetrized as in Duff & Pralet 2005).
//
// A maximum-product transversal of |A|: minimize sum c_ij over a perfect
// matching with c_ij = log(max_k |a_kj|) - log|a_ij| >= 0, by successive
// shortest augmenting paths (Dijkstra on reduced costs c_ij - u_i - v_j,
// which stay >= 0 and are 0 on matched edges) after a greedy start on the
// zero reduced costs. The duals give the unsymmetric MC64 scaling
// r_i = exp(u_i), c_j = exp(v_j) / max_k |a_kj|, under which every entry
// has magnitude <= 1 and the matched ones exactly 1; the symmetric scaling
// is s_i = sqrt(r_i c_i), so |s_i a_ij s_j| <= 1 still (A is symmetric).
// Rows left unmatched (structurally singular A) get s_i = 1 / max_j
// |a_ij s_j| over the matched part, as Duff & Pralet do.
//
// The matching as a permutation splits into cycles: 2-cycles, and pairs cut
// from longer cycles, are the 2x2 pivot candidates (entries a_{i sigma(i)}
// of magnitude 1 after scaling); 1-cycles are 1x1 candidates.
//
// Limits: O(nnz log n) per augmenting path in the worst case (MC64's own
// bound); entries that are exactly zero cannot be matched.
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "core/order/scaling.h"

namespace factord {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// |A| with both triangles, by column (rows of column j), zeros left out.
struct AbsColumns {
  std::vector<int64_t> ptr;
  std::vector<int32_t> rows;
  std::vector<double> cost;  // c_ij = log(colmax_j) - log|a_ij|
  std::vector<double> log_colmax;
};

AbsColumns BuildColumns(const CsrMatrix& a, std::span<const double> values) {
  const int64_t n = a.rows;
  AbsColumns g;
  g.ptr.assign(n + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (values[k] == 0) continue;
      const int64_t j = a.col_idx[k];
      ++g.ptr[j + 1];
      if (j != i) ++g.ptr[i + 1];
    }
  }
  for (int64_t j = 0; j < n; ++j) g.ptr[j + 1] += g.ptr[j];
  g.rows.resize(g.ptr[n]);
  std::vector<double> mag(g.ptr[n]);
  std::vector<int64_t> next(g.ptr.begin(), g.ptr.end() - 1);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (values[k] == 0) continue;
      const int32_t j = a.col_idx[k];
      const double v = std::abs(values[k]);
      g.rows[next[j]] = static_cast<int32_t>(i);
      mag[next[j]++] = v;
      if (j != i) {
        g.rows[next[i]] = j;
        mag[next[i]++] = v;
      }
    }
  }
  g.cost.resize(g.ptr[n]);
  g.log_colmax.assign(n, 0.0);
  for (int64_t j = 0; j < n; ++j) {
    double colmax = 0;
    for (int64_t e = g.ptr[j]; e < g.ptr[j + 1]; ++e) {
      colmax = std::max(colmax, mag[e]);
    }
    if (colmax == 0) continue;
    g.log_colmax[j] = std::log(colmax);
    for (int64_t e = g.ptr[j]; e < g.ptr[j + 1]; ++e) {
      g.cost[e] = g.log_colmax[j] - std::log(mag[e]);
    }
  }
  return g;
}

// Minimum-cost matching of columns to rows by shortest augmenting paths.
class Matcher {
 public:
  explicit Matcher(const AbsColumns& g)
      : g_(g),
        n_(static_cast<int64_t>(g.ptr.size()) - 1),
        u_(n_, kInf),
        v_(n_, 0.0),
        row_of_(n_, -1),
        col_of_(n_, -1),
        dist_row_(n_, kInf),
        dist_col_(n_, kInf),
        pred_(n_, -1) {}

  void Run() {
    // Duals of the greedy start: u_i = min over row i, v_j = min over
    // column j of c_ij - u_i (rows and columns are the same pattern).
    for (int64_t j = 0; j < n_; ++j) {
      for (int64_t e = g_.ptr[j]; e < g_.ptr[j + 1]; ++e) {
        u_[g_.rows[e]] = std::min(u_[g_.rows[e]], g_.cost[e]);
      }
    }
    for (double& u : u_) {
      if (u == kInf) u = 0;  // an empty row
    }
    for (int64_t j = 0; j < n_; ++j) {
      double best = kInf;
      int32_t best_row = -1;
      for (int64_t e = g_.ptr[j]; e < g_.ptr[j + 1]; ++e) {
        const double r = g_.cost[e] - u_[g_.rows[e]];
        if (r < best || (r == best && row_of_[g_.rows[e]] == -1)) {
          best = r;
          best_row = g_.rows[e];
        }
      }
      if (best_row < 0) continue;
      v_[j] = best;
      if (row_of_[best_row] == -1) {  // a tight edge to a free row
        row_of_[best_row] = static_cast<int32_t>(j);
        col_of_[j] = best_row;
      }
    }
    for (int64_t j = 0; j < n_; ++j) {
      if (col_of_[j] == -1 && g_.ptr[j + 1] > g_.ptr[j]) Augment(j);
    }
  }

  const std::vector<double>& u() const { return u_; }
  const std::vector<double>& v() const { return v_; }
  const std::vector<int32_t>& col_of() const { return col_of_; }

 private:
  // Dijkstra from free column j0 to the nearest free row; then the duals
  // of the settled nodes move by their distance to it and the path flips.
  void Augment(int64_t j0) {
    using Item = std::pair<double, int32_t>;  // (distance, row)
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    std::vector<int32_t> settled_cols = {static_cast<int32_t>(j0)};
    std::vector<int32_t> settled_rows, touched_rows;
    dist_col_[j0] = 0;
    int32_t free_row = -1;
    double length = kInf;
    int64_t j = j0;
    while (true) {
      for (int64_t e = g_.ptr[j]; e < g_.ptr[j + 1]; ++e) {
        const int32_t i = g_.rows[e];
        if (settled_[i]) continue;
        // Reduced costs are >= 0 up to rounding.
        const double d =
            dist_col_[j] + std::max(0.0, g_.cost[e] - u_[i] - v_[j]);
        if (d < dist_row_[i]) {
          if (dist_row_[i] == kInf) touched_rows.push_back(i);
          dist_row_[i] = d;
          pred_[i] = static_cast<int32_t>(j);
          heap.push({d, i});
        }
      }
      int32_t i = -1;
      while (!heap.empty()) {
        const auto [d, row] = heap.top();
        heap.pop();
        if (d == dist_row_[row] && !settled_[row]) {
          i = row;
          break;
        }
      }
      if (i < 0) break;  // no augmenting path: column j0 stays unmatched
      settled_[i] = 1;
      settled_rows.push_back(i);
      if (row_of_[i] == -1) {
        free_row = i;
        length = dist_row_[i];
        break;
      }
      j = row_of_[i];  // matched edge: reduced cost 0
      dist_col_[j] = dist_row_[i];
      settled_cols.push_back(static_cast<int32_t>(j));
    }
    if (free_row >= 0) {
      for (int32_t c : settled_cols) v_[c] += length - dist_col_[c];
      for (int32_t r : settled_rows) u_[r] -= length - dist_row_[r];
      for (int32_t i = free_row; i != -1;) {  // flip the path
        const int32_t c = pred_[i];
        const int32_t previous = col_of_[c];
        col_of_[c] = i;
        row_of_[i] = c;
        i = previous;
      }
    }
    for (int32_t c : settled_cols) dist_col_[c] = kInf;
    for (int32_t r : touched_rows) {
      dist_row_[r] = kInf;
      settled_[r] = 0;
    }
  }

  const AbsColumns& g_;
  int64_t n_;
  std::vector<double> u_, v_;
  std::vector<int32_t> row_of_, col_of_;
  std::vector<double> dist_row_, dist_col_;
  std::vector<int32_t> pred_;
  std::vector<char> settled_ = std::vector<char>(n_, 0);
};

// Cuts a cycle c_0 -> c_1 -> ... (c_{k+1} = sigma(c_k)) into pairs of
// consecutive members, of the two ways the one with the larger product of
// matched |a| (smaller sum of costs); an odd cycle leaves one member alone.
void CutCycle(const std::vector<int32_t>& cycle,
              const std::vector<double>& pair_cost,
              std::vector<std::pair<int32_t, int32_t>>* pairs) {
  const int len = static_cast<int>(cycle.size());
  const int num_pairs = len / 2;
  if (num_pairs == 0) return;
  int best_start = 0;
  double best = kInf;
  for (int start = 0; start < 2; ++start) {
    double cost = 0;
    for (int p = 0; p < num_pairs; ++p) {
      cost += pair_cost[cycle[(start + 2 * p) % len]];
    }
    if (cost < best) {
      best = cost;
      best_start = start;
    }
  }
  for (int p = 0; p < num_pairs; ++p) {
    const int32_t x = cycle[(best_start + 2 * p) % len];
    const int32_t y = cycle[(best_start + 2 * p + 1) % len];
    pairs->push_back({std::min(x, y), std::max(x, y)});
  }
}

}  // namespace

MatchingScaling ComputeMatchingScaling(const CsrMatrix& a,
                                       std::span<const double> values) {
  const int64_t n = a.rows;
  MatchingScaling out;
  const AbsColumns g = BuildColumns(a, values);
  Matcher matcher(g);
  matcher.Run();
  out.match = matcher.col_of();
  out.matched = std::count_if(out.match.begin(), out.match.end(),
                              [](int32_t i) { return i >= 0; });
  // Symmetrized MC64 scaling on the matched indices.
  std::vector<bool> matched_row(n, false);
  for (int32_t i : out.match) {
    if (i >= 0) matched_row[i] = true;
  }
  out.scaling.assign(n, 1.0);
  std::vector<bool> done(n, false);
  for (int64_t i = 0; i < n; ++i) {
    if (out.match[i] >= 0 && matched_row[i]) {
      out.scaling[i] =
          std::exp(0.5 * (matcher.u()[i] + matcher.v()[i] - g.log_colmax[i]));
      done[i] = true;
    }
  }
  // The others: 1 / max |a_ij s_j| over the scaled part (Duff & Pralet).
  for (int64_t j = 0; j < n; ++j) {
    if (done[j]) continue;
    double big = 0;
    for (int64_t e = g.ptr[j]; e < g.ptr[j + 1]; ++e) {
      const int32_t i = g.rows[e];
      if (done[i]) {
        big = std::max(big,
                       std::exp(g.log_colmax[j] - g.cost[e]) * out.scaling[i]);
      }
    }
    if (big > 0 && std::isfinite(big)) out.scaling[j] = 1.0 / big;
  }
  // Cycles of sigma(j) = match[j] on the matched indices.
  std::vector<double> pair_cost(n, 0.0);  // c of the edge (sigma(j), j)
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t e = g.ptr[j]; e < g.ptr[j + 1]; ++e) {
      if (g.rows[e] == out.match[j]) pair_cost[j] = g.cost[e];
    }
  }
  std::vector<bool> seen(n, false);
  std::vector<int32_t> cycle;
  for (int64_t start = 0; start < n; ++start) {
    if (seen[start] || out.match[start] < 0) continue;
    cycle.clear();
    int32_t j = static_cast<int32_t>(start);
    while (j >= 0 && !seen[j]) {
      seen[j] = true;
      cycle.push_back(j);
      j = out.match[j];
    }
    if (j != static_cast<int32_t>(start)) continue;  // a path, not a cycle
    CutCycle(cycle, pair_cost, &out.two_by_two);
  }
  std::sort(out.two_by_two.begin(), out.two_by_two.end());
  return out;
}

}  // namespace factord
