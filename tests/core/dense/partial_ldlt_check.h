// Checks of a dense partial LDL^T against its contract, shared by the tests
// of the blocked kernels: random (saddle-point) fronts, the negative pivot
// count of D, and the reconstruction of the eliminated part and of the
// alive columns' Schur complement.
#ifndef FACTORD_TESTS_CORE_DENSE_PARTIAL_LDLT_CHECK_H_
#define FACTORD_TESTS_CORE_DENSE_PARTIAL_LDLT_CHECK_H_

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/dense/kernels/dense_ldlt.h"
#include "gtest/gtest.h"

namespace factord::internal::ldlt_check {

using kernels::DenseLdltCounts;
using kernels::DenseLdltParams;

// A kernel's outputs and its front afterwards; `perm` (empty: the
// identity) is the permutation of a kernel that moves the fully summed
// rows and columns: position t holds the input's variable perm[t].
struct Result {
  DenseLdltCounts counts;
  std::vector<int> order, size;
  std::vector<double> d_diag, d_off, front;
  std::vector<int> perm;
};

// Outputs sized for p fully summed columns (perm left empty).
inline Result SizedFor(int p) {
  Result r;
  r.order.resize(p);
  r.size.resize(p);
  r.d_diag.resize(p);
  r.d_off.resize(p);
  return r;
}

// The saddle point [I B; B^T 0] (both triangles) with I of order n1 and B
// n1 x n2 random in its first `rank` columns and zero in the others: n2 -
// rank null pivots, `rank` negative eigenvalues.
inline std::vector<double> RankDeficientSaddle(int n1, int n2, int rank,
                                               unsigned seed) {
  const int m = n1 + n2;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> v(-1.0, 1.0);
  std::vector<double> a(static_cast<size_t>(m) * m, 0.0);
  for (int i = 0; i < n1; ++i) a[static_cast<size_t>(i) * m + i] = 1.0;
  for (int j = 0; j < n2; ++j) {
    for (int i = 0; i < n1; ++i) {
      const double x = j < rank ? v(gen) : 0.0;
      a[static_cast<size_t>(n1 + j) * m + i] = x;
      a[static_cast<size_t>(i) * m + n1 + j] = x;
    }
  }
  return a;
}

// Symmetric m x m: a random sparse-ish indefinite matrix; with `saddle`, the
// last m/3 rows have a zero diagonal and no coupling among themselves.
inline std::vector<double> Random(int m, bool saddle, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> v(-1.0, 1.0);
  std::vector<double> a(static_cast<size_t>(m) * m, 0.0);
  const int m2 = saddle ? m / 3 : 0;
  for (int j = 0; j < m; ++j) {
    for (int i = j; i < m; ++i) {
      if (i >= m - m2 && j >= m - m2) continue;  // the zero (2,2) block
      if (i != j && v(gen) < 0.2) continue;
      const double x = i == j ? 4 * v(gen) : v(gen);
      a[static_cast<size_t>(j) * m + i] = x;
      a[static_cast<size_t>(i) * m + j] = x;
    }
  }
  return a;
}

// Negative eigenvalue count of D (1x1 and 2x2 blocks).
inline int Negatives(const Result& r) {
  int neg = 0;
  for (int t = 0; t < r.counts.eliminated; ++t) {
    if (r.size[t] == 2) {
      const double a = r.d_diag[t], b = r.d_off[t], c = r.d_diag[t + 1];
      const double det = a * c - b * b;
      neg += det < 0 ? 1 : (a + c < 0 ? 2 : 0);
      ++t;
    } else {
      neg += r.d_diag[t] < 0;
    }
  }
  return neg;
}

// Checks A(R, R) == [L11; L21] D [L11; L21]^T on the pivot columns and the
// alive columns' Schur complement, where R lists the pivots in order, then
// the alive fully summed columns, then the update rows (positions of the
// kernel's numbering; A is read through r.perm). Returns max |L|.
inline double CheckFactor(const std::vector<double>& a, const Result& r, int m,
                          int p) {
  const int q = r.counts.eliminated;
  std::vector<int> rows(r.order.begin(), r.order.end());
  for (int i = p; i < m; ++i) rows.push_back(i);
  auto var = [&](int i) { return i < p && !r.perm.empty() ? r.perm[i] : i; };
  auto a_at = [&](int i, int j) {
    return a[static_cast<size_t>(var(j)) * m + var(i)];
  };
  auto f_at = [&](int i, int j) {
    return r.front[static_cast<size_t>(j) * m + i];
  };
  // L(s, t) for s >= t over the ordered rows.
  auto l_at = [&](int s, int t) -> double {
    if (s == t) return 1.0;
    if (s < t || (r.size[t] == 2 && s == t + 1)) return 0.0;
    return f_at(rows[s], r.order[t]);
  };
  double max_l = 0, scale = 0;
  for (double x : a) scale = std::max(scale, std::fabs(x));
  const int n = static_cast<int>(rows.size());
  for (int s = 0; s < n; ++s) {
    for (int t = 0; t < q; ++t) max_l = std::max(max_l, std::fabs(l_at(s, t)));
  }
  // (L D L^T)(s, u) = sum_t L(s, t) (D L^T)(t, u).
  auto ldlt = [&](int s, int u) {
    double sum = 0;
    for (int t = 0; t < q; ++t) {
      if (r.size[t] == 2) {
        const double a0 = r.d_diag[t], b0 = r.d_off[t], c0 = r.d_diag[t + 1];
        const double ls0 = l_at(s, t), ls1 = l_at(s, t + 1);
        const double lu0 = l_at(u, t), lu1 = l_at(u, t + 1);
        sum += ls0 * (a0 * lu0 + b0 * lu1) + ls1 * (b0 * lu0 + c0 * lu1);
        ++t;
      } else {
        sum += l_at(s, t) * r.d_diag[t] * l_at(u, t);
      }
    }
    return sum;
  };
  for (int u = 0; u < p; ++u) {
    for (int s = u; s < n; ++s) {
      const double want = a_at(rows[s], rows[u]);
      if (u < q) {
        if (r.size[u] == -1) continue;  // a perturbed pivot: D differs
        EXPECT_NEAR(ldlt(s, u), want, 1e-9 * scale) << "s=" << s << " u=" << u;
      } else {
        // Alive column: Schur complement on the alive and update rows.
        EXPECT_NEAR(f_at(rows[s], rows[u]) + ldlt(s, u), want, 1e-9 * scale)
            << "alive s=" << s << " u=" << u;
      }
    }
  }
  return max_l;
}

}  // namespace factord::internal::ldlt_check

#endif  // FACTORD_TESTS_CORE_DENSE_PARTIAL_LDLT_CHECK_H_
