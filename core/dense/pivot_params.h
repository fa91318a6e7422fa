// The dense per-block LDL^T parameters every block factorization uses
// (ldlt's fronts, block_ildlt's diagonal blocks): one place for the pivot
// threshold and the zero-pivot and perturbation sizes.
#ifndef FACTORD_DENSE_PIVOT_PARAMS_H_
#define FACTORD_DENSE_PIVOT_PARAMS_H_

#include <cmath>
#include <limits>

#include "core/dense/kernels/dense_ldlt.h"
#include "core/solver/options.h"

namespace factord::internal {

// A pivot smaller than this times max|S A S| is numerically zero.
inline constexpr double kTinyPivot = 1e-13;

// Static, Bunch-Kaufman or rook pivoting with the threshold u of the pivot
// test |l_ij| <= 1/u (FactorOptions::pivot_threshold, MA57's default 0.01);
// `max_abs` is max|S A S| of the scaled matrix (zero pivots and
// perturbations are relative to it); perturbation sqrt(eps) * max_abs as
// the last resort.
inline kernels::DenseLdltParams DensePivotParams(Pivoting pivoting,
                                                 double threshold,
                                                 double max_abs) {
  kernels::DenseLdltParams params;
  switch (pivoting) {
    case Pivoting::kStatic:
      params.pivoting = kernels::kDenseStatic;
      break;
    case Pivoting::kRook:
      params.pivoting = kernels::kDenseRook;
      break;
    case Pivoting::kBunchKaufman:
      params.pivoting = kernels::kDenseBunchKaufman;
      break;
  }
  params.threshold = threshold;
  const double scale = max_abs > 0 ? max_abs : 1.0;
  params.tiny = kTinyPivot * scale;
  params.perturbation =
      std::sqrt(std::numeric_limits<double>::epsilon()) * scale;
  return params;
}

}  // namespace factord::internal

#endif  // FACTORD_DENSE_PIVOT_PARAMS_H_
