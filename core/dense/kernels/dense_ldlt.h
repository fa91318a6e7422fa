// Dense partial LDL^T of a front with 1x1 and 2x2 pivots (S1 §IV-B1, the
// diagonal-block kernel; taken here to fronts of any size for the complete
// factorization). The first p columns of an m x m symmetric front are the
// fully summed ones; the kernel eliminates as many of them as pass the
// threshold test and leaves the others alive, to be delayed to the parent
// front (S2 §V push-back: the pivot moves to a later block instead of being
// perturbed, so the inertia stays exact).
//
// Pivoting (S1 §IV-B1), all with threshold u on the whole column, update
// rows included, so that |L| <= 1/u:
//   static: 1x1 pivots in order, no threshold, only nonzero-ness;
//   Bunch-Kaufman: 1x1 at j, else 1x1 at r (the largest entry of column j
//     among the fully summed rows), else the 2x2 (j, r);
//   rook: as Bunch-Kaufman, but when the 2x2 fails the search moves on to
//     column r and repeats (a few steps).
// A column that is numerically zero (diagonal and every entry below tiny)
// is a zero pivot in any front: it is perturbed at once, not delayed.
// With `force` (the root front) every column is eliminated: after the
// threshold passes stall, the largest remaining pivot is taken without the
// threshold, and a pivot below `tiny` is replaced by +-perturbation and
// counted; the inertia is then unreliable.
//
// Right-looking, unblocked: O(p^2 m) work on the first p columns; the
// update-row by update-row block (the contribution block) is NOT updated
// here: the caller applies that Schur update with BLAS 3. Fronts wider than
// one panel (32 fully summed columns) go through the blocked host driver
// core/dense/kernels/dense_ldlt_blocked.h, which calls this routine unchanged
// below that width.
//
// No allocation: the caller passes the workspaces. Host and device.
#ifndef FACTORD_DENSE_KERNELS_DENSE_LDLT_H_
#define FACTORD_DENSE_KERNELS_DENSE_LDLT_H_

#include <cmath>

#include "core/kernels/host_device.h"

