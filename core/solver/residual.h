// The residual norms every solve reports, on the system the factorization
// was asked for: the matrix as uploaded plus the IPM shifts, if any
// (unscaled; a symmetric-lower matrix acts as its expansion). `shift` is
// the diagonal the shifts add (FactorOptions::ShiftVector; empty: none).
#ifndef FACTORD_SOLVER_RESIDUAL_H_
#define FACTORD_SOLVER_RESIDUAL_H_

#include <span>

#include "core/matrix/csr.h"

namespace factord {

struct ResidualNorms {
  double relative_residual = 0;  // ||b - Ax||_2 / ||b||_2 (||r||_2 if b = 0)
  double backward_error =
      0;  // ||b-Ax||_inf / (||A||_inf ||x||_inf + ||b||_inf)
};

// y = A x for a general or symmetric-lower matrix. x and y have a.rows
// entries and must not overlap. Serial: the obviously correct version.
void MultiplyUploaded(const CsrMatrix& a, std::span<const double> x,
                      std::span<double> y);

// y = (A + diag(shift)) x; with an empty shift exactly MultiplyUploaded.
// shift is empty or has a.rows entries.
void MultiplyShifted(const CsrMatrix& a, std::span<const double> shift,
                     std::span<const double> x, std::span<double> y);

// ||A||_inf of the matrix as uploaded (the symmetric one expanded).
double InfinityNorm(const CsrMatrix& a);

// ||A + diag(shift)||_inf (a missing diagonal entry counts as 0 + shift);
// with an empty shift exactly InfinityNorm(a).
double InfinityNorm(const CsrMatrix& a, std::span<const double> shift);

// The true residual norms of x for A x = b. b and x have a.rows entries.
ResidualNorms ComputeResidualNorms(const CsrMatrix& a,
                                   std::span<const double> b,
                                   std::span<const double> x);

// The true residual norms of x for (A + diag(shift)) x = b.
ResidualNorms ComputeResidualNorms(const CsrMatrix& a,
                                   std::span<const double> shift,
                                   std::span<const double> b,
                                   std::span<const double> x);

// The same norms from the residual r = b - A x already computed (so that a
// refinement step multiplies by A once). b, x and r have the same size;
// norm_a is InfinityNorm(A) (with the shift, when A is shifted).
ResidualNorms ResidualNormsOf(std::span<const double> b,
                              std::span<const double> x,
                              std::span<const double> r, double norm_a);

}  // namespace factord

#endif  // FACTORD_SOLVER_RESIDUAL_H_