namespace factord::kernels {

enum DensePivoting : int {
  kDenseStatic = 0,
  kDenseBunchKaufman = 1,
  kDenseRook = 2
};

struct DenseLdltParams {
  int pivoting = kDenseBunchKaufman;
  double threshold = 0.01;     // u in (0, 0.5]
  double tiny = 1e-13;         // |pivot| (|det| for 2x2) below this is zero
  bool force = false;          // eliminate every column (root front)
  double perturbation = 1e-8;  // magnitude of a perturbed pivot
  // Delays are cheap while few: when more than delay_budget columns would
  // be left alive, a second pass accepts pivots down to weak_threshold
  // (still never below tiny), trading pivot growth, which iterative
  // refinement absorbs, for fronts that do not snowball towards the root.
  int delay_budget = 1 << 30;
  double weak_threshold = 1e-10;
  // A pivot that passes only the weak threshold is taken when the Schur
  // update it makes stays below this bound (|l| |f| <= g^2 / |d| for a 1x1
  // with column maximum g): weak pivots in a chain of fronts otherwise
  // compound their growth (a column grown by one front's weak pivot is
  // taken weakly again by its parent) until the contribution blocks lose
  // every digit (|S| ~ 1e15 max|A| measured on an Ipopt KKT matrix, with a
  // wrong inertia). Unbounded by default (the warp kernel does not apply
  // it: it runs with the default).
  double max_weak_update = HUGE_VAL;
};

struct DenseLdltCounts {
  int eliminated = 0;  // q: pivots taken (a 2x2 counts 2)
  int two_by_two = 0;  // number of 2x2 pivots
  int perturbed = 0;   // pivots replaced by +-perturbation
  int zero = 0;        // perturbed pivots whose value was exactly 0
  // Pivots taken below the threshold u: in the weak pass, or forced at the
  // root. Zero means |L| <= 1/u for every pivot.
  int weak = 0;
};

namespace dense_ldlt {

// Column-major access, leading dimension m.
FACTORD_HOST_DEVICE inline double& At(double* f, int m, int i, int j) {
  return f[static_cast<long>(j) * m + i];
}

// max |F(i, j)| over alive fully summed rows and all update rows, skipping
// rows skip1 and skip2.
FACTORD_HOST_DEVICE inline double ColumnMax(double* f, int m, int p,
                                            const int* alive, int num_alive,
                                            int j, int skip1, int skip2) {
  double best = 0;
  for (int t = 0; t < num_alive; ++t) {
    const int i = alive[t];
    if (i == skip1 || i == skip2) continue;
    const double v = fabs(At(f, m, i, j));
    if (v > best) best = v;
  }
  for (int i = p; i < m; ++i) {
    const double v = fabs(At(f, m, i, j));
    if (v > best) best = v;
  }
  return best;
}

// The partner of column j: the alive fully summed row i != j with the
// largest |F(i, j)| (the first in alive's order on ties), or -1.
FACTORD_HOST_DEVICE inline int Partner(double* f, int m, const int* alive,
                                       int num_alive, int j) {
  int best = -1;
  double best_v = 0;
  for (int t = 0; t < num_alive; ++t) {
    const int i = alive[t];
    const double v = fabs(At(f, m, i, j));
    if (i != j && v > best_v) {
      best_v = v;
      best = i;
    }
  }
  return best;
}

// Updates of an elimination run over whole columns (rows 0..m-1): rows of
// columns already eliminated receive harmless garbage there (a pivot
// column's L entries are only read on rows alive at its elimination, and
// the upper triangle of eliminated rows is never read), and in exchange the
// loops are contiguous and vectorize.

// Eliminates the 1x1 pivot j (value d) from the alive columns.
FACTORD_HOST_DEVICE inline void Eliminate1x1(double* f, int m, int p,
                                             const int* alive, int num_alive,
                                             int j, double d) {
  const double inv = 1.0 / d;
  double* col_j = &At(f, m, 0, j);
  for (int t = 0; t < num_alive; ++t) {
    const int k = alive[t];
    if (k == j) continue;
    const double wk = col_j[k] * inv;  // l_k
    if (wk == 0) continue;
    double* col_k = &At(f, m, 0, k);
    for (int i = 0; i < m; ++i) col_k[i] -= col_j[i] * wk;
  }
  for (int i = 0; i < m; ++i) col_j[i] *= inv;
}

// Eliminates the 2x2 pivot (j, r) with D = [a b; b c].
FACTORD_HOST_DEVICE inline void Eliminate2x2(double* f, int m, int p,
                                             const int* alive, int num_alive,
                                             int j, int r, double a, double b,
                                             double c) {
  const double det = a * c - b * b;
  const double i11 = c / det, i12 = -b / det, i22 = a / det;
  double* col_j = &At(f, m, 0, j);
  double* col_r = &At(f, m, 0, r);
  for (int t = 0; t < num_alive; ++t) {
    const int k = alive[t];
    if (k == j || k == r) continue;
    const double fj = col_j[k], fr = col_r[k];
    const double lj = fj * i11 + fr * i12, lr = fj * i12 + fr * i22;
    if (lj == 0 && lr == 0) continue;
    double* col_k = &At(f, m, 0, k);
    for (int i = 0; i < m; ++i) col_k[i] -= col_j[i] * lj + col_r[i] * lr;
  }
  for (int i = 0; i < m; ++i) {
    const double fj = col_j[i], fr = col_r[i];
    col_j[i] = fj * i11 + fr * i12;
    col_r[i] = fj * i12 + fr * i22;
  }
}

FACTORD_HOST_DEVICE inline void RemoveAlive(int* alive, int* num_alive, int j) {
  int t = 0;
  while (alive[t] != j) ++t;
  for (; t + 1 < *num_alive; ++t) alive[t] = alive[t + 1];
  --*num_alive;
}

// The per-pivot decisions and bookkeeping below are shared by every dense
// LDL^T kernel: DensePartialLdlt (here), DenseLdltBunchParlett
// (dense_ldlt_full.h), the blocked host driver (cpu/dense_ldlt_blocked.cc)
// and the warp kernel (cuda/warp_ldlt.cuh), so that they take the same
// pivots and write the same outputs.

// A 2x2 pivot D = [a b; b c] that is numerically nonsingular: |det| above
// tiny |b| and above 1e-14 (|ac| + b^2). The forced (root) elimination takes
// a 2x2 on this test alone; Accept2x2 adds the threshold.
FACTORD_HOST_DEVICE inline bool Nonsingular2x2(double a, double b, double c,
                                               double tiny) {
  const double det = a * c - b * b;
  const double scale = fabs(a * c) + b * b;
  return fabs(det) > tiny * fabs(b) && fabs(det) > 1e-14 * scale;
}

// The threshold test of a 2x2 pivot (MA57's): |D^{-1}| [g_j; g_r] <= 1/u.
FACTORD_HOST_DEVICE inline bool Accept2x2(double a, double b, double c,
                                          double g_j, double g_r, double u,
                                          double tiny) {
  if (!Nonsingular2x2(a, b, c, tiny)) return false;
  const double det = a * c - b * b;
  return (fabs(c) * g_j + fabs(b) * g_r) * u <= fabs(det) &&
         (fabs(b) * g_j + fabs(a) * g_r) * u <= fabs(det);
}

// The plain 1x1 threshold test: |a| above tiny and |a| >= u g, g the
// largest other entry of the column (so |l| <= 1/u).
FACTORD_HOST_DEVICE inline bool Passes1x1(double a, double g, double u,
                                          double tiny) {
  return fabs(a) > tiny && fabs(a) >= u * g;
}

// The 1x1 test: threshold u (|l| <= 1/u); in the weak pass (u below
// strong_u) a pivot that fails strong_u must also keep its Schur update
// g^2 / |a| below max_update (DenseLdltParams::max_weak_update).
FACTORD_HOST_DEVICE inline bool Accept1x1(double a, double g, double u,
                                          double strong_u, double max_update,
                                          double tiny) {
  if (!Passes1x1(a, g, u, tiny)) return false;
  return u >= strong_u || fabs(a) >= strong_u * g ||
         g * g <= max_update * fabs(a);
}

// The 2x2 test of Accept2x2 with the weak pass' bound on the update:
// (|l_j| g_j + |l_r| g_r) <= max_update, |l| bounded by |D^{-1}| [g_j; g_r].
FACTORD_HOST_DEVICE inline bool Accept2x2Bounded(double a, double b, double c,
                                                 double g_j, double g_r,
                                                 double u, double strong_u,
                                                 double max_update,
                                                 double tiny) {
  if (!Accept2x2(a, b, c, g_j, g_r, u, tiny)) return false;
  if (u >= strong_u || Accept2x2(a, b, c, g_j, g_r, strong_u, tiny)) {
    return true;
  }
  const double det = fabs(a * c - b * b);
  const double l_j = (fabs(c) * g_j + fabs(b) * g_r) / det;
  const double l_r = (fabs(b) * g_j + fabs(a) * g_r) / det;
  return l_j * g_j + l_r * g_r <= max_update;
}

// The pivot search of S1 §IV-B1 from candidate column j, at threshold u
// (params.threshold, or params.weak_threshold in the weak pass): static
// takes a nonzero 1x1; Bunch-Kaufman the 1x1 at j, else perturbs a
// numerically zero column, else the 1x1 at j's partner r (the largest
// entry of column j among the alive fully summed rows), else the 2x2 (j, r);
// rook repeats the search from r (at most 4 steps). Returns whether a pivot
// was taken. `front` gives the data and the eliminations:
//   At(i, j)                   F(i, j) of the current front;
//   ColumnMax(j, skip1, skip2) dense_ldlt::ColumnMax over its alive rows;
//   Partner(j)                 j's partner, -1 for none;
//   MakeCurrent(r)             column r brought up to date (the blocked
//                              driver's pending panel updates; else a no-op);
//   Take1(j, d), Take2(j, r), Perturb(j)  the eliminations.
// Shared by DensePartialLdlt and the blocked host driver
// (cpu/dense_ldlt_blocked.cc), so both take the same pivots.
template <typename Front>
FACTORD_HOST_DEVICE inline bool SearchPivot(Front& front, int j,
                                            const DenseLdltParams& params,
                                            double u) {
  const double tiny = params.tiny;
  if (params.pivoting == kDenseStatic) {
    const double a = front.At(j, j);
    if (fabs(a) > tiny) {
      front.Take1(j, a);
      return true;
    }
    return false;
  }
  const int steps = params.pivoting == kDenseRook ? 4 : 1;
  for (int step = 0; step < steps; ++step) {
    const double ajj = front.At(j, j);
    const double g_j = front.ColumnMax(j, j, -1);
    if (Accept1x1(ajj, g_j, u, params.threshold, params.max_weak_update,
                  tiny)) {
      front.Take1(j, ajj);
      return true;
    }
    if (fabs(ajj) <= tiny && g_j <= tiny) {
      // A numerically zero column stays zero whatever is eliminated
      // later (its entries are fully summed): delaying cannot help, so
      // it is the zero pivot it is, perturbed and counted here.
      front.Perturb(j);
      return true;
    }
    const int r = front.Partner(j);
    if (r < 0) return false;
    front.MakeCurrent(r);
    const double arr = front.At(r, r);
    const double g_r = front.ColumnMax(r, r, -1);
    if (Accept1x1(arr, g_r, u, params.threshold, params.max_weak_update,
                  tiny)) {
      front.Take1(r, arr);
      return true;
    }
    const double g_j2 = front.ColumnMax(j, j, r);
    const double g_r2 = front.ColumnMax(r, r, j);
    if (Accept2x2Bounded(ajj, front.At(r, j), arr, g_j2, g_r2, u,
                         params.threshold, params.max_weak_update, tiny)) {
      front.Take2(j, r);
      return true;
    }
    j = r;  // rook: continue the search from the partner's column
  }
  return false;
}

// SearchPivot's front over DensePartialLdlt's callables (every column is
// current: MakeCurrent does nothing).
template <typename AtFn, typename ColumnMaxFn, typename PartnerFn,
          typename Take1Fn, typename Take2Fn, typename PerturbFn>
struct UnblockedPivotFront {
  AtFn& at;
  ColumnMaxFn& column_max;
  PartnerFn& partner;
  Take1Fn& take1;
  Take2Fn& take2;
  PerturbFn& perturb;
  FACTORD_HOST_DEVICE double At(int i, int j) { return at(i, j); }
  FACTORD_HOST_DEVICE double ColumnMax(int j, int skip1, int skip2) {
    return column_max(j, skip1, skip2);
  }
  FACTORD_HOST_DEVICE int Partner(int j) { return partner(j); }
  FACTORD_HOST_DEVICE void MakeCurrent(int) {}
  FACTORD_HOST_DEVICE void Take1(int j, double d) { take1(j, d); }
  FACTORD_HOST_DEVICE void Take2(int j, int r) { take2(j, r); }
  FACTORD_HOST_DEVICE void Perturb(int j) { perturb(j); }
};

template <typename AtFn, typename ColumnMaxFn, typename PartnerFn,
          typename Take1Fn, typename Take2Fn, typename PerturbFn>
FACTORD_HOST_DEVICE inline UnblockedPivotFront<AtFn, ColumnMaxFn, PartnerFn,
                                               Take1Fn, Take2Fn, PerturbFn>
MakeUnblockedPivotFront(AtFn& at, ColumnMaxFn& column_max, PartnerFn& partner,
                        Take1Fn& take1, Take2Fn& take2, PerturbFn& perturb) {
  return {at, column_max, partner, take1, take2, perturb};
}

// The Bunch-Parlett step (S2 §IV, DenseLdltBunchParlett) from gamma_d, the
// largest remaining |diagonal|, and gamma_o, the largest remaining
// |off-diagonal|: 0 when both are <= tiny (the remainder is numerically
// zero: perturb the diagonal), 1 for a 1x1 on the diagonal when gamma_d >=
// alpha gamma_o with alpha = (1 + sqrt(17)) / 8, else 2 (the 2x2 on the
// rows of the off-diagonal entry).
FACTORD_HOST_DEVICE inline int BunchParlettPivotSize(double gamma_d,
                                                     double gamma_o,
                                                     double tiny) {
  const double alpha = (1.0 + sqrt(17.0)) / 8.0;
  if (gamma_d <= tiny && gamma_o <= tiny) return 0;
  if (gamma_d >= alpha * gamma_o && gamma_d > tiny) return 1;
  return 2;
}

// The value that replaces the numerically zero pivot a: +-perturbation
// with a's sign (+ for a zero), counted in `counts` (zero when a == 0).
FACTORD_HOST_DEVICE inline double PerturbedPivot(double a, double perturbation,
                                                 DenseLdltCounts* counts) {
  if (a == 0) ++counts->zero;
  ++counts->perturbed;
  return a < 0 ? -perturbation : perturbation;
}

// Records pivot number q of the output convention of DensePartialLdlt:
// column j, size (1, 2 for the first of a pair, 0 for its second, -1 for a
// perturbed 1x1), D(q, q) = d and D(q + 1, q) = off.
FACTORD_HOST_DEVICE inline void RecordPivot(int* order, int* size,
                                            double* d_diag, double* d_off,
                                            int q, int j, int pivot_size,
                                            double d, double off) {
  order[q] = j;
  size[q] = pivot_size;
  d_diag[q] = d;
  d_off[q] = off;
}

// Records the 2x2 pivot (j, r) with D = [a b; b c] at q and q + 1.
FACTORD_HOST_DEVICE inline void Record2x2Pivot(int* order, int* size,
                                               double* d_diag, double* d_off,
                                               int q, int j, int r, double a,
                                               double b, double c) {
  RecordPivot(order, size, d_diag, d_off, q, j, 2, a, b);
  RecordPivot(order, size, d_diag, d_off, q + 1, r, 0, c, 0);
}

// Column t of W = L D over `rows` rows, into w: L's columns start at l
// (leading dimension ld), pivot sizes as RecordPivot writes them (a 2x2's
// two columns each take both of its L columns). A blocked kernel's or a
// front's Schur update is then S -= L W^T.
template <typename PivotSize>
FACTORD_HOST_DEVICE inline void LdColumn(int t, int rows, const double* l,
                                         long ld, const PivotSize* size,
                                         const double* d_diag,
                                         const double* d_off, double* w) {
  const double* lt = l + t * ld;
  const double d = d_diag[t];
  if (size[t] == 2 || size[t] == 0) {
    // The pair (s, s + 1) with D = [a b; b c]: own entry a or c, b.
    const double* other = size[t] == 2 ? lt + ld : lt - ld;
    const double b = d_off[size[t] == 2 ? t : t - 1];
    for (int i = 0; i < rows; ++i) w[i] = lt[i] * d + other[i] * b;
    return;
  }
  for (int i = 0; i < rows; ++i) w[i] = lt[i] * d;
}

}  // namespace dense_ldlt

// Partial factorization of the first p columns of the m x m symmetric front
// `f` (column-major, leading dimension m; the p x p leading block holds both
// triangles, rows p..m-1 of columns 0..p-1 hold the lower rectangle; the
// trailing block is not read or written).
// On return:
//   order[0..q): local indices of the eliminated columns in pivot order;
//   size[t] = 1 for a 1x1, 2 for the first of a 2x2 pair, 0 for its second,
//     -1 for a perturbed 1x1 (numerically zero: counted as a zero pivot);
//   d_diag[t], d_off[t] (= D(t+1, t) for the first of a 2x2, else 0);
//   order[q..p): the columns left alive (delayed), in their local order.
// Column order[t] of f holds L's column t on the rows alive after pivot t
// (later pivots, delayed columns, update rows). The alive rows of alive
// columns hold their Schur complement. `work` has p ints. `outside`
// (nullptr: none) gives for each fully summed column the largest |entry| of
// rows that are not part of f, folded into every column maximum of the
// threshold test (the blocked a-posteriori kernel passes the rows below a
// diagonal block this way, as they were when the block started).
FACTORD_HOST_DEVICE inline DenseLdltCounts DensePartialLdlt(
    double* f, int m, int p, const DenseLdltParams& params, int* order,
    int* size, double* d_diag, double* d_off, int* work,
    const double* outside = nullptr) {
  using dense_ldlt::At;
  DenseLdltCounts counts;
  int* alive = work;
  int num_alive = p;
  for (int t = 0; t < p; ++t) alive[t] = t;
  const double tiny = params.tiny;
  int q = 0;
  auto take1 = [&](int j, double d, int pivot_size = 1) {
    dense_ldlt::Eliminate1x1(f, m, p, alive, num_alive, j, d);
    dense_ldlt::RemoveAlive(alive, &num_alive, j);
    dense_ldlt::RecordPivot(order, size, d_diag, d_off, q, j, pivot_size, d, 0);
    ++q;
  };
  auto take2 = [&](int j, int r) {
    const double a = At(f, m, j, j), b = At(f, m, r, j), c = At(f, m, r, r);
    dense_ldlt::Eliminate2x2(f, m, p, alive, num_alive, j, r, a, b, c);
    dense_ldlt::RemoveAlive(alive, &num_alive, j);
    dense_ldlt::RemoveAlive(alive, &num_alive, r);
    dense_ldlt::Record2x2Pivot(order, size, d_diag, d_off, q, j, r, a, b, c);
    q += 2;
    ++counts.two_by_two;
  };
  auto perturb = [&](int j) {
    take1(j,
          dense_ldlt::PerturbedPivot(At(f, m, j, j), params.perturbation,
                                     &counts),
          -1);
  };
  auto partner = [&](int j) {
    return dense_ldlt::Partner(f, m, alive, num_alive, j);
  };
  auto at = [&](int i, int j) { return At(f, m, i, j); };
  auto column_max = [&](int j, int skip1, int skip2) {
    const double g =
        dense_ldlt::ColumnMax(f, m, p, alive, num_alive, j, skip1, skip2);
    return outside == nullptr || outside[j] <= g ? g : outside[j];
  };
  auto take1_pivot = [&](int j, double d) { take1(j, d); };
  auto front = dense_ldlt::MakeUnblockedPivotFront(at, column_max, partner,
                                                   take1_pivot, take2, perturb);
  double u = params.threshold;
  // Tries to take a pivot starting from candidate column j.
  auto try_pivot = [&](int j) -> bool {
    return dense_ldlt::SearchPivot(front, j, params, u);
  };

  // Threshold passes: cycle through the alive columns until a whole cycle
  // takes no pivot; then, over the delay budget, the weak threshold.
  int strong = 0;  // pivots taken in the first pass
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      strong = q;
      if (num_alive <= params.delay_budget || params.force) break;
      u = params.weak_threshold;
    }
    // Sweeps over the alive columns, each tested once per sweep, repeated
    // while a sweep takes a pivot (re-testing every failed column after
    // each pivot would cost O(p^2 m) on fronts with many delays).
    bool progress = true;
    while (progress && num_alive > 0 &&
           (pass == 0 || num_alive > params.delay_budget)) {
      progress = false;
      int cursor = 0;
      while (cursor < num_alive &&
             (pass == 0 || num_alive > params.delay_budget)) {
        if (try_pivot(alive[cursor])) {
          progress = true;  // the list shifted: test the same position
        } else {
          ++cursor;
        }
      }
    }
  }
  counts.eliminated = q;
  counts.weak = q - strong;
  if (!params.force) {
    for (int t = 0; t < num_alive; ++t) order[q + t] = alive[t];
    return counts;
  }
  // Root: eliminate the rest without the threshold, perturbing what is
  // numerically zero (the last resort; the caller flags the inertia).
  while (num_alive > 0) {
    int j = alive[0];
    for (int t = 1; t < num_alive; ++t) {
      if (fabs(At(f, m, alive[t], alive[t])) > fabs(At(f, m, j, j))) {
        j = alive[t];
      }
    }
    const double a = At(f, m, j, j);
    if (fabs(a) > tiny) {
      take1(j, a);
      continue;
    }
    const int r = partner(j);
    if (r >= 0 &&
        dense_ldlt::Nonsingular2x2(a, At(f, m, r, j), At(f, m, r, r), tiny)) {
      take2(j, r);
      continue;
    }
    perturb(j);
  }
  counts.weak += q - counts.eliminated;
  counts.eliminated = q;
  return counts;
}

}  // namespace factord::kernels

#endif  // FACTORD_DENSE_KERNELS_DENSE_LDLT_H_
